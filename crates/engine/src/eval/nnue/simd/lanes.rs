//! The two loops written once for every vector instruction set: [`Lanes`] names the handful of
//! instructions they need, and each processor family's file implements it (x86.rs: AVX2 and
//! AVX-512, neon.rs, wasm.rs). The loops are inlined into a function of each family compiled
//! with its instructions enabled, so each becomes that family's own machine code.

use super::super::network::{Activation, QA};

/// One instruction set's vector of 16-bit lanes, and its vector of 32-bit sums.
///
/// # Safety
/// Every method runs its instruction set's instructions: it may be called only from code
/// compiled with them enabled, on a processor that has them. `load` and `store` also need
/// `LANES` valid lanes at their pointer.
pub(super) trait Lanes {
    /// 16-bit lanes in a vector.
    const LANES: usize;
    type V: Copy;
    type Sum: Copy;
    unsafe fn load(p: *const i16) -> Self::V;
    unsafe fn store(p: *mut i16, v: Self::V);
    unsafe fn splat(x: i16) -> Self::V;
    /// Lane by lane, wrapping.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// Lane by lane, wrapping.
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn min(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
    /// Lane by lane, the low 16 bits of the product.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn zero_sum() -> Self::Sum;
    /// `sum` plus every lane's 32-bit product `a·b`, wrapping (in any grouping: wrapping sums do
    /// not depend on the order).
    unsafe fn add_products(sum: Self::Sum, a: Self::V, b: Self::V) -> Self::Sum;
    /// All 32-bit lanes added, wrapping.
    unsafe fn total(sum: Self::Sum) -> i32;
}

/// The lanes from `start` that whole vectors of `L` cover.
#[inline(always)]
pub(super) fn end<L: Lanes>(start: usize, n: usize) -> usize {
    start + (n - start) / L::LANES * L::LANES
}

// ANCHOR: update
/// One pass over lanes `start..end::<L>(start, n)` of the accumulator: each vector of lanes is
/// loaded once, every changed row added or subtracted in a register, and stored once.
///
/// # Safety
/// `L`'s instructions are enabled in the caller and the processor has them; `input` and `out`
/// have `n` lanes and `weights` holds `n` lanes for every row named in `added` and `removed`.
#[inline(always)]
pub(super) unsafe fn update<L: Lanes>(
    start: usize,
    out: &mut [i16],
    input: &[i16],
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let n = out.len();
    for c in (start..end::<L>(start, n)).step_by(L::LANES) {
        // SAFETY: `c + LANES <= n` for every slice read or written here, and `L`'s instructions
        // are enabled (the caller's contract).
        unsafe {
            let mut v = L::load(input.as_ptr().add(c));
            for &a in added {
                v = L::add(v, L::load(weights.as_ptr().add(a as usize * n + c)));
            }
            for &r in removed {
                v = L::sub(v, L::load(weights.as_ptr().add(r as usize * n + c)));
            }
            L::store(out.as_mut_ptr().add(c), v);
        }
    }
}
// ANCHOR_END: update

// ANCHOR: output
/// The output layer's sum over lanes `start..end::<L>(start, n)` of both accumulators, in
/// `L`'s 32-bit lanes: each activation clipped to `0..=QA`, and for SCReLU `(v·w)` formed in 16
/// bits and multiplied by `v` in 32 (`madd` on x86).
///
/// # Safety
/// `L`'s instructions are enabled in the caller and the processor has them; `us` and `them`
/// have `n` lanes and `weights` `2n`.
#[inline(always)]
pub(super) unsafe fn output<L: Lanes>(
    start: usize,
    activation: Activation,
    us: &[i16],
    them: &[i16],
    weights: &[i16],
) -> L::Sum {
    let n = us.len();
    // SAFETY: `L`'s instructions are enabled (the caller's contract), and every load reads
    // `c + LANES <= n` lanes of `acc` and `offset + c + LANES <= 2n` of `weights`.
    unsafe {
        let (zero, qa) = (L::splat(0), L::splat(QA as i16));
        let mut sum = L::zero_sum();
        for (acc, offset) in [(us, 0), (them, n)] {
            for c in (start..end::<L>(start, n)).step_by(L::LANES) {
                let x = L::load(acc.as_ptr().add(c));
                let w = L::load(weights.as_ptr().add(offset + c));
                let v = L::min(L::max(x, zero), qa);
                sum = match activation {
                    Activation::SCReLU => L::add_products(sum, L::mul(v, w), v),
                    Activation::CReLU => L::add_products(sum, v, w),
                };
            }
        }
        sum
    }
}
// ANCHOR_END: output
