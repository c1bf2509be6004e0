//! The browser's loops: WebAssembly SIMD128, 8 lanes of 16 bits. A module has no way to ask
//! the browser what it supports: these are compiled only into a module built with
//! `-C target-feature=+simd128` (scripts/web-build), which every current browser runs.

use super::super::network::Activation;
use std::arch::wasm32::*;

// ANCHOR: update_simd128
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
        // WebAssembly's loads and stores need no alignment.
        unsafe {
            let mut v = v128_load(input.as_ptr().add(c).cast());
            for &a in added {
                let w = v128_load(weights.as_ptr().add(a as usize * n + c).cast());
                v = i16x8_add(v, w);
            }
            for &r in removed {
                let w = v128_load(weights.as_ptr().add(r as usize * n + c).cast());
                v = i16x8_sub(v, w);
            }
            v128_store(out.as_mut_ptr().add(c).cast(), v);
        }
    }
}
// ANCHOR_END: update_simd128

/// The output layer's sum: `i32x4_dot_i16x8` is SIMD128's `madd`.
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
    let zero = i16x8_splat(0);
    let qa = i16x8_splat(super::QA as i16);
    let mut sum = i32x4_splat(0);
    for (acc, offset) in [(us, 0), (them, n)] {
        for c in (0..n).step_by(8) {
            // SAFETY: `c + 8 <= n`, `acc` has `n` lanes and `weights` `2n` (the caller's
            // contract); WebAssembly's loads need no alignment.
            let (x, w) = unsafe {
                (
                    v128_load(acc.as_ptr().add(c).cast()),
                    v128_load(weights.as_ptr().add(offset + c).cast()),
                )
            };
            let v = i16x8_min(i16x8_max(x, zero), qa);
            let term = match activation {
                Activation::SCReLU => i32x4_dot_i16x8(i16x8_mul(v, w), v),
                Activation::CReLU => i32x4_dot_i16x8(v, w),
            };
            sum = i32x4_add(sum, term);
        }
    }
    i32x4_extract_lane::<0>(sum)
        .wrapping_add(i32x4_extract_lane::<1>(sum))
        .wrapping_add(i32x4_extract_lane::<2>(sum))
        .wrapping_add(i32x4_extract_lane::<3>(sum))
}
