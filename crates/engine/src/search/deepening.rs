//! Iterative deepening at the root: depth 1, 2, 3... each inside an aspiration window around the
//! last score, several principal variations if asked (MultiPV), until a limit says stop. Every
//! thread of a search deepens this way; only the main thread watches the clock and reports.

use super::Worker;
use super::lmr_table::LmrTable;
use super::node::{NodeArgs, Root};
use super::worker::Frame;
use crate::clock::Instant;
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::pv::Pv;
use crate::score::{INFINITE, MAX_PLY, is_mate};
use crate::tablebase::Probing;
use crate::threads::timekeeper::{Settled, Timekeeper};
use crate::time::Limits;
use crate::tt::Bound;
use chess::{Move, Position};
use std::sync::atomic::Ordering;
use std::time::Duration;

// ANCHOR: root_move
/// A legal move at the root with what the last iterations found for it.
#[derive(Clone)]
pub struct RootMove {
    pub mv: Move,
    /// This iteration's score; `-INFINITE` if it was only shown to be no better than the best.
    pub score: i32,
    pub previous_score: i32,
    pub pv: Pv,
    pub seldepth: usize,
    /// Nodes this thread spent on the move in the current iteration (for time management).
    pub nodes: u64,
}
// ANCHOR_END: root_move

/// What the search reports after each iteration (or a window failure), for `info` lines.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    /// 1 for the best line, 2 for the second best...
    pub multipv: usize,
    pub score: i32,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: usize,
    /// Positions whose result came from the tablebases, on every thread.
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// The reply the search expects, for pondering.
    pub ponder_move: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

/// Settings of one search that come from UCI options.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub multipv: usize,
    /// Milliseconds lost per move between engine and GUI (`Move Overhead`).
    pub move_overhead: u64,
    /// When `go` arrived: the GUI's clock runs from then, not from when the search thread starts.
    /// `None`: from the start of the search.
    pub go_received: Option<Instant>,
    /// The Syzygy tablebases and how to probe them; `None` without `SyzygyPath`.
    pub tablebases: Option<Probing>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            multipv: 1,
            move_overhead: 10,
            go_received: None,
            tablebases: None,
        }
    }
}

impl<E: Evaluator> Worker<E> {
    /// Iterative deepening on this thread, one of the search's threads (see
    /// [`crate::threads::ThreadPool::search`]). The main thread, the one with a timekeeper,
    /// reports each iteration to `report` and decides when to stop; the helpers go on until it
    /// has finished.
    pub(crate) fn iterate(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.start(pos, history, limits, options);
        let mut result = SearchResult {
            best_move: None,
            ponder_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if self.root_moves.is_empty() {
            return result;
        }
        result.best_move = Some(self.root_moves[0].mv);

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let multipv = options.multipv.clamp(1, self.root_moves.len());
        let mut stable_iterations = 0;
        // ANCHOR: first_depth
        // Lazy SMP: every other helper starts a ply deeper, so that the threads are not all at
        // the same depth with the same moves at the same time.
        let first_depth = (1 + (self.thread_id % 2) as i32).min(max_depth);
        // ANCHOR_END: first_depth
        // ANCHOR: iterative_deepening
        for depth in first_depth..=max_depth {
            // The tree explorer keeps the last iteration: each one starts a new tree.
            if let Some(tree) = self.tree.as_deref_mut() {
                tree.begin_iteration(depth, &self.counters);
            }
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
                rm.score = -INFINITE;
                rm.nodes = 0;
            }
            let previous_best = self.root_moves[0].mv;
            let previous_score = result.score;
            let iteration_start = self.nodes;
            for pv_index in 0..multipv {
                self.aspiration(pos, depth, pv_index, report);
                if self.aborted {
                    break;
                }
            }
            // An interrupted iteration still counts if its first move was searched through: the
            // moves sorted before it are then really better.
            if self.aborted && self.root_moves[0].score == -INFINITE {
                break;
            }
            let best = &self.root_moves[0];
            result.best_move = Some(best.mv);
            result.score = if best.score == -INFINITE {
                best.previous_score
            } else {
                best.score
            };
            result.ponder_move = best.pv.moves().nth(1);
            if self.aborted {
                break;
            }
            result.depth = depth;
            // One whole iteration is done: from now on the node limit holds.
            self.node_limit = self.node_budget;
            if self.timekeeper.is_none() {
                continue;
            }
            for k in 0..multipv {
                report(&self.info(depth, k, None));
            }

            stable_iterations = if best.mv == previous_best {
                stable_iterations + 1
            } else {
                0
            };
            let settled = Settled {
                stable_iterations,
                score_drop: if depth > first_depth {
                    previous_score - result.score
                } else {
                    0
                },
                best_move_share: best.nodes as f64 / (self.nodes - iteration_start).max(1) as f64,
            };
            let (score, moves) = (result.score, self.root_moves.len());
            if let Some(timekeeper) = &mut self.timekeeper
                && timekeeper.should_finish(score, &settled, moves, &self.params, &self.signals)
            {
                break;
            }
        }
        // ANCHOR_END: iterative_deepening
        self.share_nodes();
        result.nodes = self.total_nodes();
        result
    }

