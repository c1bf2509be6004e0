//! The x86-64 instructions: AVX2 (16 lanes of 16 bits) and AVX-512 (32 lanes). Each function
//! here is compiled with its instruction set enabled by `#[target_feature]` and is only called
//! through a [`super::Simd`] value that detection made, after it found the instructions on this
//! processor.

use super::super::network::Activation;
use super::lanes::{self, Lanes, end};
use std::arch::x86_64::*;

// ANCHOR: avx2
pub(super) struct Avx2;

// SAFETY (every method): the trait's contract: AVX2 enabled in the caller, and `LANES` lanes
// at a pointer given to `load` or `store`; unaligned loads and stores need no alignment.
impl Lanes for Avx2 {
    const LANES: usize = 16;
    type V = __m256i;
    type Sum = __m256i;
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(p: *const i16) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(p: *mut i16, v: __m256i) {
        // SAFETY: see the impl.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(x: i16) -> __m256i {
        _mm256_set1_epi16(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
        _mm256_sub_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn min(a: __m256i, b: __m256i) -> __m256i {
        _mm256_min_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn max(a: __m256i, b: __m256i) -> __m256i {
        _mm256_max_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mul(a: __m256i, b: __m256i) -> __m256i {
        _mm256_mullo_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zero_sum() -> __m256i {
        _mm256_setzero_si256()
    }
    /// `madd`: the 16 products in 32 bits, added in pairs into 8 lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add_products(sum: __m256i, a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi32(sum, _mm256_madd_epi16(a, b))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn total(sum: __m256i) -> i32 {
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}
// ANCHOR_END: avx2

pub(super) struct Avx512;

// SAFETY (every method): the trait's contract: AVX-512 F and BW enabled in the caller, and
// `LANES` lanes at a pointer given to `load` or `store`; unaligned loads and stores need no
// alignment.
impl Lanes for Avx512 {
    const LANES: usize = 32;
    type V = __m512i;
    type Sum = __m512i;
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load(p: *const i16) -> __m512i {
        // SAFETY: see the impl.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn store(p: *mut i16, v: __m512i) {
        // SAFETY: see the impl.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn splat(x: i16) -> __m512i {
        _mm512_set1_epi16(x)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
        _mm512_sub_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn min(a: __m512i, b: __m512i) -> __m512i {
        _mm512_min_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn max(a: __m512i, b: __m512i) -> __m512i {
        _mm512_max_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn mul(a: __m512i, b: __m512i) -> __m512i {
        _mm512_mullo_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn zero_sum() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn add_products(sum: __m512i, a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi32(sum, _mm512_madd_epi16(a, b))
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn total(sum: __m512i) -> i32 {
        _mm512_reduce_add_epi32(sum)
    }
}

/// The accumulator update, AVX2.
///
/// # Safety
/// The processor has AVX2; `input` and `out` have `n` lanes, a multiple of 16, and `weights`
/// holds `n` lanes for every row named in `added` and `removed`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn update_avx2(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    // SAFETY: AVX2 is enabled here; the lengths are the caller's contract.
    unsafe { lanes::update::<Avx2>(0, out, input, weights, added, removed) }
}

/// The output layer's sum, AVX2.
///
/// # Safety
/// The processor has AVX2; `us` and `them` have `n` lanes, a multiple of 16, and `weights` `2n`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn output_avx2(
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    // SAFETY: AVX2 is enabled here; the lengths are the caller's contract.
    unsafe { Avx2::total(lanes::output::<Avx2>(0, activation, us, them, weights)) }
}

/// The accumulator update, AVX-512: 32 lanes at a time, and the last 16 with AVX2 where the
/// width is not a multiple of 32.
///
/// # Safety
/// The processor has AVX-512 F and BW and AVX2; the lengths as for [`update_avx2`].
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(super) unsafe fn update_avx512(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let wide = end::<Avx512>(0, out.len());
    // SAFETY: both instruction sets are enabled here; the lengths are the caller's contract.
    unsafe {
        lanes::update::<Avx512>(0, out, input, weights, added, removed);
        lanes::update::<Avx2>(wide, out, input, weights, added, removed);
    }
}

/// The output layer's sum, AVX-512 (and AVX2 for a last 16 lanes, as in [`update_avx512`]).
///
/// # Safety
/// The processor has AVX-512 F and BW and AVX2; the lengths as for [`output_avx2`].
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(super) unsafe fn output_avx512(
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    let wide = end::<Avx512>(0, us.len());
    // SAFETY: both instruction sets are enabled here; the lengths are the caller's contract.
    unsafe {
        let sum = lanes::output::<Avx512>(0, activation, us, them, weights);
        let tail = lanes::output::<Avx2>(wide, activation, us, them, weights);
        Avx512::total(sum).wrapping_add(Avx2::total(tail))
    }
}
