//! Static evaluation: how good a position looks without searching, in centipawns from the side
//! to move's view. The search sees it only through the [`Evaluator`] trait, so the evaluation can
//! be replaced (the hand-crafted evaluation now, NNUE later).

mod evaluation;
pub mod feature_sink;
mod hce;
pub mod masks;
pub mod nnue;
mod pawns;
mod pst;
pub mod score_pair;
pub mod weights;

pub use evaluation::Evaluation;
pub use hce::{HceEvaluator, SCALE_NORMAL, Trace, blend, trace};
pub use pst::PstEvaluator;
pub use score_pair::S;

use crate::techniques::Techniques;
use chess::{Color, Move, Position};

/// The phase when all pieces but pawns and kings are on the board (a knight or bishop counts 1,
/// a rook 2, a queen 4).
pub const MAX_PHASE: i32 = 24;

/// One line of an evaluation trace: a term's value for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub white: S,
    pub black: S,
}

/// The evaluation term by term, for the `eval` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    pub terms: Vec<Term>,
    pub phase: i32,
    /// The endgame scale, out of [`SCALE_NORMAL`].
    pub scale: i32,
    /// The final score from White's view.
    pub white_score: i32,
    pub side_to_move: Color,
}

impl EvalTrace {
    /// The final score from the side to move's view.
    pub fn score(&self) -> i32 {
        self.white_score * self.side_to_move.sign()
    }

    // ANCHOR: sum_of_terms
    /// The sum of the terms, blended: must equal `white_score` (a test checks it).
    pub fn sum_of_terms(&self) -> i32 {
        let total = self
            .terms
            .iter()
            .fold(S::ZERO, |acc, t| acc + t.white - t.black);
        blend(total, self.phase, self.scale)
    }
    // ANCHOR_END: sum_of_terms

    /// A table: each term for White, for Black and the difference, middlegame and endgame.
    pub fn report(&self) -> String {
        let mut s = String::new();
        s.push_str("         term |  white mg    eg |  black mg    eg |  total mg    eg\n");
        s.push_str("--------------+-----------------+-----------------+----------------\n");
        for t in &self.terms {
            let d = t.white - t.black;
            s.push_str(&format!(
                "{:>13} | {:>9} {:>5} | {:>9} {:>5} | {:>9} {:>5}\n",
                t.name,
                t.white.mg(),
                t.white.eg(),
                t.black.mg(),
                t.black.eg(),
                d.mg(),
                d.eg()
            ));
        }
        let total = self
            .terms
            .iter()
            .fold(S::ZERO, |acc, t| acc + t.white - t.black);
        s.push_str(&format!(
            "\ntotal {} mg, {} eg; phase {} of {MAX_PHASE} (24 = middlegame); endgame scale {}/{SCALE_NORMAL}\n\
             score {} cp from White's view, {} cp for the side to move\n",
            total.mg(),
            total.eg(),
            self.phase,
            self.scale,
            self.white_score,
            self.score()
        ));
        s
    }
}

// ANCHOR: evaluator
/// What the search needs of an evaluation.
pub trait Evaluator: Send {
    /// The static evaluation of `pos`, the position at `ply` of the line being searched, from
    /// the side to move's view. The ply tells an incremental evaluation which of its states to
    /// use: the search may evaluate a node after it has already made a move from it.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32;

    /// The same evaluation, term by term.
    fn trace(&mut self, pos: &Position) -> EvalTrace;

    /// Called before a search with its root position; an incremental evaluation resets here.
    fn reset(&mut self, _root: &Position) {}

    /// Called when the search makes `mv` (`None`: a null move) from `parent` at `ply`, giving
    /// `child`, so an incremental evaluation can update its state for ply + 1.
    fn push(&mut self, _parent: &Position, _mv: Option<Move>, _child: &Position, _ply: usize) {}

    /// Called before a search with its switches (`nnue` and `hce` pick the evaluation).
    fn configure(&mut self, _techniques: &Techniques) {}
}
// ANCHOR_END: evaluator

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::bench::BENCH_POSITIONS;
    use chess::CastlingMode;

    // ANCHOR: trace_test
    #[test]
    fn trace_adds_up_to_the_score_and_start_is_level() {
        let mut eval = HceEvaluator::default();
        let start = Position::startpos();
        // Level but for the tempo of the side to move.
        let t = eval.trace(&start);
        assert_eq!(
            t.terms
                .iter()
                .filter(|t| t.name != "tempo")
                .map(|t| t.white - t.black)
                .fold(S::ZERO, |a, b| a + b),
            S::ZERO
        );
        for &(fen, chess960) in BENCH_POSITIONS {
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let pos = Position::from_fen_with(fen, mode).unwrap();
            let trace = eval.trace(&pos);
            assert_eq!(trace.sum_of_terms(), trace.white_score, "{fen}");
            assert_eq!(trace.score(), eval.evaluate(&pos, 0), "{fen}");
        }
    }
    // ANCHOR_END: trace_test

    #[test]
    fn a_pawn_up_is_better() {
        let mut eval = HceEvaluator::default();
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(eval.evaluate(&pos, 0) > 50);
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert!(eval.evaluate(&pos, 0) < -50);
    }
}