    fn start(&mut self, pos: &Position, history: &[u64], limits: &Limits, options: &SearchOptions) {
        self.counters.clear();
        self.lmr_table = LmrTable::new(&self.params);
        self.nodes = 0;
        self.nodes_shared = 0;
        self.pv_index = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.evaluator.configure(&self.techniques);
        self.evaluator.reset(pos);
        // 20: the low-ply history's plies count from this root.
        self.histories.low_ply.clear();
        // The root's frame, for "improving" two plies down (the root node corrects it, 20).
        let root_eval = if pos.is_check() {
            -INFINITE
        } else {
            self.evaluate(pos, 0)
        };
        self.stack[0] = Frame {
            static_eval: root_eval,
            raw_eval: root_eval,
            ..Frame::default()
        };
        self.node_limit = u64::MAX;
        self.node_budget = limits.nodes.unwrap_or(u64::MAX);
        self.root_moves = pos
            .legal_moves()
            .iter()
            .filter(|mv| limits.searchmoves.is_empty() || limits.searchmoves.contains(mv))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: Pv::new(),
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        // The hash move from an earlier search goes first.
        if let Some(tt_move) = self.tt.probe(pos.hash()).and_then(|e| e.mv)
            && let Some(i) = self.root_moves.iter().position(|rm| rm.mv == tt_move)
        {
            self.root_moves[..=i].rotate_right(1);
        }
        self.start_tablebases(pos, options.tablebases.as_ref());
    }

    // ANCHOR: aspiration
    /// One iteration for the line `pv_index`, in a window around its previous score that widens
    /// each time the score falls outside it.
    fn aspiration(
        &mut self,
        pos: &Position,
        depth: i32,
        pv_index: usize,
        report: &mut dyn FnMut(&Info),
    ) {
        let previous = self.root_moves[pv_index].previous_score;
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = (-INFINITE, INFINITE);
        if self.techniques.aspiration
            && depth >= self.params.aspiration_min_depth
            && previous.abs() < INFINITE
        {
            alpha = (previous - delta).max(-INFINITE);
            beta = (previous + delta).min(INFINITE);
        }
        self.pv_index = pv_index;
        let mut root_pv = Pv::new();
        loop {
            let args = NodeArgs {
                depth,
                ply: 0,
                alpha,
                beta,
                cut_node: false,
            };
            let score = self.node::<Root>(pos, args, &mut root_pv);
            // Best first; ties keep their order, so the previous best stays ahead of equals.
            self.root_moves[pv_index..].sort_by_key(|rm| -rm.score);
            if self.aborted {
                return;
            }
            let bound = if score <= alpha {
                self.note(Note::AspirationFailLow);
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Bound::Upper
            } else if score >= beta {
                self.note(Note::AspirationFailHigh);
                beta = (score + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            let slow = |t: &Timekeeper| t.elapsed() > Duration::from_secs(1);
            if self.timekeeper.as_ref().is_some_and(slow) {
                report(&self.info(depth, pv_index, Some(bound)));
            }
            delta += delta / 2;
        }
    }
    // ANCHOR_END: aspiration

    // ANCHOR: root_scores
    /// The root's own bookkeeping after root move `index` was searched with the window's lower
    /// bound at `alpha`: the first move's score is exact or a bound the window keeps; a later one
    /// that beats alpha gets its score and line, and one that doesn't is only known to be no
    /// better than the best.
    pub(crate) fn update_root_move(&mut self, index: usize, score: i32, alpha: i32, line: &Pv) {
        let first = index == self.pv_index;
        let seldepth = self.seldepth;
        let rm = &mut self.root_moves[index];
        if first || score > alpha {
            rm.score = score;
            rm.pv.set(rm.mv, line);
            rm.seldepth = seldepth;
        } else {
            rm.score = -INFINITE;
        }
    }
    // ANCHOR_END: root_scores

    /// What the thread found for the line `pv_index` at `depth`, for an `info` line.
    pub(crate) fn info(&self, depth: i32, pv_index: usize, bound: Option<Bound>) -> Info {
        let rm = &self.root_moves[pv_index];
        let mut score = if rm.score == -INFINITE {
            rm.previous_score
        } else {
            rm.score
        };
        // With the root in the tablebases, their result is the score until a mate is found.
        if let Some(tb_score) = self.tablebases.root_score
            && !is_mate(score)
        {
            score = tb_score;
        }
        Info {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: pv_index + 1,
            score,
            bound,
            nodes: self.total_nodes(),
            time: self
                .timekeeper
                .as_ref()
                .map_or(Duration::ZERO, Timekeeper::elapsed),
            hashfull: self.tt.hashfull(),
            tbhits: self.signals.tb_hits.load(Ordering::Relaxed),
            pv: rm.pv.to_vec(),
        }
    }
}
