//! AdamW, lazy in the first layer's rows.
//!
//! For a weight `θ` with gradient `g` at step `t` (counted from 1 over the whole run):
//!
//! ```text
//! m ← β1·m + (1 − β1)·g          v ← β2·v + (1 − β2)·g²
//! θ ← θ − lr·( (m / (1 − β1^t)) / (√(v / (1 − β2^t)) + ε) + wd·θ )
//! θ ← clamp(θ, −WEIGHT_LIMIT, WEIGHT_LIMIT)
//! ```
//!
//! with β1 = 0.9, β2 = 0.999, ε = 10⁻⁸, and the weight decay `wd` decoupled from the gradient
//! (Loshchilov and Hutter's AdamW, scaled by the learning rate as is usual). The decay applies
//! to the two layers' weights, not to the biases.
//!
//! **Lazy rows.** A row of the first layer (one input's weights) whose input was active in no
//! position of the batch is skipped entirely: its weights, `m` and `v` stay as they were (no
//! decay, no momentum step), as in a sparse ("lazy") Adam. The step count `t` in the bias
//! correction is still the global one. With batches of thousands of positions and the plain
//! inputs nearly every row a real position can have is touched on every step, so this changes
//! little for real data and saves the rows no position uses at all (pawns on the first and last
//! ranks). With king buckets it matters more: a bucket of a single square (a king on c1, say)
//! sees few positions, and its rows go without decay or momentum on the steps that miss them.
//!
//! Every weight is clipped to ±`WEIGHT_LIMIT` after its step, the same limit quantisation
//! clips to, so the quantised network loses nothing to clipping.

use engine::eval::nnue::network::WEIGHT_LIMIT;

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
pub const EPSILON: f32 = 1e-8;

/// The first and second moments of every weight, shaped like the network.
#[derive(Clone, Debug, PartialEq)]
pub struct Moments {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl Moments {
    pub fn zeros(inputs: usize, hidden: usize, buckets: usize) -> Moments {
        Moments {
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
        }
    }
}

/// The numbers one step uses for every weight.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub lr: f32,
    pub weight_decay: f32,
    /// `1 − β1^t` and `1 − β2^t`.
    pub correction1: f32,
    pub correction2: f32,
}

impl Step {
    /// Step `t` (from 1).
    pub fn new(t: u64, lr: f32, weight_decay: f32) -> Step {
        let t = t.min(i32::MAX as u64) as i32;
        Step {
            lr,
            weight_decay,
            correction1: (1.0 - (BETA1 as f64).powi(t)) as f32,
            correction2: (1.0 - (BETA2 as f64).powi(t)) as f32,
        }
    }
}

/// One step on a slice of weights with their gradients and moments; `decay` for weights, not
/// biases. Element by element, so the compiler vectorises it and any split of the slices gives
/// the same result.
#[inline]
pub fn update(
    theta: &mut [f32],
    grad: &[f32],
    m: &mut [f32],
    v: &mut [f32],
    step: &Step,
    decay: bool,
) {
    let wd = if decay { step.weight_decay } else { 0.0 };
    let n = theta.len();
    assert!(grad.len() == n && m.len() == n && v.len() == n);
    for i in 0..n {
        let g = grad[i];
        m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
        v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
        let m_hat = m[i] / step.correction1;
        let v_hat = v[i] / step.correction2;
        let t = theta[i] - step.lr * (m_hat / (v_hat.sqrt() + EPSILON) + wd * theta[i]);
        theta[i] = t.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
    }
}

/// [`update`] for one weight.
pub fn update_one(theta: &mut f32, grad: f32, m: &mut f32, v: &mut f32, step: &Step, decay: bool) {
    let (mut t, mut mm, mut vv) = ([*theta], [*m], [*v]);
    update(&mut t, &[grad], &mut mm, &mut vv, step, decay);
    (*theta, *m, *v) = (t[0], mm[0], vv[0]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_step_moves_by_the_learning_rate_and_weights_are_clipped() {
        // Bias-corrected, Adam's first step is lr · sign(g) (up to ε).
        let mut theta = [0.5f32, -0.5, 1.979];
        let grad = [3.0f32, -0.001, -1.0];
        let (mut m, mut v) = ([0.0; 3], [0.0; 3]);
        let step = Step::new(1, 0.01, 0.0);
        update(&mut theta, &grad, &mut m, &mut v, &step, true);
        assert!((theta[0] - 0.49).abs() < 1e-6, "{}", theta[0]);
        assert!((theta[1] + 0.49).abs() < 1e-5, "{}", theta[1]);
        assert_eq!(theta[2], WEIGHT_LIMIT);
        // Decoupled decay: with no gradient, θ shrinks by lr·wd·θ.
        let mut t = 1.0;
        let (mut m, mut v) = (0.0, 0.0);
        update_one(&mut t, 0.0, &mut m, &mut v, &Step::new(1, 0.1, 0.5), true);
        assert!((t - 0.95).abs() < 1e-6, "{t}");
    }
}
