//! The forward and backward pass, by hand, over one chunk of a batch.
//!
//! The network is `(768 → N) × 2 → 1` (see `engine::eval::nnue::network`), or `K × 768` inputs
//! with king buckets, of which a position's view uses one bucket's. For a position with
//! active inputs `I_us` (the side to move's view) and `I_them`, whose number of pieces chooses
//! the output bucket (`w2` and `b2` below are that bucket's; the others get no gradient from it):
//!
//! ```text
//! a_us = b1 + Σ_{i ∈ I_us} W1[i]        a_them likewise
//! o    = b2 + w2_us · f(a_us) + w2_them · f(a_them)
//! ```
//!
//! With `g = ∂loss/∂o` (see [`crate::loss`]), the gradients are `∂/∂b2 = g`,
//! `∂/∂w2_us = g·f(a_us)`, `δ_us = g·w2_us ⊙ f'(a_us)`, `∂/∂b1 = δ_us + δ_them`, and for
//! every active input `∂/∂W1[i] += δ_us` (or `δ_them`). Only the ~32 rows of `W1` a position's
//! inputs name get a gradient; [`Gradient`] notes which rows a chunk touched, so that clearing
//! it, summing chunks and the optimiser all skip the others. A factorised net (see
//! [`FloatNetwork::factorised`]) has 768 shared rows after the buckets', and each active input
//! names its shared row too: `W1[i]` above is then the sum of the two rows, and both get `δ`.
//!
//! The time goes into the first layer: adding ~30 rows of N floats into each accumulator,
//! and adding the two δ vectors into ~30 gradient rows each. Both loops work on blocks of `B`
//! neurons (16, 32 with AVX2) whose running sums stay in vector registers while every row is
//! added, so a row costs its loads (and, for the gradient, its stores) and nothing more. The
//! output layer's dot products keep [`LANES`] partial sums added up in a fixed order. Every
//! float is therefore summed in the same order whatever the block or vector width, and the
//! plain and AVX2 builds of the loops ([`Isa`]) give bit-identical gradients (Rust never fuses
//! a multiply and an add on its own, and every other operation is exact per element); a test
//! checks it. An AVX-512 build measured no faster than AVX2 (the loops wait on the cache, not
//! on arithmetic), so there is none.

use crate::FloatNetwork;
use crate::data::{MAX_PIECES, Sample};
use crate::loss::Objective;
use engine::eval::nnue::Activation;
use engine::eval::nnue::network::output_bucket;

/// The partial sums of a dot product, and the smallest block: the first layer's size is a
/// multiple of it.
pub const LANES: usize = 16;

/// One chunk's share of a batch's gradient (already divided by the batch's size).
#[derive(Clone, Debug)]
pub struct Gradient {
    pub hidden: usize,
    /// `rows × hidden`, like the network's; only the touched rows are meaningful.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Every bucket's, shaped like the network's.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    /// Bit `r` set when row `r` of `w1` got a gradient.
    pub touched: Vec<u64>,
}

