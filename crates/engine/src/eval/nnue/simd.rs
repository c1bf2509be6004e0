//! The two loops the network spends its time in, each written twice: plain Rust that runs on any
//! processor, and AVX2 for the x86-64 processors that have it (chosen at run time, so one binary
//! runs everywhere). Both give bit-identical results; a test checks it.
//!
//! - [`update`]: a child's accumulator from its parent's, plus the rows of the inputs that came
//!   on and minus those that went off. 16-bit lanes, wrapping, as the vector instructions do.
//! - [`output`]: the output layer's sum over both accumulators, clipped to `0..=QA` and
//!   activated, times the output weights, in 32-bit lanes.

use super::network::{Activation, QA};

/// Which code runs. The AVX2 value exists only where the processor has AVX2: the field is
/// private, and [`Simd::detect`] and [`Simd::avx2`], which ask the processor, are the only ways
/// to make it. That is what lets the safe [`update`] and [`output`] run AVX2 code on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd(Path);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Simd {
    /// The plain code, which runs on any processor.
    pub const SCALAR: Simd = Simd(Path::Scalar);

    /// The fastest this processor has.
    pub fn detect() -> Simd {
        Simd::avx2().unwrap_or(Simd::SCALAR)
    }

    /// The AVX2 code, if this processor has AVX2.
    pub fn avx2() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Simd(Path::Avx2));
        }
        None
    }

    pub fn is_scalar(self) -> bool {
        self.0 == Path::Scalar
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Path::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => "AVX2",
        }
    }
}

/// `out = input + Σ rows[added] − Σ rows[removed]`, where row `i` is
/// `weights[i * n..(i + 1) * n]` and `n = out.len()` (a multiple of 16).
#[inline]
pub fn update(
    simd: Simd,
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let n = out.len();
    assert!(input.len() == n && n % 16 == 0);
    let max_row = added.iter().chain(removed).copied().max().unwrap_or(0) as usize;
    assert!(weights.len() >= (max_row + 1) * n);
    match simd.0 {
        Path::Scalar => update_scalar(out, input, weights, added, removed),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: only `Simd::avx2` makes this value, after it found AVX2 on this processor;
        // the lengths the loads and stores rely on were checked above.
        Path::Avx2 => unsafe { update_avx2(out, input, weights, added, removed) },
    }
}

fn update_scalar(out: &mut [i16], input: &[i16], weights: &[i16], added: &[u16], removed: &[u16]) {
    let n = out.len();
    out.copy_from_slice(input);
    for &a in added {
        let row = &weights[a as usize * n..(a as usize + 1) * n];
        for (o, w) in out.iter_mut().zip(row) {
            *o = o.wrapping_add(*w);
        }
    }
    for &r in removed {
        let row = &weights[r as usize * n..(r as usize + 1) * n];
        for (o, w) in out.iter_mut().zip(row) {
            *o = o.wrapping_sub(*w);
        }
    }
}

// ANCHOR: update_avx2
/// One pass over the accumulator, 16 lanes at a time: each lane is loaded once, every changed
/// row added or subtracted in a register, and stored once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    use std::arch::x86_64::*;
    let n = out.len();
    for c in (0..n).step_by(16) {
        // SAFETY: `c + 16 <= n` for every slice read or written here (the caller checked that
        // `input` has `n` lanes and `weights` every row asked for); unaligned loads and stores
        // need no alignment.
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

/// `Σ act(clamp(x, 0, QA)) · w` over both accumulators (`us` with `weights[..n]`, `them` with
/// `weights[n..]`), in wrapping 32-bit arithmetic. SCReLU's square is formed as `(x·w)·x`: with
/// `|w| ≤ 127` the product `x·w` fits in 16 bits, which is what lets the vector code multiply
/// in 16-bit lanes.
#[inline]
pub fn output(
    simd: Simd,
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> i32 {
    let n = us.len();
    assert!(them.len() == n && weights.len() == 2 * n && n % 16 == 0);
    match simd.0 {
        Path::Scalar => output_scalar(activation, us, them, weights),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: only `Simd::avx2` makes this value, after it found AVX2 on this processor;
        // lengths checked above.
        Path::Avx2 => unsafe { output_avx2(activation, us, them, weights) },
    }
}

// ANCHOR: output_scalar
fn output_scalar(activation: Activation, us: &[i16], them: &[i16], weights: &[i16]) -> i32 {
    let n = us.len();
    let mut sum: i32 = 0;
    for (acc, w) in [(us, &weights[..n]), (them, &weights[n..])] {
        for (&x, &w) in acc.iter().zip(w) {
            let v = (x as i32).clamp(0, QA);
            let term = match activation {
                // The 16-bit product, as the vector code forms it.
                Activation::SCReLU => ((v * w as i32) as i16 as i32) * v,
                Activation::CReLU => v * w as i32,
            };
            sum = sum.wrapping_add(term);
        }
    }
    sum
}
// ANCHOR_END: output_scalar

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_avx2(activation: Activation, us: &[i16], them: &[i16], weights: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let n = us.len();
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (acc, offset) in [(us, 0), (them, n)] {
        for c in (0..n).step_by(16) {
            // SAFETY: `c + 16 <= n`, `acc` has `n` lanes and `weights` `2n` (checked by the
            // caller); unaligned loads need no alignment.
            unsafe {
                let x = _mm256_loadu_si256(acc.as_ptr().add(c).cast());
                let w = _mm256_loadu_si256(weights.as_ptr().add(offset + c).cast());
                let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                let term = match activation {
                    Activation::SCReLU => _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v),
                    Activation::CReLU => _mm256_madd_epi16(v, w),
                };
                sum = _mm256_add_epi32(sum, term);
            }
        }
    }
    // Add the eight 32-bit lanes.
    let hi = _mm256_extracti128_si256::<1>(sum);
    let s = _mm_add_epi32(_mm256_castsi256_si128(sum), hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::rng::Rng;

    #[test]
    fn avx2_equals_scalar_bit_for_bit() {
        let Some(simd) = Simd::avx2() else {
            // Nothing to compare on this processor: say so where the test output shows it.
            eprintln!("SKIPPED avx2_equals_scalar_bit_for_bit: this processor has no AVX2");
            return;
        };
        assert_eq!(simd.name(), "AVX2");
        assert!(!simd.is_scalar());
        let mut rng = Rng::new(1);
        for trial in 0..200 {
            let n = 16 * (1 + trial % 8);
            let rows = 40;
            // Extreme values too, so that wrapping is exercised.
            let mut r = || match rng.next_u64() % 8 {
                0 => i16::MAX,
                1 => i16::MIN,
                _ => (rng.next_u64() % 1200) as i16 - 600,
            };
            let weights: Vec<i16> = (0..rows * n).map(|_| r()).collect();
            let input: Vec<i16> = (0..n).map(|_| r()).collect();
            let added = [3u16, 17, 39];
            let removed = [0u16, 5];
            let mut a = vec![0; n];
            let mut b = vec![0; n];
            update(Simd::SCALAR, &mut a, &input, &weights, &added, &removed);
            update(simd, &mut b, &input, &weights, &added, &removed);
            assert_eq!(a, b);
            let w2: Vec<i16> = weights[..2 * n].iter().map(|w| w % 128).collect();
            for act in [Activation::SCReLU, Activation::CReLU] {
                assert_eq!(
                    output(Simd::SCALAR, act, &a, &input, &w2),
                    output(simd, act, &a, &input, &w2),
                    "{act:?} n={n}"
                );
            }
        }
    }
}
