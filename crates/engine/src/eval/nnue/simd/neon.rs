//! The 64-bit ARM instructions (Apple Silicon, Graviton, a Raspberry Pi 4): NEON, 8 lanes of 16
//! bits. Every `aarch64` processor has NEON and the target enables it, so this file is compiled
//! only into builds whose target has it, and its code needs no detection.

use super::super::network::Activation;
use super::lanes::{self, Lanes};
use std::arch::aarch64::*;

// ANCHOR: neon
pub(super) struct Neon;

// SAFETY (every method): NEON is enabled in the whole build (this file is compiled only where
// the target has it), and `load` and `store` get `LANES` lanes at their pointer (the trait's
// contract); NEON's 16-bit loads and stores need only the lanes' own alignment.
impl Lanes for Neon {
    const LANES: usize = 8;
    type V = int16x8_t;
    type Sum = int32x4_t;
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn load(p: *const i16) -> int16x8_t {
        // SAFETY: see the impl.
        unsafe { vld1q_s16(p) }
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn store(p: *mut i16, v: int16x8_t) {
        // SAFETY: see the impl.
        unsafe { vst1q_s16(p, v) }
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn splat(x: i16) -> int16x8_t {
        vdupq_n_s16(x)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn add(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        vaddq_s16(a, b)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn sub(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        vsubq_s16(a, b)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn min(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        vminq_s16(a, b)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn max(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        vmaxq_s16(a, b)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn mul(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        vmulq_s16(a, b)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn zero_sum() -> int32x4_t {
        vdupq_n_s32(0)
    }
    /// NEON has no `madd`: the products are widened and added by `vmlal` (the low four lanes)
    /// and `vmlal_high` (the high four).
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn add_products(sum: int32x4_t, a: int16x8_t, b: int16x8_t) -> int32x4_t {
        vmlal_high_s16(vmlal_s16(sum, vget_low_s16(a), vget_low_s16(b)), a, b)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn total(sum: int32x4_t) -> i32 {
        vaddvq_s32(sum)
    }
}
// ANCHOR_END: neon

/// The accumulator update, NEON.
///
/// # Safety
/// `input` and `out` have `n` lanes, a multiple of 16, and `weights` holds `n` lanes for every
/// row named in `added` and `removed`.
#[target_feature(enable = "neon")]
pub(super) unsafe fn update(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    // SAFETY: NEON is enabled in this build; the lengths are the caller's contract.
    unsafe { lanes::update::<Neon>(0, out, input, weights, added, removed) }
}

/// The output layer's sum, NEON.
///
/// # Safety
/// `us` and `them` have `n` lanes, a multiple of 16, and `weights` `2n`.
#[target_feature(enable = "neon")]
pub(super) unsafe fn output(
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    // SAFETY: NEON is enabled in this build; the lengths are the caller's contract.
    unsafe { Neon::total(lanes::output::<Neon>(0, activation, us, them, weights)) }
}
