//! The two loops the network spends its time in, written once in plain Rust, which runs on any
//! processor, and again for the vector instructions of each processor family: AVX2 and AVX-512
//! on x86-64 (chosen at run time, so one binary runs on every x86-64 processor), NEON on 64-bit
//! ARM, SIMD128 in the browser's WebAssembly. Every path gives bit-identical results; tests
//! check it.
//!
//! - [`update`]: a child's accumulator from its parent's, plus the rows of the inputs that came
//!   on and minus those that went off. 16-bit lanes, wrapping, as the vector instructions do.
//! - [`output`]: the output layer's sum over both accumulators, clipped to `0..=QA` and
//!   activated, times the output weights, in 32-bit lanes.

use super::network::{Activation, QA};

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod lanes;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;
#[cfg(target_arch = "x86_64")]
mod x86;

/// Which code runs. A vector path's value exists only where the processor has its
/// instructions: the field is private, and the constructors that make one ([`Simd::detect`],
/// [`Simd::avx2`], [`Simd::avx512`], [`Simd::vector`]) ask the processor first, or exist only in
/// a build whose target guarantees the instructions. That is what lets the safe [`update`] and
/// [`output`] run vector code on it.
///
/// Outside this module no other value can be made, nor a path read out of one and put back:
///
/// ```compile_fail
/// use engine::eval::nnue::Simd;
/// let plain = Simd::SCALAR;
/// let copied = Simd(plain.0); // the field is private: does not compile
/// ```
///
/// while the constructors that check do:
///
/// ```
/// use engine::eval::nnue::Simd;
/// let fastest = Simd::detect();
/// assert!(Simd::SCALAR == Simd::SCALAR && fastest == Simd::detect());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd(Path);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// Every 64-bit ARM processor has NEON: the target enables it.
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    Neon,
    /// WebAssembly cannot ask at run time: a module built with SIMD128 has it, or does not load.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

/// The environment variable that forces a path, for measurements and tests: `scalar`, `avx2`,
/// `avx512`, `neon` or `simd128`. A path this processor lacks is refused (on stderr) and the
/// fastest it has is used.
pub const FORCE_VARIABLE: &str = "CB2026_SIMD";

impl Simd {
    /// The plain code, which runs on any processor.
    pub const SCALAR: Simd = Simd(Path::Scalar);

    /// The fastest path this processor has, unless [`FORCE_VARIABLE`] names another it has.
    pub fn detect() -> Simd {
        let best = Simd::vector().unwrap_or(Simd::SCALAR);
        let Ok(name) = std::env::var(FORCE_VARIABLE) else {
            return best;
        };
        match Simd::named(&name) {
            Some(simd) => simd,
            None => {
                // Once, not for every evaluator a session makes.
                static WARNED: std::sync::Once = std::sync::Once::new();
                WARNED.call_once(|| {
                    eprintln!(
                        "{FORCE_VARIABLE}={name:?}: not a path this processor has; using {}",
                        best.name()
                    )
                });
                best
            }
        }
    }

    /// The path called `name` ([`Simd::name`], case ignored), if this processor has it.
    pub fn named(name: &str) -> Option<Simd> {
        [
            Some(Simd::SCALAR),
            Simd::avx2(),
            Simd::avx512(),
            Simd::vector(),
        ]
        .into_iter()
        .flatten()
        .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    // ANCHOR: vector
    /// The vector path this processor runs by default, if it has one. On x86-64 that is AVX-512
    /// where the processor has it, AVX2 where it has only that: AVX-512 searched about 3% more
    /// nodes a second than AVX2 in bench (the book's chapter "NNUE" has the measurement).
    pub fn vector() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        return Simd::avx512().or_else(Simd::avx2);
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        return Some(Simd(Path::Neon));
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Some(Simd(Path::Simd128));
        #[allow(unreachable_code)]
        None
    }
    // ANCHOR_END: vector

