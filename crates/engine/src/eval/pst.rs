//! The first evaluation: material and piece-square tables, tapered between middlegame and
//! endgame. The numbers are a hand-made starting point; stage 16 replaces them with tuned ones.

use super::{EvalTrace, Evaluator, MAX_PHASE, Score, Term, taper};
use chess::{Color, PieceType, Position, Square};

const fn s(mg: i32, eg: i32) -> Score {
    Score::new(mg, eg)
}

/// Pawn, knight, bishop, rook, queen, king.
const MATERIAL: [Score; 6] = [
    s(90, 110),
    s(320, 300),
    s(335, 320),
    s(470, 520),
    s(940, 990),
    s(0, 0),
];

/// What each piece type adds to the phase.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

// ANCHOR: tables
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
// ANCHOR_END: tables

/// Material plus square bonus for every piece type and square, from White's side: computed once
/// at compile time so the evaluation is one lookup per piece.
const fn build_table() -> [[Score; 64]; 6] {
    let mg = [
        &PAWN_MG, &KNIGHT_MG, &BISHOP_MG, &ROOK_MG, &QUEEN_MG, &KING_MG,
    ];
    let eg = [
        &PAWN_EG, &KNIGHT_EG, &BISHOP_EG, &ROOK_EG, &QUEEN_EG, &KING_EG,
    ];
    let mut table = [[Score::new(0, 0); 64]; 6];
    let mut piece = 0;
    while piece < 6 {
        let mut sq = 0;
        while sq < 64 {
            // Square index 0 is a1, which the tables above show in their last row.
            let row = 7 - sq / 8;
            let visual = row * 8 + sq % 8;
            table[piece][sq] = Score::new(
                MATERIAL[piece].mg + mg[piece][visual],
                MATERIAL[piece].eg + eg[piece][visual],
            );
            sq += 1;
        }
        piece += 1;
    }
    table
}

static TABLE: [[Score; 64]; 6] = build_table();

/// The table entry for a piece of `color` on `sq`: Black's squares are mirrored.
#[inline]
fn entry(piece: PieceType, color: Color, sq: Square) -> Score {
    let sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    };
    TABLE[piece.index()][sq.index()]
}

/// Material and piece-square tables.
#[derive(Clone, Default)]
pub struct PstEvaluator;

impl PstEvaluator {
    /// Material and squares summed for one side, and that side's phase contribution.
    fn side(pos: &Position, color: Color) -> (Score, Score, i32) {
        let mut material = Score::default();
        let mut squares = Score::default();
        let mut phase = 0;
        for piece in PieceType::ALL {
            let i = piece.index();
            for sq in pos.pieces(piece, color) {
                let total = entry(piece, color, sq);
                material += MATERIAL[i];
                squares += total - MATERIAL[i];
                phase += PHASE[i];
            }
        }
        (material, squares, phase)
    }
}

impl Evaluator for PstEvaluator {
    // ANCHOR: evaluate
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let mut score = Score::default();
        let mut phase = 0;
        for color in Color::ALL {
            let sign = color.sign();
            for piece in PieceType::ALL {
                for sq in pos.pieces(piece, color) {
                    let e = entry(piece, color, sq);
                    score += Score::new(sign * e.mg, sign * e.eg);
                    phase += PHASE[piece.index()];
                }
            }
        }
        taper(score, phase.min(MAX_PHASE)) * pos.side_to_move().sign()
    }
    // ANCHOR_END: evaluate

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
            white_score: taper(total, phase),
            side_to_move: pos.side_to_move(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_level_and_trace_adds_up() {
        let mut eval = PstEvaluator;
        let pos = Position::startpos();
        assert_eq!(eval.evaluate(&pos), 0);
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let pos = Position::from_fen(fen).unwrap();
        let trace = eval.trace(&pos);
        assert_eq!(trace.sum_of_terms(), trace.white_score);
        assert_eq!(trace.score(), eval.evaluate(&pos));
    }

    #[test]
    fn a_pawn_up_is_better() {
        let mut eval = PstEvaluator;
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(eval.evaluate(&pos) > 80);
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert!(eval.evaluate(&pos) < -80);
    }
}
