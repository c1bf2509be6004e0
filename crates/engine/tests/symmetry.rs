//! The evaluation is colour-blind: a position and its mirror image with colours swapped score the
//! same for the side to move (opposite from White's view). Checked on every bench position and
//! every position of the standard perft suite.

use chess::{CastlingMode, Position};
use engine::tools::bench::BENCH_POSITIONS;
use engine::{Evaluator, HceEvaluator};

fn check(pos: &Position, eval: &mut HceEvaluator) {
    let mirror = pos.mirrored();
    assert_eq!(
        eval.evaluate(pos, 0),
        eval.evaluate(&mirror, 0),
        "{}",
        pos.to_fen()
    );
    let (a, b) = (eval.trace(pos), eval.trace(&mirror));
    assert_eq!(a.white_score, -b.white_score, "{}", pos.to_fen());
    assert_eq!(a.sum_of_terms(), a.white_score, "trace of {}", pos.to_fen());
    assert_eq!(mirror.mirrored(), *pos);
}

#[test]
fn mirrored_positions_score_the_same_for_the_side_to_move() {
    let mut eval = HceEvaluator::default();
    for &(fen, chess960) in BENCH_POSITIONS {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        check(
            &Position::from_fen_with(fen, mode).expect("bench FEN"),
            &mut eval,
        );
    }
    let suite = include_str!("../../../data/perft/standard.epd");
    for line in suite.lines() {
        let fen = line.split(';').next().unwrap_or_default().trim();
        check(&Position::from_fen(fen).expect("suite FEN"), &mut eval);
    }
}