impl Gradient {
    /// For a network of `hidden` neurons, `buckets` output buckets and `rows` inputs.
    pub fn new(hidden: usize, buckets: usize, rows: usize) -> Gradient {
        Gradient {
            hidden,
            w1: vec![0.0; rows * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
            touched: vec![0; rows.div_ceil(64)],
        }
    }

    /// The first layer's rows: the network's inputs.
    pub fn rows(&self) -> usize {
        self.w1.len() / self.hidden
    }

    /// Back to zero: the touched rows and the small layers.
    pub fn clear(&mut self) {
        let h = self.hidden;
        for r in 0..self.rows() {
            if self.is_touched(r) {
                self.w1[r * h..(r + 1) * h].fill(0.0);
            }
        }
        self.touched.fill(0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
    }

    #[inline(always)]
    pub fn is_touched(&self, row: usize) -> bool {
        self.touched[row / 64] >> (row % 64) & 1 != 0
    }

    #[inline(always)]
    fn touch(&mut self, row: usize) {
        self.touched[row / 64] |= 1 << (row % 64);
    }
}

/// A chunk's gradient with the per-position buffers its passes use, allocated once.
#[derive(Clone, Debug)]
pub struct Work {
    pub grad: Gradient,
    /// The chunk's positions, copied together first: the copies' cache misses overlap, where
    /// reading each position just before its pass would wait for every one.
    samples: Vec<Sample>,
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Work {
    /// For a network of `hidden` neurons, `buckets` output buckets and `rows` inputs.
    pub fn new(hidden: usize, buckets: usize, rows: usize) -> Work {
        Work {
            grad: Gradient::new(hidden, buckets, rows),
            samples: Vec::new(),
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }

    /// Buffers for [`loss_sum`] only: no gradient storage.
    pub fn forward_only(hidden: usize) -> Work {
        Work {
            grad: Gradient {
                hidden,
                w1: Vec::new(),
                b1: Vec::new(),
                w2: Vec::new(),
                b2: Vec::new(),
                touched: Vec::new(),
            },
            samples: Vec::new(),
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: Vec::new(),
            d_them: Vec::new(),
        }
    }
}

/// Which build of the loops runs: chosen at run time, so one binary runs everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Whatever the compilation target allows (SSE2 on x86-64).
    Generic,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Isa {
    /// The widest this processor has.
    pub fn detect() -> Isa {
        Isa::available().last().copied().unwrap_or(Isa::Generic)
    }

    /// Every build this processor can run, narrowest first.
    pub fn available() -> Vec<Isa> {
        #[cfg(target_arch = "x86_64")]
        let all = [Isa::Generic, Isa::Avx2];
        #[cfg(not(target_arch = "x86_64"))]
        let all = [Isa::Generic];
        all.into_iter().filter(|i| i.is_supported()).collect()
    }

    /// Whether this processor has every feature the build is compiled with (checked on every
    /// call into it, so a wrong choice is a panic, never undefined behaviour).
    pub fn is_supported(self) -> bool {
        match self {
            Isa::Generic => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                use std::arch::is_x86_feature_detected as has;
                has!("avx2") && has!("fma") && has!("bmi1") && has!("bmi2") && has!("popcnt")
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Isa::Generic => "generic",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "AVX2",
        }
    }
}

/// `us = b1 + Σ W1[ours]` and `them = b1 + Σ W1[theirs]`, `B` neurons at a time: the block's
/// two accumulators stay in registers while every row is added, so each row costs its loads
/// and nothing else. Every element is summed in the same order whatever `B` is.
#[inline(always)]
fn accumulate<const B: usize>(
    w1: &[f32],
    b1: &[f32],
    ours: &[u16],
    theirs: &[u16],
    us: &mut [f32],
    them: &mut [f32],
) {
    let h = b1.len();
    for start in (0..h).step_by(B) {
        let mut a = [0.0f32; B];
        a.copy_from_slice(&b1[start..start + B]);
        let mut t = a;
        for (&r, &q) in ours.iter().zip(theirs) {
            let row_us = &w1[r as usize * h + start..][..B];
            let row_them = &w1[q as usize * h + start..][..B];
            for l in 0..B {
                a[l] += row_us[l];
                t[l] += row_them[l];
            }
        }
        us[start..start + B].copy_from_slice(&a);
        them[start..start + B].copy_from_slice(&t);
    }
}

/// `W1'[ours] += d_us` and `W1'[theirs] += d_them` for the gradient `W1'`, `B` neurons at a
/// time with the block of `d` in registers. A row can be both one of ours and one of theirs;
/// the additions to it happen one after the other, in the same order for every `B`.
#[inline(always)]
fn scatter<const B: usize>(
    grad: &mut [f32],
    h: usize,
    ours: &[u16],
    theirs: &[u16],
    d_us: &[f32],
    d_them: &[f32],
) {
    for start in (0..h).step_by(B) {
        let mut du = [0.0f32; B];
        du.copy_from_slice(&d_us[start..start + B]);
        let mut dt = [0.0f32; B];
        dt.copy_from_slice(&d_them[start..start + B]);
        for (&r, &q) in ours.iter().zip(theirs) {
            let row = &mut grad[r as usize * h + start..][..B];
            for l in 0..B {
                row[l] += du[l];
            }
            let row = &mut grad[q as usize * h + start..][..B];
            for l in 0..B {
                row[l] += dt[l];
            }
        }
    }
}

/// `Σ f(x) · w`, in [`LANES`] partial sums added up in order: each lane is one vector lane,
/// so the loop vectorises without reordering a single float addition.
#[inline(always)]
fn activated_dot(act: Activation, x: &[f32], w: &[f32]) -> f32 {
    let mut sums = [0.0f32; LANES];
    for (x, w) in x.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for l in 0..LANES {
            sums[l] += act.apply(x[l]) * w[l];
        }
    }
    sums.iter().fold(0.0, |a, &s| a + s)
}

/// The loop itself, for one activation (`SQUARED`: SCReLU, else CReLU) and with or without the
/// backward pass. Returns the sum of the losses.
#[inline(always)]
fn body<const SQUARED: bool, const BACKWARD: bool, const B: usize>(
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    weight: f32,
    work: &mut Work,
) -> f64 {
    let act = if SQUARED {
        Activation::SCReLU
    } else {
        Activation::CReLU
    };
    let h = net.hidden;
    let Work {
        grad,
        samples: gathered,
        us,
        them,
        d_us,
        d_them,
    } = work;
    gathered.clear();
    gathered.extend(order.iter().map(|&i| samples[i as usize]));
    let mut total = 0.0f64;
    let (mut ours_f, mut theirs_f) = ([0u16; 2 * MAX_PIECES], [0u16; 2 * MAX_PIECES]);
    for sample in gathered.iter() {
        let inputs = sample.inputs(&net.layout);
        let n = inputs.len;
        let (mut ours, mut theirs) = (&inputs.ours[..n], &inputs.theirs[..n]);
        // With the factoriser every input also names its shared row (chapter "Training the
        // network": the same weights whatever the king's bucket), so the loops below see twice
        // the rows and need no other change.
        if net.factorised {
            for (all, own) in [(&mut ours_f, ours), (&mut theirs_f, theirs)] {
                all[..n].copy_from_slice(own);
                for (f, &i) in all[n..2 * n].iter_mut().zip(own) {
                    *f = net.shared_row(i as usize) as u16;
                }
            }
            (ours, theirs) = (&ours_f[..2 * n], &theirs_f[..2 * n]);
        }
        accumulate::<B>(&net.w1, &net.b1, ours, theirs, us, them);
        let bucket = output_bucket(n, net.buckets);
        let (w2_us, w2_them) = net.w2[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h);
        let out =
            net.b2[bucket] + activated_dot(act, us, w2_us) + activated_dot(act, them, w2_them);
        let (loss, slope) = obj.loss(out, obj.target(sample));
        total += loss as f64;
        if !BACKWARD {
            continue;
        }
        // ANCHOR: backward
        let g = slope * weight;
        grad.b2[bucket] += g;
        {
            let (gw2_us, gw2_them) = grad.w2[bucket * 2 * h..(bucket + 1) * 2 * h].split_at_mut(h);
            let gb1 = &mut grad.b1[..h];
            let (us, them, d_us, d_them) = (&us[..h], &them[..h], &mut d_us[..h], &mut d_them[..h]);
            let (w2_us, w2_them, gw2_us, gw2_them) = (
                &w2_us[..h],
                &w2_them[..h],
                &mut gw2_us[..h],
                &mut gw2_them[..h],
            );
            for j in 0..h {
                let (x, y) = (us[j], them[j]);
                gw2_us[j] += g * act.apply(x);
                gw2_them[j] += g * act.apply(y);
                d_us[j] = g * w2_us[j] * act.derivative(x);
                d_them[j] = g * w2_them[j] * act.derivative(y);
                gb1[j] += d_us[j] + d_them[j];
            }
        }
        scatter::<B>(&mut grad.w1, h, ours, theirs, d_us, d_them);
        for (&r_us, &r_them) in ours.iter().zip(theirs) {
            grad.touch(r_us as usize);
            grad.touch(r_them as usize);
        }
        // ANCHOR_END: backward
    }
    total
}

/// `body` for each activation and pass, with blocks of `B` neurons where the layer's size
/// allows (else of [`LANES`]), so the builds below need one line each.
#[inline(always)]
fn dispatch<const B: usize>(
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    weight: f32,
    work: &mut Work,
    backward: bool,
) -> f64 {
    if net.hidden.is_multiple_of(B) {
        by_activation::<B>(net, obj, samples, order, weight, work, backward)
    } else {
        by_activation::<LANES>(net, obj, samples, order, weight, work, backward)
    }
}

#[inline(always)]
fn by_activation<const B: usize>(
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    weight: f32,
    work: &mut Work,
    backward: bool,
) -> f64 {
    match (net.activation, backward) {
        (Activation::SCReLU, true) => body::<true, true, B>(net, obj, samples, order, weight, work),
        (Activation::SCReLU, false) => {
            body::<true, false, B>(net, obj, samples, order, weight, work)
        }
        (Activation::CReLU, true) => body::<false, true, B>(net, obj, samples, order, weight, work),
        (Activation::CReLU, false) => {
            body::<false, false, B>(net, obj, samples, order, weight, work)
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
fn dispatch_avx2(
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    weight: f32,
    work: &mut Work,
    backward: bool,
) -> f64 {
    // Two blocks of 32 floats: 8 of AVX2's 16 vector registers.
    dispatch::<32>(net, obj, samples, order, weight, work, backward)
}

fn check_shapes(isa: Isa, net: &FloatNetwork, work: &Work) {
    assert!(isa.is_supported(), "{} is not supported here", isa.name());
    let h = net.hidden;
    assert!(
        h > 0 && h.is_multiple_of(LANES),
        "a first layer of {h} neurons"
    );
    let buckets = net.buckets;
    assert!(net.layout.is_valid());
    assert!(net.w1.len() == net.rows() * h && net.b1.len() == h);
    // The factoriser's rows are named by u16 indices like the others.
    assert!(net.rows() <= u16::MAX as usize + 1);
    assert!(work.grad.w1.is_empty() || work.grad.w1.len() == net.w1.len());
    assert!(buckets >= 1 && net.w2.len() == buckets * 2 * h && net.b2.len() == buckets);
    assert!(work.grad.w2.is_empty() || work.grad.w2.len() == net.w2.len());
    assert!(work.grad.hidden == h && work.us.len() == h);
}

/// Runs the positions `samples[order[..]]` forward and backward, adding `weight` times each
/// one's loss gradient to `work.grad` (which the caller clears). Returns the sum of their
/// losses (unweighted).
pub fn accumulate_gradient(
    isa: Isa,
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    weight: f32,
    work: &mut Work,
) -> f64 {
    check_shapes(isa, net, work);
    run(isa, net, obj, samples, order, weight, work, true)
}

/// The sum of the losses of `samples[order[..]]`, without gradients.
pub fn loss_sum(
    isa: Isa,
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    work: &mut Work,
) -> f64 {
    check_shapes(isa, net, work);
    run(isa, net, obj, samples, order, 0.0, work, false)
}

#[allow(clippy::too_many_arguments)]
fn run(
    isa: Isa,
    net: &FloatNetwork,
    obj: &Objective,
    samples: &[Sample],
    order: &[u32],
    weight: f32,
    work: &mut Work,
    backward: bool,
) -> f64 {
    match isa {
        // Two blocks of 16 floats: 8 of SSE's 16 vector registers.
        Isa::Generic => dispatch::<16>(net, obj, samples, order, weight, work, backward),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `check_shapes` asserted that the processor has every feature the AVX2 build
        // enables; its memory accesses are ordinary bounds-checked slices.
        Isa::Avx2 => unsafe { dispatch_avx2(net, obj, samples, order, weight, work, backward) },
    }
}
