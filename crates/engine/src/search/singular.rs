//! Singular extensions and their relatives (chapter 15): is the hash move the only good move?

use super::Worker;
use crate::eval::Evaluator;
use crate::notes::Note;
use crate::pv::Pv;
use crate::score::{MATE_BOUND, score_from_tt};
use crate::tree::Via;
use crate::tt::{Bound, TtEntry};
use chess::{Move, Position};

impl<E: Evaluator> Worker<E> {
    // ANCHOR: singular
    /// For the hash move `mv`: `Ok(extension)` in plies (2, 1, 0 or -1), or `Err(score)` to end
    /// the node (multi-cut, or the search was stopped). If every other move falls clearly short
    /// of the hash move's score in a shallower search, the hash move is the only good one: search
    /// it deeper.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn singular_extension(
        &mut self,
        pos: &Position,
        mv: Move,
        entry: TtEntry,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
        pv_node: bool,
        doubles: i32,
    ) -> Result<i32, i32> {
        let p = self.params;
        if !self.techniques.singular_extensions
            || depth < p.se_min_depth
            || entry.depth < depth - p.se_tt_depth_margin
            || entry.bound == Bound::Upper
            || score_from_tt(entry.score, ply).abs() >= MATE_BOUND
        {
            return Ok(0);
        }
        let tt_score = score_from_tt(entry.score, ply);
        let singular_beta = tt_score - p.se_beta_per_depth * depth;
        self.note(Note::SingularSearch);
        self.stack[ply].excluded = Some(mv);
        let mut scratch = Pv::new();
        self.tree_via(Via::Singular);
        let score = self.search(
            pos,
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            cut_node,
            &mut scratch,
        );
        self.stack[ply].excluded = None;
        if self.aborted {
            return Err(0);
        }
        if score < singular_beta {
            self.note(Note::SingularExtension);
            // Far short: two plies deeper, a limited number of times per line.
            if self.techniques.double_extensions
                && !pv_node
                && score < singular_beta - p.se_double_margin
                && doubles < p.se_double_max
            {
                self.note(Note::DoubleExtension);
                return Ok(2);
            }
            return Ok(1);
        }
        if self.techniques.multi_cut && singular_beta >= beta {
            // Multi-cut: another move beats beta as well; the node will fail high.
            self.note_node(Note::MultiCut);
            return Err(singular_beta);
        }
        if self.techniques.negative_extensions && tt_score >= beta {
            // Not singular, and expected to fail high anyway: search it shallower.
            self.note(Note::NegativeExtension);
            return Ok(-1);
        }
        Ok(0)
    }
    // ANCHOR_END: singular
}
