//! What the network is trained to predict, and how far off it is.
//!
//! Scores and results are both turned into an expected score between 0 and 1 for the side to
//! move: the search's score `s` through the sigmoid `σ(s / K)` (K, `--scale`, is the score in
//! centipawns at which the side to move is expected to score σ(1) ≈ 0.73), and the game's result
//! as 1, ½ or 0. The target blends them, `t = λ·result + (1 − λ)·σ(s / K)` (λ is `--wdl`), and
//! the network's output `o` (in units of the engine's `SCALE` centipawns) becomes a prediction
//! the same way, `p = σ(o · SCALE / K)`. The loss is `(p − t)²`.

use crate::data::Sample;
use engine::eval::nnue::network::SCALE;

#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The blend of score and result, and the scale between centipawns and expected score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// K: centipawns per unit of the sigmoid's argument.
    pub k: f32,
    /// λ: the weight of the game's result in the target.
    pub wdl: f32,
}

impl Objective {
    // ANCHOR: objective
    /// The expected score the network is trained towards for this position.
    #[inline(always)]
    pub fn target(&self, s: &Sample) -> f32 {
        self.wdl * s.wdl() + (1.0 - self.wdl) * sigmoid(s.score as f32 / self.k)
    }

    /// The network's output `o` as an expected score is `σ(o · out_scale)`.
    #[inline(always)]
    pub fn out_scale(&self) -> f32 {
        SCALE as f32 / self.k
    }

    /// The loss for output `out` and target `target`, and its derivative with respect to `out`:
    /// `d/do (σ(c·o) − t)² = 2 (p − t) · p (1 − p) · c`.
    #[inline(always)]
    pub fn loss(&self, out: f32, target: f32) -> (f32, f32) {
        let c = self.out_scale();
        let p = sigmoid(out * c);
        let e = p - target;
        (e * e, 2.0 * e * p * (1.0 - p) * c)
    }
    // ANCHOR_END: objective
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slope_is_the_loss_derivative() {
        let obj = Objective { k: 400.0, wdl: 0.3 };
        for (out, t) in [(0.3f32, 0.6f32), (-1.2, 0.1), (2.0, 0.95), (0.0, 0.5)] {
            let (_, slope) = obj.loss(out, t);
            let h = 1e-3;
            let numeric = (obj.loss(out + h, t).0 - obj.loss(out - h, t).0) / (2.0 * h);
            assert!(
                (slope - numeric).abs() < 1e-3,
                "{out} {t}: {slope} vs {numeric}"
            );
        }
        assert_eq!(obj.loss(0.0, 0.5).0, 0.0);
    }
}
