//! Test 4: the hand-written backward pass is the derivative of the loss. Every gradient of a
//! tiny network (every bias and output weight, every first-layer weight of an active input) is
//! compared with a central finite difference of an independent forward pass in f64. Also: the
//! plain and vectorised builds of the loops give bit-identical gradients.

mod common;

use chess::rng::Rng;
use common::*;
use engine::eval::nnue::Activation;
use engine::eval::nnue::inputs::Layout;
use engine::eval::nnue::network::{SCALE, output_bucket};
use train::FloatNetwork;
use train::data::Sample;
use train::gradient::{self, Isa, Work};
use train::loss::Objective;

/// A network with weights spread so that the accumulators fall on every part of the
/// activation: below 0, inside, above 1.
fn spread_net(
    hidden: usize,
    activation: Activation,
    buckets: usize,
    layout: Layout,
    factorised: bool,
    seed: u64,
) -> FloatNetwork {
    let mut rng = Rng::new(seed);
    let mut u = |lo: f64, hi: f64| (lo + (hi - lo) * rng.unit()) as f32;
    let mut net = FloatNetwork::zeros(hidden, activation, buckets, layout, factorised);
    net.w1.iter_mut().for_each(|w| *w = u(-0.12, 0.16));
    net.b1.iter_mut().for_each(|w| *w = u(-0.3, 0.6));
    net.w2.iter_mut().for_each(|w| *w = u(-1.0, 1.0));
    net.b2.iter_mut().for_each(|b| *b = u(-0.2, 0.2));
    net
}

/// Which part of the activation an accumulator is on (the derivative jumps between parts).
fn part(x: f64) -> u8 {
    if x <= 0.0 {
        0
    } else if x < 1.0 {
        1
    } else {
        2
    }
}

/// The mean loss in f64, written out plainly, and the parts of every accumulator. With the
/// factoriser, `w1` has 768 more rows and input `i` of any bucket also adds row `K·768 + i % 768`.
#[allow(clippy::too_many_arguments)]
fn reference(
    net: &[f64],
    hidden: usize,
    buckets: usize,
    layout: &Layout,
    factorised: bool,
    act: Activation,
    obj: &Objective,
    samples: &[Sample],
) -> (f64, Vec<u8>) {
    let h = hidden;
    let shared = layout.inputs();
    let rows = shared + if factorised { 768 } else { 0 };
    let (w1, rest) = net.split_at(rows * h);
    let (b1, rest) = rest.split_at(h);
    let (w2, b2) = rest.split_at(buckets * 2 * h);
    let f = |x: f64| {
        let c = x.clamp(0.0, 1.0);
        match act {
            Activation::SCReLU => c * c,
            Activation::CReLU => c,
        }
    };
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let k = obj.k as f64;
    let mut total = 0.0;
    let mut parts = Vec::new();
    for s in samples {
        let (ours, theirs) = inputs(s, layout);
        let bucket = output_bucket(ours.len(), buckets);
        let w2 = &w2[bucket * 2 * h..];
        let mut out = b2[bucket];
        for (side, active) in [ours, theirs].iter().enumerate() {
            for j in 0..h {
                let weight = |i: usize| {
                    w1[i * h + j]
                        + if factorised {
                            w1[(shared + i % 768) * h + j]
                        } else {
                            0.0
                        }
                };
                let a = b1[j] + active.iter().map(|&i| weight(i)).sum::<f64>();
                parts.push(part(a));
                out += f(a) * w2[side * h + j];
            }
        }
        let lambda = obj.wdl as f64;
        let target = lambda * s.wdl() as f64 + (1.0 - lambda) * sigmoid(s.score as f64 / k);
        let p = sigmoid(out * SCALE as f64 / k);
        total += (p - target).powi(2);
    }
    (total / samples.len() as f64, parts)
}

