//! The browser's instructions: WebAssembly SIMD128, 8 lanes of 16 bits. A module cannot ask the
//! browser what it supports: this file is compiled only into a module built with
//! `-C target-feature=+simd128` (scripts/web-build), which every current browser runs, and its
//! code needs no detection.

use super::super::network::Activation;
use super::lanes::{self, Lanes};
use std::arch::wasm32::*;

// ANCHOR: simd128
pub(super) struct Simd128;

// SAFETY (every method): SIMD128 is enabled in the whole build (this file is compiled only
// where it is), and `load` and `store` get `LANES` lanes at their pointer (the trait's
// contract); WebAssembly's loads and stores need no alignment.
impl Lanes for Simd128 {
    const LANES: usize = 8;
    type V = v128;
    type Sum = v128;
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn load(p: *const i16) -> v128 {
        // SAFETY: see the impl.
        unsafe { v128_load(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn store(p: *mut i16, v: v128) {
        // SAFETY: see the impl.
        unsafe { v128_store(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn splat(x: i16) -> v128 {
        i16x8_splat(x)
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn add(a: v128, b: v128) -> v128 {
        i16x8_add(a, b)
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn sub(a: v128, b: v128) -> v128 {
        i16x8_sub(a, b)
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn min(a: v128, b: v128) -> v128 {
        i16x8_min(a, b)
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn max(a: v128, b: v128) -> v128 {
        i16x8_max(a, b)
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn mul(a: v128, b: v128) -> v128 {
        i16x8_mul(a, b)
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn zero_sum() -> v128 {
        i32x4_splat(0)
    }
    /// `i32x4.dot_i16x8_s` is SIMD128's `madd`.
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn add_products(sum: v128, a: v128, b: v128) -> v128 {
        i32x4_add(sum, i32x4_dot_i16x8(a, b))
    }
    #[inline]
    #[target_feature(enable = "simd128")]
    unsafe fn total(sum: v128) -> i32 {
        i32x4_extract_lane::<0>(sum)
            .wrapping_add(i32x4_extract_lane::<1>(sum))
            .wrapping_add(i32x4_extract_lane::<2>(sum))
            .wrapping_add(i32x4_extract_lane::<3>(sum))
    }
}
// ANCHOR_END: simd128

/// The accumulator update, SIMD128.
///
/// # Safety
/// `input` and `out` have `n` lanes, a multiple of 16, and `weights` holds `n` lanes for every
/// row named in `added` and `removed`.
#[target_feature(enable = "simd128")]
pub(super) unsafe fn update(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    // SAFETY: SIMD128 is enabled in this build; the lengths are the caller's contract.
    unsafe { lanes::update::<Simd128>(0, out, input, weights, added, removed) }
}

/// The output layer's sum, SIMD128.
///
/// # Safety
/// `us` and `them` have `n` lanes, a multiple of 16, and `weights` `2n`.
#[target_feature(enable = "simd128")]
pub(super) unsafe fn output(
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    // SAFETY: SIMD128 is enabled in this build; the lengths are the caller's contract.
    unsafe { Simd128::total(lanes::output::<Simd128>(0, activation, us, them, weights)) }
}
