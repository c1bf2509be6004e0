//! ProbCut (off by default): a good capture that beats beta by a margin in a much shallower
//! search is taken as proof that the node fails high.

use super::Worker;
use super::node::{NodeArgs, NonPv};
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::movepick::MovePicker;
use crate::pv::Pv;
use crate::score::score_from_tt;
use crate::see::see_ge;
use crate::tree::Via;
use crate::tt::{Bound, TtEntry};
use chess::{Move, Position};

impl<E: Evaluator> Worker<E> {
    // ANCHOR: probcut
    /// ProbCut wagers that a capture which clears beta by `probcut_margin` in a search
    /// `probcut_reduction` plies shallower would clear beta at full depth too, and ends the node
    /// on the first capture that does (`Some(score)`; also when the search was stopped). The node
    /// function has checked the switches, the depth and that the raised bound is no mate score.
    /// The wager is skipped when the hash table holds an exact score or upper bound under the
    /// raised bound from a search at least as deep as ProbCut's own would be.
    // Off by default: kept out of the node function's code.
    #[inline(never)]
    pub(crate) fn probcut(
        &mut self,
        pos: &Position,
        args: NodeArgs,
        static_eval: i32,
        tt_entry: Option<TtEntry>,
        tt_pv: bool,
    ) -> Option<i32> {
        let NodeArgs {
            depth,
            ply,
            beta,
            cut_node,
            ..
        } = args;
        let p = self.params;
        let probcut_beta = beta + p.probcut_margin;
        let probcut_depth = depth - p.probcut_reduction;
        let tt_says_no = |entry: TtEntry| {
            entry.bound != Bound::Lower
                && entry.depth > probcut_depth
                && score_from_tt(entry.score, ply) < probcut_beta
        };
        if tt_entry.is_some_and(tt_says_no) {
            return None;
        }
        self.note(Note::ProbCut);
        let tt_move: Option<Move> = tt_entry.and_then(|e| e.mv);
        let mut picker = MovePicker::captures(tt_move, pos);
        let mut probcut_pv = Pv::new();
        loop {
            let ordering = self.ordering(ply, self.previous(ply));
            let Some(mv) = picker.next(pos, &ordering) else {
                break;
            };
            // The exchange alone has to make up the gap between the static evaluation and the
            // raised bound; a capture that can't is not tried.
            if !see_ge(pos, mv, probcut_beta - static_eval) {
                continue;
            }
            let child = self.play(pos, mv, ply);
            // Two looks, both with a null window under the raised bound: the cheap quiescence
            // search, and only for a capture that passes it, the reduced search that settles
            // the wager.
            self.tree_via(Via::ProbCutQs);
            let qs_score = -self.quiescence(
                &child,
                ply + 1,
                -probcut_beta,
                -probcut_beta + 1,
                &mut probcut_pv,
            );
            let score = if qs_score >= probcut_beta && probcut_depth > 0 && !self.aborted {
                self.tree_via(Via::ProbCut);
                let null_window = (probcut_beta - 1, probcut_beta);
                let line = &mut probcut_pv;
                self.child::<NonPv>(&child, probcut_depth, ply, null_window, !cut_node, line)
            } else {
                qs_score
            };
            self.unplay();
            if self.aborted {
                return Some(0);
            }
            if score >= probcut_beta {
                self.note_node(Note::ProbCutCutoff);
                // Stored as a lower bound, at the depth actually searched: the reduced search's
                // plus the ply of the capture.
                self.store(
                    pos,
                    ply,
                    TtEntry {
                        mv: Some(mv),
                        score,
                        // The evaluator's own score, as every store keeps (20).
                        static_eval: self.stack[ply].raw_eval,
                        depth: probcut_depth + 1,
                        bound: Bound::Lower,
                        tt_pv,
                    },
                );
                return Some(score);
            }
        }
        None
    }
    // ANCHOR_END: probcut
}
