//! The first evaluation: material and piece-square tables, tapered between middlegame and
//! endgame. It is what the engine evaluated with in stages 6 to 15, before chapter 16 replaced it
//! with the hand-crafted evaluation (commit `c12dcbf`); kept, with its hand-set numbers as they
//! were, so that `set hce off` (and every stage preset below 16) plays the engine of those
//! chapters.

use super::score_pair::S;
use super::{EvalTrace, Evaluator, MAX_PHASE, SCALE_NORMAL, Term, blend};
use chess::{Color, PieceType, Position, Square};

/// Pawn, knight, bishop, rook, queen, king.
const MATERIAL: [S; 6] = [
    S::new(90, 110),
    S::new(320, 300),
    S::new(335, 320),
    S::new(470, 520),
    S::new(940, 990),
    S::new(0, 0),
];

/// What each piece type adds to the phase.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

// ANCHOR: pst_tables
// Tables as seen from White's side: the first row is rank 8, the last rank 1.
#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     40,  45,  45,  50,  50,  45,  45,  40,
     15,  20,  25,  30,  30,  25,  20,  15,
      4,   6,  12,  22,  22,  12,   6,   4,
      0,   2,   8,  18,  18,   6,   2,   0,
      2,   2,   4,   6,   6,   0,   2,   2,
      0,   0,   0, -12, -12,   6,  10,   2,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     95,  90,  85,  80,  80,  85,  90,  95,
     55,  52,  48,  45,  45,  48,  52,  55,
     30,  28,  25,  22,  22,  25,  28,  30,
     14,  12,  10,   8,   8,  10,  12,  14,
      4,   4,   2,   0,   0,   2,   4,   4,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -20,   5,  15,  20,  20,  15,   5, -20,
    -15,  10,  20,  28,  28,  20,  10, -15,
    -15,   5,  18,  25,  25,  18,   5, -15,
    -20,   0,  12,  15,  15,  12,   0, -20,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -55, -30, -20, -15, -15, -20, -30, -55,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -45, -30, -20, -15, -15, -20, -30, -45,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -45, -30, -20, -15, -15, -20, -30, -45,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   8,   8,  12,  12,   8,   8, -10,
    -10,   2,  12,  12,  12,  12,   2, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,  12,   2,   5,   5,   2,  12, -10,
    -20, -10, -12, -10, -10, -12, -10, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -4,   0,   2,   2,   0,  -4, -10,
     -8,   0,   5,   6,   6,   5,   0,  -8,
     -5,   2,   6,  10,  10,   6,   2,  -5,
     -5,   2,   6,  10,  10,   6,   2,  -5,
     -8,   0,   5,   6,   6,   5,   0,  -8,
    -10,  -4,   0,   2,   2,   0,  -4, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      5,   8,  10,  12,  12,  10,   8,   5,
     15,  20,  20,  22,  22,  20,  20,  15,
     -5,   0,   2,   4,   4,   2,   0,  -5,
     -8,  -2,   0,   2,   2,   0,  -2,  -8,
    -10,  -4,  -2,   0,   0,  -2,  -4, -10,
    -10,  -4,  -2,   0,   0,  -2,  -4, -10,
    -12,  -6,  -2,   0,   0,  -2,  -6, -12,
     -6,  -4,   2,   8,   8,   4,  -4,  -6,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
      8,   8,   8,   8,   8,   8,   8,   8,
     12,  12,  12,  12,  12,  12,  12,  12,
      4,   4,   4,   4,   4,   4,   4,   4,
      2,   2,   2,   2,   2,   2,   2,   2,
      0,   0,   0,   0,   0,   0,   0,   0,
     -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
     -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
     -6,  -4,  -2,   0,   0,  -2,  -4,  -6,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,   2,   5,   5,   5,   5,   0, -10,
    -10,   0,   2,   2,   2,   0,   0, -10,
    -20, -10, -10,  -2,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -20, -12, -10,  -8,  -8, -10, -12, -20,
    -12,  -4,   0,   2,   2,   0,  -4, -12,
    -10,   0,   8,  10,  10,   8,   0, -10,
     -8,   2,  10,  14,  14,  10,   2,  -8,
     -8,   2,  10,  14,  14,  10,   2,  -8,
    -10,   0,   8,  10,  10,   8,   0, -10,
    -12,  -4,   0,   2,   2,   0,  -4, -12,
    -20, -12, -10,  -8,  -8, -10, -12, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -60, -60, -70, -70, -60, -60, -60,
    -50, -55, -55, -65, -65, -55, -55, -50,
    -45, -50, -50, -60, -60, -50, -50, -45,
    -40, -45, -45, -55, -55, -45, -45, -40,
    -30, -35, -40, -50, -50, -40, -35, -30,
    -15, -20, -25, -35, -35, -25, -20, -15,
     10,  10,  -5, -20, -20, -10,  12,  12,
     15,  28,  12, -10,   0,   5,  30,  18,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -20,   0,  15,  20,  20,  15,   0, -20,
    -15,   5,  20,  28,  28,  20,   5, -15,
    -15,   5,  20,  28,  28,  20,   5, -15,
    -20,   0,  15,  20,  20,  15,   0, -20,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
];
// ANCHOR_END: pst_tables

