//! The static evaluation as the search reads it (stage 20): the evaluator's score, scaled by the
//! material left and by the fifty-move counter, plus what the correction histories have learned
//! about positions like this one; the hash score where it knows better; and the learning itself.
//! Every part has its switch, all off by default until an SPRT of the bundle accepts them.
//!
//! The hash table keeps the evaluator's own score (`raw_eval`), not the corrected one: the
//! corrections change as the search learns, the fifty-move counter is not part of the hash, and
//! a corrected score stored and corrected again on the next probe would count the correction
//! twice. Every probe corrects afresh.

use super::Worker;
use crate::correction::{correction_bonus, corrections_on};
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::score::{TB_WIN_BOUND, score_from_tt};
use crate::tt::{Bound, TtEntry};
use chess::{PieceType, Position};

/// The material on the board, both colours, by the classical values (a pawn 100, a knight or
/// bishop 300, a rook 500, a queen 900): 7,800 at the start.
fn material(pos: &Position) -> i64 {
    const VALUES: [(PieceType, i64); 5] = [
        (PieceType::Pawn, 100),
        (PieceType::Knight, 300),
        (PieceType::Bishop, 300),
        (PieceType::Rook, 500),
        (PieceType::Queen, 900),
    ];
    VALUES
        .iter()
        .map(|&(piece_type, value)| pos.pieces_of_type(piece_type).popcount() as i64 * value)
        .sum()
}

// ANCHOR: score_corrects
/// 20: whether a search's `score`, a bound of kind `bound` on the position's true score, says
/// that the evaluation `eval` is wrong. An exact score does. A lower bound (a fail high) proves the
/// true score at least `score`: it says the evaluation was too low only if `score` is above it;
/// an upper bound (a fail low) says it was too high only if `score` is below it. A bound on the
/// other side says nothing about it. Mate and tablebase scores are left out: they are proofs about
/// the game, not measures of an evaluation's error. Both the hash score as an evaluation and the
/// correction histories' learning ask this.
#[inline]
pub(crate) fn score_corrects(bound: Bound, score: i32, eval: i32) -> bool {
    let right_side = match bound {
        Bound::Exact => true,
        Bound::Lower => score > eval,
        Bound::Upper => score < eval,
    };
    right_side && score.abs() < TB_WIN_BOUND
}
// ANCHOR_END: score_corrects

// ANCHOR: tt_eval
/// 20: the hash score as a better evaluation: a stored result is a search's verdict on this
/// position, the evaluation only a guess; where the entry's bound says the guess is wrong (see
/// [`score_corrects`]), its score is the better estimate.
#[inline]
pub(crate) fn eval_from_tt(entry: &TtEntry, ply: usize, static_eval: i32) -> Option<i32> {
    let score = score_from_tt(entry.score, ply);
    score_corrects(entry.bound, score, static_eval).then_some(score)
}
// ANCHOR_END: tt_eval

impl<E: Evaluator> Worker<E> {
    /// The static evaluation the search reads at `ply` for `raw`, the evaluator's score of `pos`
    /// (from the evaluator or the hash table): `raw` itself while every stage-20 switch is off.
    #[inline]
    pub(crate) fn corrected_eval(&mut self, pos: &Position, ply: usize, raw: i32) -> i32 {
        let t = &self.techniques;
        if !(t.material_scaling || t.fifty_move_scaling || corrections_on(t)) {
            return raw;
        }
        self.adjust_eval(pos, ply, raw)
    }

    /// [`Worker::corrected_eval`] with something switched on; kept out of the node function's
    /// code, which calls it once per node.
    #[inline(never)]
    fn adjust_eval(&mut self, pos: &Position, ply: usize, raw: i32) -> i32 {
        let p = &self.params;
        let (scale_base, scale_divisor) = (p.material_scale_base, p.material_scale_divisor);
        let fifty_divisor = p.fifty_move_divisor as i64;
        let mut eval = raw as i64;

        // ANCHOR: material_scaling
        // 20: material scaling. The network's score is a guess at the result; a lead of a pawn
        // is more likely to win with more pieces left to turn it into something, and to be drawn
        // in a bare ending. Scaling by the material also leans the search towards trading when
        // behind and against it when ahead.
        if self.techniques.material_scaling {
            let scale = scale_base as i64 + material(pos);
            let scaled = eval * scale / scale_divisor as i64;
            self.note_eval_change(
                Note::MaterialScaling,
                Note::MaterialScalingSize,
                eval,
                scaled,
            );
            eval = scaled;
        }
        // ANCHOR_END: material_scaling

        // ANCHOR: fifty_move_scaling
        // 20: the fifty-move counter. Plies without a capture or pawn move bring the draw by rule
        // nearer, which the evaluation doesn't see: at 100 the score is 0 whatever it says.
        // Drawing it towards 0 as the counter grows makes the side ahead make progress first.
        if self.techniques.fifty_move_scaling {
            let clock = pos.halfmove_clock().min(100) as i64;
            let drawn = eval * (fifty_divisor - clock) / fifty_divisor;
            self.note_eval_change(
                Note::FiftyMoveScaling,
                Note::FiftyMoveScalingSize,
                eval,
                drawn,
            );
            eval = drawn;
        }
        // ANCHOR_END: fifty_move_scaling

        // ANCHOR: correction_apply
        // 20: the correction histories: what searches of positions with the same pawns, the same
        // pieces or after the same two moves found the evaluation to miss.
        if corrections_on(&self.techniques) {
            let previous = self.previous(ply);
            let correction =
                self.corrections
                    .correction(pos, previous, &self.techniques, &self.params)
                    as i64;
            self.note_eval_change(
                Note::CorrectionApplied,
                Note::CorrectionSize,
                eval,
                eval + correction,
            );
            eval += correction;
        }
        // ANCHOR_END: correction_apply

        // Never a mate or tablebase score: those are proofs, not evaluations.
        let bound = (TB_WIN_BOUND - 1) as i64;
        eval.clamp(-bound, bound) as i32
    }

    /// Counts a change of the evaluation from `before` to `after`, and adds its size.
    #[inline]
    fn note_eval_change(&mut self, count: Note, size: Note, before: i64, after: i64) {
        if before != after {
            self.note(count);
            self.counters.add_many(size, before.abs_diff(after));
        }
    }

    // ANCHOR: correction_update
    /// 20: the correction histories learn from a node's result `score` (one that
    /// [`score_corrects`] the evaluation) at `depth`: the error of `static_eval`, the corrected evaluation the
    /// node read, weighted by the depth that backs the result. Measured against the corrected
    /// evaluation, the error shrinks as the corrections learn it: they settle where the
    /// evaluation and the search agree.
    pub(crate) fn learn_correction(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        score: i32,
        static_eval: i32,
    ) {
        let bonus = correction_bonus(&self.params, score - static_eval, depth);
        let previous = self.previous(ply);
        self.corrections
            .update(pos, previous, &self.techniques, bonus);
        self.note(Note::CorrectionUpdate);
    }
    // ANCHOR_END: correction_update
}
