//! The main thread's watch over one search: the time limits drawn from the clock, `go infinite`
//! and pondering, and how settled the search looks. The pool sets one up for each search and
//! lends it to the main worker, which asks it every 1,024 nodes whether time is up and after each
//! iteration whether to begin another (chapter 11).

use super::Signals;
use crate::clock::Instant;
use crate::params::Params;
use crate::score::mate_in;
use crate::time::{Limits, TimeManager, allot};
use chess::Color;
use std::sync::atomic::Ordering;
use std::time::Duration;

// ANCHOR: settled
/// How settled the search looked after an iteration: what time management scales the soft
/// limit by (chapter 11).
pub(crate) struct Settled {
    /// Iterations in a row that kept the best move.
    pub stable_iterations: u32,
    /// How far the best score fell in this iteration, in centipawns (negative: it rose).
    pub score_drop: i32,
    /// The share of the iteration's nodes spent below the best move, 0 to 1.
    pub best_move_share: f64,
}

impl Settled {
    /// The share of the soft limit after which no new iteration starts. A best move that keeps
    /// changing, a falling score, or a best move that needed few of the nodes (its rivals were
    /// hard to refute) earn more time; a settled search, less.
    pub fn time_scale(&self, p: &Params) -> f64 {
        let stability = (p.tm_unstable_percent - p.tm_stable_step * self.stable_iterations as i32)
            .max(p.tm_stable_min);
        let nodes = f64::from(p.tm_nodes_base) - f64::from(p.tm_nodes_slope) * self.best_move_share;
        let drop =
            1.0 + f64::from(p.tm_score_drop) * f64::from(self.score_drop.clamp(-25, 75)) / 1000.0;
        f64::from(p.tm_soft_percent) / 100.0 * f64::from(stability) / 100.0
            * (nodes / 100.0).clamp(0.5, 2.5)
            * drop.clamp(0.8, 1.6)
    }
}
// ANCHOR_END: settled

/// The clock of one search and what may suspend it.
pub(crate) struct Timekeeper {
    time: TimeManager,
    /// `go infinite`: stop only when told to.
    infinite: bool,
    /// The search began as a ponder search and has not yet seen `ponderhit`.
    was_pondering: bool,
    /// `go mate N`: stop once a mate in N moves or fewer is found.
    mate: Option<u32>,
    /// A clock or a fixed move time limits the search.
    timed: bool,
}

impl Timekeeper {
    /// For a search of `limits` by `side`, with the clock started when `go` arrived (`None`:
    /// now) and `overhead` milliseconds lost per move (`Move Overhead`).
    pub fn new(
        limits: &Limits,
        side: Color,
        go_received: Option<Instant>,
        overhead: u64,
        p: &Params,
    ) -> Timekeeper {
        let limits_of_time = allot(limits, side, overhead, p);
        Timekeeper {
            time: TimeManager::starting_at(
                go_received.unwrap_or_else(Instant::now),
                limits_of_time,
            ),
            infinite: limits.infinite,
            was_pondering: limits.ponder,
            mate: limits.mate,
            timed: limits.is_timed(),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.time.elapsed()
    }

    /// After `ponderhit` the time spent pondering was the opponent's: our clock starts now.
    fn ponderhit(&mut self) {
        if self.was_pondering {
            self.was_pondering = false;
            self.time.restart();
        }
    }

    /// Every 1,024 nodes: past the hard limit (never while pondering or in `go infinite`).
    #[inline]
    pub fn out_of_time(&mut self, signals: &Signals) -> bool {
        if signals.pondering.load(Ordering::Relaxed) {
            return false;
        }
        self.ponderhit();
        !self.infinite && self.time.hard_expired()
    }

    // ANCHOR: should_finish
    /// After a completed iteration with a best `score` and `root_moves` legal moves to choose
    /// from: stop for a found mate, the clock, or a forced move.
    pub fn should_finish(
        &mut self,
        score: i32,
        settled: &Settled,
        root_moves: usize,
        p: &Params,
        signals: &Signals,
    ) -> bool {
        if let Some(moves) = self.mate
            && moves > 0
            && score >= mate_in(2 * moves as usize - 1)
        {
            return true;
        }
        if signals.pondering.load(Ordering::Relaxed) || self.infinite {
            return false;
        }
        self.ponderhit();
        if self.timed && root_moves == 1 {
            return true;
        }
        self.time.soft_expired(settled.time_scale(p))
    }
    // ANCHOR_END: should_finish
}

#[cfg(test)]
mod tests {
    use super::Settled;
    use crate::params::Params;

    fn scale(stable_iterations: u32, score_drop: i32, best_move_share: f64) -> f64 {
        Settled {
            stable_iterations,
            score_drop,
            best_move_share,
        }
        .time_scale(&Params::default())
    }

    /// More time for a search that is not settled, on each of the three counts, and the scale
    /// stays within bounds however extreme the inputs.
    #[test]
    fn an_unsettled_search_gets_more_time() {
        assert!(scale(0, 0, 0.6) > scale(1, 0, 0.6));
        assert!(scale(1, 0, 0.6) > scale(4, 0, 0.6));
        assert_eq!(scale(4, 0, 0.6), scale(40, 0, 0.6), "the stability floor");
        assert!(
            scale(2, 0, 0.3) > scale(2, 0, 0.9),
            "a best move that needed few nodes"
        );
        assert!(scale(2, 50, 0.6) > scale(2, 0, 0.6), "a falling score");
        assert!(scale(2, 0, 0.6) > scale(2, -50, 0.6), "a rising score");
        for (stable, drop, share) in [(0, 10_000, 0.0), (1000, -10_000, 1.0), (0, i32::MIN, 0.5)] {
            let s = scale(stable, drop, share);
            assert!(s > 0.1 && s < 5.0, "{stable} {drop} {share}: {s}");
        }
    }
}
