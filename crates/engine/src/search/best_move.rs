//! After a move is searched: the best-move update that the main search and the quiescence search
//! share. What a cutoff teaches the move ordering is in `cutoff.rs`.

use crate::pv::Pv;
use crate::score::INFINITE;
use chess::Move;

/// The best of the moves searched so far at a node.
#[derive(Clone, Copy)]
pub(crate) struct Best {
    pub score: i32,
    /// The move that raised alpha last; `None` while none has.
    pub mv: Option<Move>,
}

impl Best {
    /// Nothing searched yet.
    pub fn none() -> Best {
        Best::at_least(-INFINITE)
    }

    /// A score the node has without searching a move (the quiescence search's stand pat).
    pub fn at_least(score: i32) -> Best {
        Best { score, mv: None }
    }

    // ANCHOR: best_update
    /// Takes in the score of `mv`: a better score, a raised alpha (on a PV node, with the line:
    /// `lines` holds the node's line and the child's), and whether it reaches beta, which ends
    /// the node.
    #[inline]
    pub fn update(
        &mut self,
        mv: Move,
        score: i32,
        alpha: &mut i32,
        beta: i32,
        lines: Option<(&mut Pv, &Pv)>,
    ) -> bool {
        if score <= self.score {
            return false;
        }
        self.score = score;
        if score <= *alpha {
            return false;
        }
        self.mv = Some(mv);
        *alpha = score;
        if let Some((pv, child_pv)) = lines {
            pv.set(mv, child_pv);
        }
        score >= beta
    }
    // ANCHOR_END: best_update
}
