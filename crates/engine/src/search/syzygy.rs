//! The tablebases in the search (chapter 19): at the root they choose which moves are searched at
//! all; inside the tree they give the exact result of positions just after a capture or a pawn
//! move. The tables themselves are read by [`crate::tablebase`].

use super::{RootMove, Worker};
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::score::{DRAW, tb_loss_in, tb_win_in};
use crate::tablebase::{Probing, Wdl};
use crate::tt::Bound;
use chess::Position;
use std::sync::atomic::Ordering;

/// What the tablebases set up for one search.
#[derive(Default)]
pub(crate) struct TablebaseState {
    /// The tables and options, while the search probes inside the tree.
    probing: Option<Probing>,
    /// The most pieces of a position probed in the tree.
    cardinality: usize,
    /// The root's result, when the tables chose the root moves: the score to report for as long
    /// as the search has not found a mate.
    pub root_score: Option<i32>,
}

// ANCHOR: tb_score
/// A tablebase result as a score for the side to move at `ply`, and the bound it proves. A win is
/// only a lower bound (the search may find the mate itself, which scores higher), a loss an upper
/// bound; a draw is exact. Under the fifty-move rule a win or loss that the clock spoils is a draw,
/// nudged by one centipawn towards the side that would have won.
fn tablebase_score(wdl: Wdl, ply: usize, fifty_move_rule: bool) -> (i32, Bound) {
    match wdl {
        Wdl::Win => (tb_win_in(ply), Bound::Lower),
        Wdl::CursedWin if !fifty_move_rule => (tb_win_in(ply), Bound::Lower),
        Wdl::CursedWin => (DRAW + 1, Bound::Exact),
        Wdl::Draw => (DRAW, Bound::Exact),
        Wdl::BlessedLoss if fifty_move_rule => (DRAW - 1, Bound::Exact),
        Wdl::BlessedLoss | Wdl::Loss => (tb_loss_in(ply), Bound::Upper),
    }
}
// ANCHOR_END: tb_score

impl<E: Evaluator> Worker<E> {
    // ANCHOR: tb_root
    /// At the start of a search. With the root in the tables, only the root moves that keep its
    /// best result are searched (for a win, those that make the soonest progress; for a loss,
    /// those that resist longest), and the tree is not probed: every move left holds the result,
    /// and the search's work is to find the way through, which equal tablebase scores at every
    /// capture would hide. Otherwise the tree is probed.
    pub(crate) fn start_tablebases(&mut self, pos: &Position, probing: Option<&Probing>) {
        self.tablebases = TablebaseState::default();
        let Some(probing) = probing.filter(|_| self.techniques.syzygy) else {
            return;
        };
        let cardinality = probing.cardinality();
        if pos.occupied().count() <= cardinality
            && let Some((wdl, keep)) = probing.tables.root_moves(pos, probing.fifty_move_rule)
        {
            let holds = |rm: &RootMove| keep.contains(&rm.mv);
            // `searchmoves` may have left none of them: then it has the last word.
            if self.root_moves.iter().any(holds) {
                if self.is_main() {
                    let probed = self.root_moves.len() as u64;
                    self.signals.tb_hits.fetch_add(probed, Ordering::Relaxed);
                }
                self.root_moves.retain(holds);
                let (score, _) = tablebase_score(wdl, 0, probing.fifty_move_rule);
                self.tablebases.root_score = Some(score);
                return;
            }
        }
        self.tablebases.probing = Some(probing.clone());
        self.tablebases.cardinality = cardinality;
    }
    // ANCHOR_END: tb_root

    // ANCHOR: tb_probe
    /// Inside the tree: the tables' result for a position just reached by a capture or a pawn move
    /// (halfmove clock 0: what a win/draw/loss table answers exactly), with few enough pieces and
    /// no castling right. With as many pieces as the largest tables hold, only at
    /// `SyzygyProbeDepth` or deeper, since those probes cost the most.
    #[inline]
    pub(crate) fn probe_tablebase(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
    ) -> Option<(i32, Bound)> {
        let probing = self.tablebases.probing.as_ref()?;
        let pieces = pos.occupied().count();
        let cardinality = self.tablebases.cardinality;
        if pos.halfmove_clock() != 0
            || pieces > cardinality
            || (pieces == cardinality && depth < probing.depth)
            || pos.castling_rights().any()
        {
            return None;
        }
        let fifty_move_rule = probing.fifty_move_rule;
        let wdl = probing.tables.probe_wdl(pos)?;
        self.signals.tb_hits.fetch_add(1, Ordering::Relaxed);
        self.note(Note::TbHit);
        Some(tablebase_score(wdl, ply, fifty_move_rule))
    }
    // ANCHOR_END: tb_probe
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{MATE_BOUND, TB_WIN_BOUND};

    #[test]
    fn the_fifty_move_rule_turns_spoilt_results_into_draws() {
        assert_eq!(tablebase_score(Wdl::CursedWin, 3, true), (1, Bound::Exact));
        assert_eq!(
            tablebase_score(Wdl::BlessedLoss, 3, true),
            (-1, Bound::Exact)
        );
        assert_eq!(
            tablebase_score(Wdl::CursedWin, 3, false),
            (tb_win_in(3), Bound::Lower)
        );
        assert_eq!(
            tablebase_score(Wdl::BlessedLoss, 3, false),
            (tb_loss_in(3), Bound::Upper)
        );
        let (win, _) = tablebase_score(Wdl::Win, 10, true);
        assert!(win > TB_WIN_BOUND && win < MATE_BOUND);
        assert_eq!(tablebase_score(Wdl::Draw, 10, true), (DRAW, Bound::Exact));
    }
}
