//! A new network's first weights.

use crate::FloatNetwork;
use crate::gradient::LANES;
use engine::eval::nnue::Activation;
use engine::eval::nnue::inputs::{INPUTS, Layout};

/// A network with random weights from `seed`: each layer's weights uniform in `±1/√fan_in`
/// (768 inputs for the first layer, 2N for each output bucket), biases zero. The first layer's scale
/// keeps the accumulators of a position's ~30 active inputs well inside the activation's
/// `0..1` range, where its slope is not zero. King buckets do not change it: a position still
/// has one king bucket's ~30 inputs on. The factoriser's shared rows start at zero, so that a
/// factorised net starts as the same function as one without them.
pub fn random(
    hidden: usize,
    activation: Activation,
    buckets: usize,
    layout: Layout,
    factorised: bool,
    seed: u64,
) -> FloatNetwork {
    assert!(hidden > 0 && hidden.is_multiple_of(LANES));
    let mut state = seed;
    let mut uniform = |limit: f32| {
        let u = (chess::rng::splitmix(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * limit
    };
    let mut net = FloatNetwork::zeros(hidden, activation, buckets, layout, factorised);
    let l1 = 1.0 / (INPUTS as f32).sqrt();
    let own = layout.inputs() * hidden;
    net.w1[..own].iter_mut().for_each(|w| *w = uniform(l1));
    let l2 = 1.0 / ((2 * hidden) as f32).sqrt();
    net.w2.iter_mut().for_each(|w| *w = uniform(l2));
    net
}
