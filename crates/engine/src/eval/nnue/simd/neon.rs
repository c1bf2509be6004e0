//! The 64-bit ARM loops (Apple Silicon, Graviton, a Raspberry Pi 4): NEON, 8 lanes of 16 bits.
//! Every `aarch64` processor has NEON and the target enables it, so these are compiled only in
//! builds for such a target and need no detection.

use super::super::network::Activation;
use std::arch::aarch64::*;

// ANCHOR: update_neon
/// One pass over the accumulator, 8 lanes at a time, as the AVX2 code does with 16.
///
/// # Safety
/// `input` and `out` have `n` lanes, a multiple of 16 (so of 8), and `weights` holds `n` lanes
/// for every row named in `added` and `removed`.
pub(super) unsafe fn update(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let n = out.len();
    for c in (0..n).step_by(8) {
        // SAFETY: `c + 8 <= n` for every slice read or written here (the caller's contract);
        // NEON's loads and stores of 16-bit lanes need only the lanes' own alignment.
        unsafe {
            let mut v = vld1q_s16(input.as_ptr().add(c));
            for &a in added {
                v = vaddq_s16(v, vld1q_s16(weights.as_ptr().add(a as usize * n + c)));
            }
            for &r in removed {
                v = vsubq_s16(v, vld1q_s16(weights.as_ptr().add(r as usize * n + c)));
            }
            vst1q_s16(out.as_mut_ptr().add(c), v);
        }
    }
}
// ANCHOR_END: update_neon

/// The output layer's sum. NEON has no `madd`: the 16-bit products are widened and added into
/// 32-bit lanes by `vmlal` (the low four) and `vmlal_high` (the high four).
///
/// # Safety
/// `us` and `them` have `n` lanes, a multiple of 16, and `weights` `2n`.
pub(super) unsafe fn output(
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    let n = us.len();
    let zero = vdupq_n_s16(0);
    let qa = vdupq_n_s16(super::QA as i16);
    let mut sum = vdupq_n_s32(0);
    for (acc, offset) in [(us, 0), (them, n)] {
        for c in (0..n).step_by(8) {
            // SAFETY: `c + 8 <= n`, `acc` has `n` lanes and `weights` `2n` (the caller's
            // contract).
            let (x, w) = unsafe {
                (
                    vld1q_s16(acc.as_ptr().add(c)),
                    vld1q_s16(weights.as_ptr().add(offset + c)),
                )
            };
            let v = vminq_s16(vmaxq_s16(x, zero), qa);
            // SCReLU: `(v·w)` in 16 bits, wrapping as `mullo` does, then `· v`; CReLU: `v · w`.
            let a = match activation {
                Activation::SCReLU => vmulq_s16(v, w),
                Activation::CReLU => w,
            };
            sum = vmlal_s16(sum, vget_low_s16(a), vget_low_s16(v));
            sum = vmlal_high_s16(sum, a, v);
        }
    }
    vaddvq_s32(sum)
}