fn check(
    hidden: usize,
    act: Activation,
    buckets: usize,
    layout: Layout,
    factorised: bool,
    seed: u64,
) {
    let net = spread_net(hidden, act, buckets, layout, factorised, seed);
    let obj = Objective { k: 400.0, wdl: 0.4 };
    let mut rng = Rng::new(seed + 100);
    // With buckets, more positions and up to 32 pieces, so that several buckets are used.
    let (count, most) = if buckets == 1 { (4, 14) } else { (8, 32) };
    let samples: Vec<Sample> = (0..count)
        .map(|i| {
            let (pieces, stm) = random_pieces(&mut rng, most);
            let score = rng.below(1600) as i16 - 800;
            Sample::new(&pieces, stm, score, (i % 3) as u8).unwrap()
        })
        .collect();
    let order: Vec<u32> = (0..samples.len() as u32).collect();
    let used: std::collections::BTreeSet<usize> = samples
        .iter()
        .map(|s| output_bucket(inputs(s, &layout).0.len(), buckets))
        .collect();
    assert!(buckets == 1 || used.len() >= 3, "buckets used: {used:?}");
    let mut work = Work::new(hidden, buckets, net.rows());
    let weight = 1.0 / samples.len() as f32;
    gradient::accumulate_gradient(
        Isa::detect(),
        &net,
        &obj,
        &samples,
        &order,
        weight,
        &mut work,
    );
    let g = &work.grad;

    // Every parameter as one f64 vector, in the order w1, b1, w2, b2, with its analytic
    // gradient; only the rows of active inputs for w1.
    let mut theta: Vec<f64> = net
        .w1
        .iter()
        .chain(&net.b1)
        .chain(&net.w2)
        .chain(&net.b2)
        .map(|&w| w as f64)
        .collect();
    let h = hidden;
    let mut checked: Vec<(usize, f64)> = Vec::new();
    for r in 0..net.rows() {
        if g.is_touched(r) {
            checked.extend((0..h).map(|j| (r * h + j, g.w1[r * h + j] as f64)));
        } else {
            assert!(g.w1[r * h..(r + 1) * h].iter().all(|&x| x == 0.0));
        }
    }
    // The factoriser's rows get gradients too (every position touches some).
    assert!(!factorised || (layout.inputs()..net.rows()).any(|r| g.is_touched(r)));
    let base = net.rows() * h;
    checked.extend((0..h).map(|j| (base + j, g.b1[j] as f64)));
    checked.extend((0..buckets * 2 * h).map(|j| (base + h + j, g.w2[j] as f64)));
    let biases = base + h + buckets * 2 * h;
    checked.extend((0..buckets).map(|b| (biases + b, g.b2[b] as f64)));

    let eps = 1e-6;
    let (mut compared, mut skipped, mut nonzero) = (0, 0, 0);
    let largest = checked.iter().fold(0.0f64, |m, c| m.max(c.1.abs()));
    for &(i, analytic) in &checked {
        let keep = theta[i];
        theta[i] = keep + eps;
        let (up, parts_up) =
            reference(&theta, h, buckets, &layout, factorised, act, &obj, &samples);
        theta[i] = keep - eps;
        let (down, parts_down) =
            reference(&theta, h, buckets, &layout, factorised, act, &obj, &samples);
        theta[i] = keep;
        if parts_up != parts_down {
            // The step crossed a kink of the activation: no derivative to compare.
            skipped += 1;
            continue;
        }
        let numeric = (up - down) / (2.0 * eps);
        let tolerance = 1e-4 * numeric.abs() + 1e-6 * largest + 1e-9;
        assert!(
            (analytic - numeric).abs() <= tolerance,
            "{act:?} h{h}: parameter {i}: analytic {analytic:e}, numeric {numeric:e}"
        );
        compared += 1;
        nonzero += (numeric.abs() > 1e-4 * largest) as usize;
    }
    eprintln!(
        "{act:?} h{h} b{buckets} factorised {factorised}: {compared} compared ({nonzero} non-zero), {skipped} at a kink"
    );
    assert!(
        skipped * 100 < compared,
        "{skipped} of {compared} at a kink"
    );
    assert!(
        nonzero * 4 > compared,
        "only {nonzero} of {compared} gradients are not zero"
    );
}

#[test]
fn the_gradient_is_the_derivative_of_the_loss() {
    let plain = Layout::PLAIN;
    for (h, seed) in [(16, 1), (32, 2)] {
        check(h, Activation::SCReLU, 1, plain, false, seed);
        check(h, Activation::CReLU, 1, plain, false, seed + 10);
    }
    check(16, Activation::SCReLU, 8, plain, false, 3);
    check(16, Activation::CReLU, 8, plain, false, 13);
    // King buckets and mirroring: the gradient lands on the rows of each position's buckets.
    let buckets = Layout::named(4, true).unwrap();
    check(16, Activation::SCReLU, 1, buckets, false, 4);
    check(
        16,
        Activation::CReLU,
        1,
        Layout::named(1, true).unwrap(),
        false,
        6,
    );
    check(
        16,
        Activation::SCReLU,
        8,
        Layout::named(8, false).unwrap(),
        false,
        5,
    );
    // The factoriser: each input's gradient reaches its bucket's row and the shared row.
    check(16, Activation::SCReLU, 8, buckets, true, 7);
    check(
        16,
        Activation::CReLU,
        1,
        Layout::named(2, false).unwrap(),
        true,
        8,
    );
}

#[test]
fn every_build_of_the_loops_gives_the_same_gradient() {
    let samples = material_samples(3000, 7);
    let order: Vec<u32> = (0..samples.len() as u32).rev().collect();
    let obj = Objective { k: 400.0, wdl: 0.3 };
    let shapes = [
        (64, Activation::SCReLU, 8, Layout::PLAIN, false),
        (48, Activation::CReLU, 1, Layout::PLAIN, false),
        (
            32,
            Activation::SCReLU,
            1,
            Layout::named(4, true).unwrap(),
            false,
        ),
        (
            32,
            Activation::SCReLU,
            8,
            Layout::named(4, true).unwrap(),
            true,
        ),
    ];
    for (hidden, act, buckets, layout, factorised) in shapes {
        let net = spread_net(hidden, act, buckets, layout, factorised, 3);
        let mut results = Vec::new();
        for isa in Isa::available() {
            let mut work = Work::new(hidden, buckets, net.rows());
            let loss =
                gradient::accumulate_gradient(isa, &net, &obj, &samples, &order, 1e-3, &mut work);
            let forward = gradient::loss_sum(
                isa,
                &net,
                &obj,
                &samples,
                &order,
                &mut Work::forward_only(hidden),
            );
            assert_eq!(loss.to_bits(), forward.to_bits(), "{}", isa.name());
            let g = work.grad;
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
            results.push((
                isa,
                loss.to_bits(),
                bits(&g.w1),
                bits(&g.b1),
                bits(&g.w2),
                bits(&g.b2),
                g.touched,
            ));
        }
        for r in &results[1..] {
            assert_eq!(r.1, results[0].1, "{} loss", r.0.name());
            assert_eq!(r.2, results[0].2, "{} w1", r.0.name());
            assert_eq!(r.3, results[0].3, "{} b1", r.0.name());
            assert_eq!(r.4, results[0].4, "{} w2", r.0.name());
            assert_eq!(r.5, results[0].5, "{} b2", r.0.name());
            assert_eq!(r.6, results[0].6, "{} rows", r.0.name());
        }
        eprintln!("h{hidden}: {} builds agree", results.len());
    }
}
