//! The search of one move once it is made: principal variation search (chapter 6), with the
//! reduced search of late move reductions (chapter 13) in front.

use super::Worker;
use crate::eval::Evaluator;
use crate::notes::Note;
use crate::pv::Pv;
use crate::tree::Via;
use chess::Position;

impl<E: Evaluator> Worker<E> {
    // ANCHOR: pvs
    /// Principal variation search: the first move with the full window, the others with a
    /// null window that only asks "better than alpha?", searched again if the answer is yes.
    /// Without PVS every move gets the full window. A reduced move that beats alpha is first
    /// searched again at full depth.
    /// `window` is the node's (alpha, beta); `kind` whether it is a PV node and a cut node.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_move(
        &mut self,
        child: &Position,
        new_depth: i32,
        reduction: i32,
        ply: usize,
        window: (i32, i32),
        first: bool,
        kind: (bool, bool),
        child_pv: &mut Pv,
    ) -> i32 {
        let (alpha, beta) = window;
        let (pv_node, cut_node) = kind;
        let null_window = self.techniques.pvs;
        let (zw_alpha, zw_beta) = if null_window {
            (alpha, alpha + 1)
        } else {
            (alpha, beta)
        };
        if first || (!null_window && reduction == 0) {
            let cut = !pv_node && !cut_node;
            self.search_child(child, new_depth, ply, alpha, beta, cut, child_pv)
        } else {
            let mut score;
            if reduction > 0 {
                self.note(Note::Lmr);
                self.tree_via(Via::Reduced(reduction.min(i8::MAX as i32) as i8));
                let reduced = new_depth - reduction;
                score = self.search_child(child, reduced, ply, zw_alpha, zw_beta, true, child_pv);
                if score > alpha && !self.aborted {
                    self.note(Note::LmrResearch);
                    self.tree_via(Via::LmrResearch);
                    let cut = if null_window { !cut_node } else { false };
                    score =
                        self.search_child(child, new_depth, ply, zw_alpha, zw_beta, cut, child_pv);
                }
            } else {
                score = self.search_child(
                    child, new_depth, ply, zw_alpha, zw_beta, !cut_node, child_pv,
                );
            }
            if null_window && score > alpha && score < beta && !self.aborted {
                self.note(Note::PvsResearch);
                self.tree_via(Via::PvsResearch);
                score = self.search_child(child, new_depth, ply, alpha, beta, false, child_pv);
            }
            score
        }
    }
    // ANCHOR_END: pvs
}
