//! Static evaluation: how good a position looks without searching, in centipawns from the side
//! to move's view. The search sees it only through the [`Evaluator`] trait, so the evaluation can
//! be replaced (piece-square tables now, a hand-crafted evaluation and NNUE later).

mod pst;

pub use pst::PstEvaluator;

use chess::{Color, Move, Position};

/// A middlegame and an endgame value, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

impl Score {
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

/// The phase when all pieces but pawns and kings are on the board (a knight or bishop counts 1,
/// a rook 2, a queen 4).
pub const MAX_PHASE: i32 = 24;

/// Blends a middlegame/endgame pair by phase (`MAX_PHASE` = middlegame).
#[inline]
pub fn taper(score: Score, phase: i32) -> i32 {
    let phase = phase.clamp(0, MAX_PHASE);
    (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// One line of an evaluation trace: a term's value for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub white: Score,
    pub black: Score,
}

/// The evaluation term by term, for the `eval` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    pub terms: Vec<Term>,
    pub phase: i32,
    /// The final score from White's view.
    pub white_score: i32,
    pub side_to_move: Color,
}

impl EvalTrace {
    /// The final score from the side to move's view.
    pub fn score(&self) -> i32 {
        self.white_score * self.side_to_move.sign()
    }

    /// The sum of the terms, blended: must equal `white_score` (a test checks it).
    pub fn sum_of_terms(&self) -> i32 {
        let total = self
            .terms
            .iter()
            .fold(Score::default(), |acc, t| acc + t.white - t.black);
        taper(total, self.phase)
    }

    /// A table: each term for White, for Black and the difference, middlegame and endgame.
    pub fn report(&self) -> String {
        let mut s = String::new();
        s.push_str("      term |    white mg    eg |    black mg    eg |    total mg    eg\n");
        s.push_str("-----------+-------------------+-------------------+------------------\n");
        for t in &self.terms {
            let d = t.white - t.black;
            s.push_str(&format!(
                "{:>10} | {:>11} {:>5} | {:>11} {:>5} | {:>11} {:>5}\n",
                t.name, t.white.mg, t.white.eg, t.black.mg, t.black.eg, d.mg, d.eg
            ));
        }
        s.push_str(&format!(
            "\nphase {} of {MAX_PHASE} (24 = middlegame)\nscore {} cp from White's view, {} cp for the side to move\n",
            self.phase,
            self.white_score,
            self.score()
        ));
        s
    }
}

/// What the search needs of an evaluation.
pub trait Evaluator: Send {
    /// The static evaluation from the side to move's view.
    fn evaluate(&mut self, pos: &Position) -> i32;

    /// The same evaluation, term by term.
    fn trace(&mut self, pos: &Position) -> EvalTrace;

    /// Called before a search with its root position; an incremental evaluation resets here.
    fn reset(&mut self, _root: &Position) {}

    /// Called when the search makes `mv` (`None`: a null move) from `parent` at `ply`, giving
    /// `child`, so an incremental evaluation can update its state for ply + 1.
    fn push(&mut self, _parent: &Position, _mv: Option<Move>, _child: &Position, _ply: usize) {}
}
