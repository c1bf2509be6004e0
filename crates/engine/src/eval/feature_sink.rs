//! Where the evaluation's features go. The same evaluation code serves the search, which wants
//! only the score ([`Sum`]), and the `eval` command and the tuner, which want every feature's
//! count ([`Counts`]). Generic code, so the search pays nothing for the counting.

use super::score_pair::S;
use super::weights::{FEATURE_COUNT, weight};
use chess::Color;

// ANCHOR: feature_sink
pub trait FeatureSink {
    /// `count` times the feature, for `color`.
    fn add(&mut self, feature: usize, color: Color, count: i32);
}

/// Adds up the weights: White's features count positively, Black's negatively.
#[derive(Default)]
pub struct Sum {
    pub score: S,
}

impl FeatureSink for Sum {
    #[inline(always)]
    fn add(&mut self, feature: usize, color: Color, count: i32) {
        let w = weight(feature) * count;
        match color {
            Color::White => self.score += w,
            Color::Black => self.score -= w,
        }
    }
}
// ANCHOR_END: feature_sink

// ANCHOR: counts
/// Counts every feature for each colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// `counts[feature][colour]`.
    pub counts: Vec<[i32; 2]>,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            counts: vec![[0; 2]; FEATURE_COUNT],
        }
    }
}

impl FeatureSink for Counts {
    fn add(&mut self, feature: usize, color: Color, count: i32) {
        self.counts[feature][color.index()] += count;
    }
}
// ANCHOR_END: counts

impl Counts {
    /// The weighted sum, White minus Black: what [`Sum`] would have added up.
    pub fn score(&self) -> S {
        self.counts
            .iter()
            .enumerate()
            .fold(S::ZERO, |acc, (f, [w, b])| acc + weight(f) * (w - b))
    }
}
