//! The x86-64 loops: AVX2 (16 lanes of 16 bits) and AVX-512 (32 lanes). Each function here is
//! compiled for its instruction set with `#[target_feature]` and is only called through a
//! [`super::Simd`] value that detection made, after it found the instructions on this processor.
//!
//! Every loop takes a lane range `start..n` of accumulators `n` lanes wide: the AVX-512 loops
//! hand the last 16 lanes of a width that is not a multiple of 32 to the AVX2 ones.

use super::super::network::Activation;
use std::arch::x86_64::*;

// ANCHOR: update_avx2
/// One pass over the accumulator, 16 lanes at a time: each lane is loaded once, every changed
/// row added or subtracted in a register, and stored once.
///
/// # Safety
/// The processor has AVX2; `input` and `out` have `n` lanes, `n - start` is a multiple of 16,
/// and `weights` holds `n` lanes for every row named in `added` and `removed`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn update_avx2(
    start: usize,
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let n = out.len();
    for c in (start..n).step_by(16) {
        // SAFETY: `c + 16 <= n` for every slice read or written here (the caller's contract);
        // unaligned loads and stores need no alignment.
        unsafe {
            let mut v = _mm256_loadu_si256(input.as_ptr().add(c).cast());
            for &a in added {
                let w = _mm256_loadu_si256(weights.as_ptr().add(a as usize * n + c).cast());
                v = _mm256_add_epi16(v, w);
            }
            for &r in removed {
                let w = _mm256_loadu_si256(weights.as_ptr().add(r as usize * n + c).cast());
                v = _mm256_sub_epi16(v, w);
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(c).cast(), v);
        }
    }
}
// ANCHOR_END: update_avx2

/// The output layer's sum over lanes `start..n` of both accumulators, in eight 32-bit lanes.
///
/// # Safety
/// The processor has AVX2; `us` and `them` have `n` lanes, `weights` `2n`, and `n - start` is a
/// multiple of 16.
#[target_feature(enable = "avx2")]
unsafe fn output_lanes_avx2(
    start: usize,
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> __m256i {
    let n = us.len();
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(super::QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (acc, offset) in [(us, 0), (them, n)] {
        for c in (start..n).step_by(16) {
            // SAFETY: `c + 16 <= n`, `acc` has `n` lanes and `weights` `2n` (the caller's
            // contract); unaligned loads need no alignment.
            unsafe {
                let x = _mm256_loadu_si256(acc.as_ptr().add(c).cast());
                let w = _mm256_loadu_si256(weights.as_ptr().add(offset + c).cast());
                let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                let term = match activation {
                    // `(v·w)` in 16 bits, then `· v` and pairs added, in 32.
                    Activation::SCReLU => _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v),
                    Activation::CReLU => _mm256_madd_epi16(v, w),
                };
                sum = _mm256_add_epi32(sum, term);
            }
        }
    }
    sum
}

#[target_feature(enable = "avx2")]
fn add_lanes_avx2(sum: __m256i) -> i32 {
    let hi = _mm256_extracti128_si256::<1>(sum);
    let s = _mm_add_epi32(_mm256_castsi256_si128(sum), hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
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
    // SAFETY: the caller's contract is this function's, from lane 0.
    add_lanes_avx2(unsafe { output_lanes_avx2(0, activation, us, them, weights) })
}

/// The lanes that 32-lane vectors cover: all but a last 16 where `n` is not a multiple of 32.
fn wide_lanes(n: usize) -> usize {
    n - n % 32
}

// ANCHOR: update_avx512
/// The same pass as [`update_avx2`], 32 lanes at a time.
///
/// # Safety
/// The processor has AVX-512 F and BW and AVX2; `input` and `out` have `n` lanes, a multiple of
/// 16, and `weights` holds `n` lanes for every row named in `added` and `removed`.
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(super) unsafe fn update_avx512(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let n = out.len();
    let wide = wide_lanes(n);
    for c in (0..wide).step_by(32) {
        // SAFETY: `c + 32 <= wide <= n` for every slice read or written here (the caller's
        // contract); unaligned loads and stores need no alignment.
        unsafe {
            let mut v = _mm512_loadu_si512(input.as_ptr().add(c).cast());
            for &a in added {
                let w = _mm512_loadu_si512(weights.as_ptr().add(a as usize * n + c).cast());
                v = _mm512_add_epi16(v, w);
            }
            for &r in removed {
                let w = _mm512_loadu_si512(weights.as_ptr().add(r as usize * n + c).cast());
                v = _mm512_sub_epi16(v, w);
            }
            _mm512_storeu_si512(out.as_mut_ptr().add(c).cast(), v);
        }
    }
    // SAFETY: AVX2 is enabled here, and `n - wide` is 0 or 16.
    unsafe { update_avx2(wide, out, input, weights, added, removed) }
}
// ANCHOR_END: update_avx512

/// The output layer's sum, 32 lanes at a time.
///
/// # Safety
/// As [`update_avx512`]: AVX-512 F and BW and AVX2; `us` and `them` have `n` lanes, a multiple
/// of 16, and `weights` `2n`.
#[target_feature(enable = "avx512f,avx512bw,avx2")]
pub(super) unsafe fn output_avx512(
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    let n = us.len();
    let wide = wide_lanes(n);
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(super::QA as i16);
    let mut sum = _mm512_setzero_si512();
    for (acc, offset) in [(us, 0), (them, n)] {
        for c in (0..wide).step_by(32) {
            // SAFETY: `c + 32 <= n`, `acc` has `n` lanes and `weights` `2n` (the caller's
            // contract); unaligned loads need no alignment.
            unsafe {
                let x = _mm512_loadu_si512(acc.as_ptr().add(c).cast());
                let w = _mm512_loadu_si512(weights.as_ptr().add(offset + c).cast());
                let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), qa);
                let term = match activation {
                    Activation::SCReLU => _mm512_madd_epi16(_mm512_mullo_epi16(v, w), v),
                    Activation::CReLU => _mm512_madd_epi16(v, w),
                };
                sum = _mm512_add_epi32(sum, term);
            }
        }
    }
    // SAFETY: AVX2 is enabled here, and `n - wide` is 0 or 16.
    let tail = unsafe { output_lanes_avx2(wide, activation, us, them, weights) };
    _mm512_reduce_add_epi32(sum).wrapping_add(add_lanes_avx2(tail))
}