/// Material plus square bonus for every piece type and square, from White's side: computed once
/// at compile time so that the evaluation is one lookup per piece.
const fn build_table() -> [[S; 64]; 6] {
    let mg = [
        &PAWN_MG, &KNIGHT_MG, &BISHOP_MG, &ROOK_MG, &QUEEN_MG, &KING_MG,
    ];
    let eg = [
        &PAWN_EG, &KNIGHT_EG, &BISHOP_EG, &ROOK_EG, &QUEEN_EG, &KING_EG,
    ];
    let mut table = [[S::ZERO; 64]; 6];
    let mut piece = 0;
    while piece < 6 {
        let mut sq = 0;
        while sq < 64 {
            // Square index 0 is a1, which the tables above show in their last row.
            let visual = (7 - sq / 8) * 8 + sq % 8;
            table[piece][sq] = S::new(
                MATERIAL[piece].mg() + mg[piece][visual],
                MATERIAL[piece].eg() + eg[piece][visual],
            );
            sq += 1;
        }
        piece += 1;
    }
    table
}

static TABLE: [[S; 64]; 6] = build_table();

/// The table entry for a piece of `color` on `sq`: Black's squares are mirrored.
#[inline]
fn entry(piece: PieceType, color: Color, sq: Square) -> S {
    let sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    };
    TABLE[piece.index()][sq.index()]
}

/// Material and piece-square tables.
#[derive(Clone, Copy, Debug, Default)]
pub struct PstEvaluator;

impl PstEvaluator {
    /// One side's material, its square bonuses, and its share of the phase.
    fn side(pos: &Position, color: Color) -> (S, S, i32) {
        let (mut material, mut squares, mut phase) = (S::ZERO, S::ZERO, 0);
        for piece in PieceType::ALL {
            let i = piece.index();
            for sq in pos.pieces(piece, color) {
                material += MATERIAL[i];
                squares += entry(piece, color, sq) - MATERIAL[i];
                phase += PHASE[i];
            }
        }
        (material, squares, phase)
    }
}

impl Evaluator for PstEvaluator {
    // ANCHOR: pst_evaluate
    fn evaluate(&mut self, pos: &Position, _ply: usize) -> i32 {
        let mut score = S::ZERO;
        let mut phase = 0;
        for color in Color::ALL {
            for piece in PieceType::ALL {
                for sq in pos.pieces(piece, color) {
                    score += entry(piece, color, sq) * color.sign();
                    phase += PHASE[piece.index()];
                }
            }
        }
        // No endgame scaling: that came with chapter 16.
        blend(score, phase.min(MAX_PHASE), SCALE_NORMAL) * pos.side_to_move().sign()
    }
    // ANCHOR_END: pst_evaluate

    fn trace(&mut self, pos: &Position) -> EvalTrace {
        let (white_material, white_squares, white_phase) = Self::side(pos, Color::White);
        let (black_material, black_squares, black_phase) = Self::side(pos, Color::Black);
        let phase = (white_phase + black_phase).min(MAX_PHASE);
        let total = white_material + white_squares - black_material - black_squares;
        EvalTrace {
            terms: vec![
                Term {
                    name: "material",
                    white: white_material,
                    black: black_material,
                },
                Term {
                    name: "squares",
                    white: white_squares,
                    black: black_squares,
                },
            ],
            phase,
            scale: SCALE_NORMAL,
            white_score: blend(total, phase, SCALE_NORMAL),
            side_to_move: pos.side_to_move(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::bench::BENCH_POSITIONS;

    #[test]
    fn the_start_is_level_and_the_trace_adds_up() {
        let mut eval = PstEvaluator;
        assert_eq!(eval.evaluate(&Position::startpos(), 0), 0);
        // The standard positions of the bench (the Chess960 ones add nothing here).
        for (fen, _) in BENCH_POSITIONS.iter().filter(|(_, chess960)| !chess960) {
            let pos = Position::from_fen(fen).unwrap();
            let trace = eval.trace(&pos);
            assert_eq!(trace.sum_of_terms(), trace.white_score, "{fen}");
            assert_eq!(trace.score(), eval.evaluate(&pos, 0), "{fen}");
        }
    }

    #[test]
    fn the_numbers_are_the_first_evaluation_s() {
        let mut eval = PstEvaluator;
        // A pawn up on e2 in a bare ending (phase 0): the endgame values, 110 for the pawn and 0
        // for its square, as the evaluation of stages 6 to 15 had them.
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(eval.evaluate(&pos, 0), 110);
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert_eq!(eval.evaluate(&pos, 0), -110);
        // A knight on a1 against one on d4, each side with its king on the same square, colours
        // mirrored: the square tables alone decide (phase 2 of 24).
        let pos = Position::from_fen("n3k3/8/8/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let mg = 25 - (-55);
        let eg = 18 - (-45);
        assert_eq!(eval.evaluate(&pos, 0), (mg * 2 + eg * 22) / 24);
    }
}