    /// The AVX2 code, if this processor has AVX2.
    pub fn avx2() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Simd(Path::Avx2));
        }
        None
    }

    /// The AVX-512 code, if this processor has AVX-512 F and BW (and AVX2, for the last 16
    /// lanes of a width that is not a multiple of 32).
    pub fn avx512() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            return Some(Simd(Path::Avx512));
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
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => "AVX512",
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Path::Neon => "NEON",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Simd128 => "SIMD128",
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
    assert!(input.len() == n && n.is_multiple_of(16));
    let max_row = added.iter().chain(removed).copied().max().unwrap_or(0) as usize;
    assert!(weights.len() >= (max_row + 1) * n);
    // In every arm: the path's value was made only where its instructions are available (see
    // `Simd`), and the lengths the loads and stores rely on were checked above.
    match simd.0 {
        Path::Scalar => update_scalar(out, input, weights, added, removed),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 was detected; lengths checked above.
        Path::Avx2 => unsafe { x86::update_avx2(out, input, weights, added, removed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512 F and BW and AVX2 were detected; lengths checked above.
        Path::Avx512 => unsafe { x86::update_avx512(out, input, weights, added, removed) },
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        // SAFETY: the target has NEON; lengths checked above.
        Path::Neon => unsafe { neon::update(out, input, weights, added, removed) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: the module was built with SIMD128; lengths checked above.
        Path::Simd128 => unsafe { wasm::update(out, input, weights, added, removed) },
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
    assert!(them.len() == n && weights.len() == 2 * n && n.is_multiple_of(16));
    match simd.0 {
        Path::Scalar => output_scalar(activation, us, them, weights),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 was detected; lengths checked above.
        Path::Avx2 => unsafe { x86::output_avx2(activation, us, them, weights) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512 F and BW and AVX2 were detected; lengths checked above.
        Path::Avx512 => unsafe { x86::output_avx512(activation, us, them, weights) },
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        // SAFETY: the target has NEON; lengths checked above.
        Path::Neon => unsafe { neon::output(activation, us, them, weights) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: the module was built with SIMD128; lengths checked above.
        Path::Simd128 => unsafe { wasm::output(activation, us, them, weights) },
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

#[cfg(test)]
mod tests {
    use super::*;
    use chess::rng::Rng;

    /// Random accumulators and weights of every width from 16 to 128 (so that a width that is
    /// not a multiple of 32 exercises the AVX-512 code's tail), extreme values included so that
    /// wrapping is exercised: `simd` must give what the plain code gives.
    fn equals_scalar(simd: Simd) {
        assert!(
            !simd.is_scalar(),
            "the comparison must not be scalar with scalar"
        );
        let mut rng = Rng::new(1);
        for trial in 0..200 {
            let n = 16 * (1 + trial % 8);
            let rows = 40;
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
            assert_eq!(a, b, "{} n={n}", simd.name());
            let w2: Vec<i16> = weights[..2 * n].iter().map(|w| w % 128).collect();
            for act in [Activation::SCReLU, Activation::CReLU] {
                assert_eq!(
                    output(Simd::SCALAR, act, &a, &input, &w2),
                    output(simd, act, &a, &input, &w2),
                    "{} {act:?} n={n}",
                    simd.name()
                );
            }
        }
    }

    /// Nothing to compare on this processor: say so where the test output shows it.
    fn skipped(test: &str, what: &str) {
        eprintln!("SKIPPED {test}: this processor has no {what}");
    }

    #[test]
    fn avx2_equals_scalar_bit_for_bit() {
        match Simd::avx2() {
            Some(simd) => {
                assert_eq!(simd.name(), "AVX2");
                equals_scalar(simd);
            }
            None => skipped("avx2_equals_scalar_bit_for_bit", "AVX2"),
        }
    }

    #[test]
    fn avx512_equals_scalar_bit_for_bit() {
        match Simd::avx512() {
            Some(simd) => {
                assert_eq!(simd.name(), "AVX512");
                equals_scalar(simd);
            }
            None => skipped("avx512_equals_scalar_bit_for_bit", "AVX-512 F and BW"),
        }
    }

    /// The path [`Simd::vector`] picks: NEON on 64-bit ARM, SIMD128 in a WebAssembly build with
    /// it, AVX-512 or AVX2 on x86-64 (where the tests above also cover each).
    #[test]
    fn the_vector_path_equals_scalar_bit_for_bit() {
        match Simd::vector() {
            Some(simd) => {
                // The target's own instructions, not another family's, and on x86-64 the
                // widest this processor has.
                let expected = if cfg!(target_arch = "aarch64") {
                    "NEON"
                } else if cfg!(target_arch = "wasm32") {
                    "SIMD128"
                } else if Simd::avx512().is_some() {
                    "AVX512"
                } else {
                    "AVX2"
                };
                assert_eq!(simd.name(), expected);
                equals_scalar(simd);
            }
            None => skipped("the_vector_path_equals_scalar_bit_for_bit", "vector path"),
        }
    }

    #[test]
    fn a_path_is_named_only_where_the_processor_has_it() {
        assert_eq!(Simd::named("scalar"), Some(Simd::SCALAR));
        assert_eq!(Simd::named("avx2"), Simd::avx2());
        assert_eq!(Simd::named("AVX512"), Simd::avx512());
        assert_eq!(Simd::named("mmx"), None);
        for simd in [Simd::avx2(), Simd::avx512(), Simd::vector()]
            .into_iter()
            .flatten()
        {
            assert_eq!(Simd::named(simd.name()), Some(simd));
        }
    }
}
