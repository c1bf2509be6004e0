//! Null-move pruning (chapter 12): pass, and if a shallower search still reaches beta, a real
//! move would too.

use super::Worker;
use super::node::{NodeArgs, NonPv};
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::pv::Pv;
use crate::score::MATE_BOUND;
use crate::tree::Via;
use chess::Position;

/// Whether the side to move has a piece other than pawns and the king: without one, zugzwang is
/// common and passing is no test of the position.
#[inline]
pub(crate) fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.pieces_of_color(us)
        & !pos.pieces(chess::PieceType::Pawn, us)
        & !pos.pieces(chess::PieceType::King, us))
    .is_nonempty()
}

impl<E: Evaluator> Worker<E> {
    // ANCHOR: null_move
    /// Passes and searches shallower with a null window at beta. `Some(score)` ends the node: the
    /// pass held (and, deep down, a verification search without passing held too), or the search
    /// was stopped.
    pub(crate) fn null_move(
        &mut self,
        pos: &Position,
        args: NodeArgs,
        static_eval: i32,
        pv: &mut Pv,
    ) -> Option<i32> {
        let NodeArgs {
            depth,
            ply,
            beta,
            cut_node,
            ..
        } = args;
        let p = self.params;
        self.note(Note::NullMove);
        let reduction = p.nmp_base_reduction
            + depth / p.nmp_depth_divisor
            + ((static_eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
        let null_depth = depth - reduction;
        let verify_depth = p.nmp_verify_depth;
        let mut child = pos.clone();
        child.make_null_move();
        self.stack[ply].moved = None;
        self.evaluator.push(pos, None, &child, ply);
        self.keys.push(pos.hash());
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.moved(ply, None);
            tree.via(Via::NullMove);
        }
        let null_window = (beta - 1, beta);
        let score = self.child::<NonPv>(&child, null_depth, ply, null_window, !cut_node, pv);
        self.unplay();
        if self.aborted {
            return Some(0);
        }
        if score >= beta {
            // A mate found after passing is no proof: report a plain cutoff.
            let score = if score >= MATE_BOUND { beta } else { score };
            if depth < verify_depth || self.nmp_min_ply > 0 {
                self.note_node(Note::NullMoveCutoff);
                return Some(score);
            }
            // Deep down, verify with a real search in which we may not pass for a while
            // (zugzwang: positions where every move is worse than passing).
            self.note(Note::NullMoveVerification);
            self.nmp_min_ply = ply + 3 * null_depth.max(0) as usize / 4;
            self.tree_via(Via::Verification);
            let verification = NodeArgs {
                depth: null_depth,
                alpha: beta - 1,
                cut_node: false,
                ..args
            };
            let verified = self.node::<NonPv>(pos, verification, pv);
            self.nmp_min_ply = 0;
            if self.aborted {
                return Some(0);
            }
            if verified >= beta {
                self.note_node(Note::NullMoveCutoff);
                return Some(score);
            }
        }
        pv.clear();
        None
    }
    // ANCHOR_END: null_move
}
