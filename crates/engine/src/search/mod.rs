//! The search, as one worker thread sees it: negamax alpha-beta with principal variation search,
//! fail-soft, over copies of the position. Each technique is a short block in [`node`] with its
//! switch in `self.techniques`, its numbers in `self.params`, and a counter in `self.counters`.
//!
//! A [`Worker`] is one thread's state (histories, the stack of the current line, its evaluator,
//! its counters). Several of them search together through [`crate::threads::ThreadPool`], which
//! owns what they share (the hash table and the signals) and what concerns the search as a whole
//! (its limits, the clock, reporting, the choice of the move).

mod best_move;
mod corrected_eval;
mod cutoff;
mod deepening;
mod fail_high_blend;
mod hooks;
mod lmr_table;
mod node;
mod null_move;
mod path;
mod probcut;
mod quiescence;
mod singular;
mod syzygy;
mod tt_access;
mod worker;

pub use deepening::{Info, RootMove, SearchOptions, SearchResult};
pub use worker::Worker;
