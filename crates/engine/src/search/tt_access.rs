//! The hash table as the nodes use it: one probe and one store for the main search and the
//! quiescence search alike, and what an entry proves.

use super::Worker;
use super::best_move::Best;
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::score::{score_from_tt, score_to_tt};
use crate::tt::{Bound, TtEntry};
use chess::Position;

// ANCHOR: tt_usable
/// The score a table entry proves for the window (`alpha`, `beta`), if it proves one: an exact
/// score always, a lower bound at or above beta, an upper bound at or below alpha.
#[inline]
pub(crate) fn tt_cutoff_score(entry: &TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = score_from_tt(entry.score, ply);
    let proves = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    proves.then_some(score)
}
// ANCHOR_END: tt_usable

// ANCHOR: result_bound
/// What a node's result says about its true score, given the window it was searched with.
#[inline]
pub(crate) fn result_bound(best: i32, original_alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
// ANCHOR_END: result_bound

/// A node's result as the table keeps it: its best move and score, with the bound they prove for
/// the window (alpha, beta) the node was searched with.
#[inline]
pub(crate) fn result_entry(
    best: Best,
    (alpha, beta): (i32, i32),
    static_eval: i32,
    depth: i32,
    tt_pv: bool,
) -> TtEntry {
    TtEntry {
        mv: best.mv,
        score: best.score,
        static_eval,
        depth,
        bound: result_bound(best.score, alpha, beta),
        tt_pv,
    }
}
impl<E: Evaluator> Worker<E> {
    /// The table's entry for `pos`, counted as a hit (nothing when the table is switched off).
    #[inline]
    pub(crate) fn probe_tt(&mut self, pos: &Position) -> Option<TtEntry> {
        let entry = if self.techniques.tt {
            self.tt.probe(pos.hash())
        } else {
            None
        };
        if entry.is_some() {
            self.note(Note::TtHit);
        }
        entry
    }

    /// Stores a result in the table, with the mate distance made relative to this node.
    pub(crate) fn store(&mut self, pos: &Position, ply: usize, entry: TtEntry) {
        if self.techniques.tt {
            let score = score_to_tt(entry.score, ply);
            self.tt.store(pos.hash(), TtEntry { score, ..entry });
        }
    }
}
