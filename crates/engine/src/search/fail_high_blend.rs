//! Fail-high blending (stage 20): a score at or above beta is a lower bound, and the further
//! above beta it lies, the less the search has shown it. A cutoff score pulled part of the way
//! back towards beta still proves the cutoff, is a more modest claim to pass up the tree and to
//! store, and the deeper the search behind it, the less it is pulled.

use super::Worker;
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::score::MATE_BOUND;

// ANCHOR: blend_cutoff
/// A cutoff score `score` >= `beta` of a search `depth` plies deep, pulled towards beta: the
/// average of the two, the score weighing `depth` and beta `weight` hundredths of a ply. The
/// result lies between beta and the score, so it still fails high.
#[inline]
pub(crate) fn blend_cutoff(score: i32, beta: i32, depth: i32, weight: i32) -> i32 {
    let depth = depth.max(1);
    (score * depth * 100 + beta * weight) / (depth * 100 + weight)
}
// ANCHOR_END: blend_cutoff

// ANCHOR: blend_stand_pat
/// A stand-pat score `score` >= `beta` moved `percent` of the way to beta.
#[inline]
pub(crate) fn blend_stand_pat(score: i32, beta: i32, percent: i32) -> i32 {
    score - (score - beta) * percent / 100
}
// ANCHOR_END: blend_stand_pat

/// Whether a cutoff at `score` against `beta` may be blended: neither is a mate score, whose
/// distance to the mate must come back unchanged.
#[inline]
fn blendable(score: i32, beta: i32) -> bool {
    score.abs() < MATE_BOUND && beta.abs() < MATE_BOUND
}

impl<E: Evaluator> Worker<E> {
    // ANCHOR: fail_high_blend
    /// 20: The score a non-PV node returns and stores when its move loop failed high at `depth`
    /// (`score` >= `beta`): blended towards beta with `fail_high_blend` on, as it is otherwise.
    #[inline]
    pub(crate) fn cutoff_score(&mut self, score: i32, beta: i32, depth: i32) -> i32 {
        if !self.techniques.fail_high_blend || !blendable(score, beta) {
            return score;
        }
        self.note(Note::FailHighBlend);
        blend_cutoff(score, beta, depth, self.params.fail_high_blend_weight)
    }

    /// 20: The score a quiescence node returns when its static evaluation `score` reaches
    /// `beta` (stand pat): blended towards beta with `fail_high_blend` on, as it is otherwise.
    #[inline]
    pub(crate) fn stand_pat_score(&mut self, score: i32, beta: i32) -> i32 {
        if !self.techniques.fail_high_blend || !blendable(score, beta) {
            return score;
        }
        self.note(Note::StandPatBlend);
        blend_stand_pat(score, beta, self.params.stand_pat_blend_percent)
    }
    // ANCHOR_END: fail_high_blend
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blended_scores_stay_between_beta_and_the_score() {
        // (score x depth + beta) / (depth + 1) with the default weight of one ply.
        assert_eq!(blend_cutoff(200, 100, 1, 100), 150);
        assert_eq!(blend_cutoff(200, 100, 3, 100), 175);
        assert_eq!(blend_cutoff(-50, -100, 4, 100), -60);
        // No weight, no pull; a large weight pulls most of the way.
        assert_eq!(blend_cutoff(200, 100, 5, 0), 200);
        assert_eq!(blend_cutoff(200, 100, 1, 400), 120);
        assert_eq!(blend_stand_pat(300, 100, 50), 200);
        assert_eq!(blend_stand_pat(300, 100, 0), 300);
        assert_eq!(blend_stand_pat(300, 100, 100), 100);
        for beta in [-900, -101, -1, 0, 1, 77, 500] {
            for excess in [0, 1, 2, 3, 99, 1000] {
                let score = beta + excess;
                for depth in [0, 1, 2, 7, 30, 120] {
                    for weight in [0, 25, 100, 400] {
                        let b = blend_cutoff(score, beta, depth, weight);
                        assert!(
                            beta <= b && b <= score,
                            "{score} {beta} {depth} {weight}: {b}"
                        );
                    }
                }
                for percent in [0, 5, 50, 100] {
                    let b = blend_stand_pat(score, beta, percent);
                    assert!(beta <= b && b <= score, "{score} {beta} {percent}: {b}");
                }
            }
        }
        assert!(!blendable(MATE_BOUND + 3, 0));
        assert!(!blendable(10, -MATE_BOUND - 1));
        assert!(blendable(10, 0));
    }
}
