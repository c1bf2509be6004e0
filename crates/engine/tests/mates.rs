//! The search finds mates: 25 positions, mates in 1 to 5, from well-known games and problems
//! (Légal's mate, Morphy's Opera Game, Philidor's legacy, the Fool's and Scholar's mates, back-rank
//! and king-and-rook mates). Each must be found with the exact mate score, and the principal
//! variation must be a legal line that ends in mate.

use chess::Position;
use engine::score::{UciScore, mate_in};
use engine::{HceEvaluator, Limits, SearchOptions, ThreadPool, TranspositionTable};
use std::sync::Arc;

/// (FEN, mate in this many moves for the side to move).
const MATES: &[(&str, i32)] = &[
    // Mates in one.
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
    ),
    ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        1,
    ),
    ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1),
    ("2k5/8/2K5/8/8/8/8/7R w - - 0 1", 1),
    ("3k4/8/3K4/8/8/8/8/R7 w - - 0 1", 1),
    ("1r4k1/5ppp/8/8/8/8/6PP/1R1R2K1 w - - 0 1", 1),
    ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", 1),
    ("4r1k1/5ppp/8/8/8/8/5PPP/2Q1R1K1 w - - 0 1", 1),
    ("k7/pp6/8/8/8/8/8/K5QR w - - 0 1", 1),
    // Mates in two: Légal's mate, the Opera Game (Morphy, Paris 1858), rook and queen mates.
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        2,
    ),
    ("4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16", 2),
    ("5k2/8/5K2/8/8/8/8/6R1 w - - 0 1", 2),
    ("k7/8/2K5/8/8/8/8/1R6 w - - 0 1", 2),
    ("8/8/8/8/8/8/k1K5/1R6 w - - 0 1", 2),
    (
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        2,
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        2,
    ),
    ("1k6/1P6/2K5/8/8/8/8/7Q w - - 0 1", 2),
    // Mates in three: a king hunt, a rook ending, a queen lift.
    (
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        3,
    ),
    ("8/8/8/8/2k5/8/7r/1K6 b - - 0 1", 3),
    ("6k1/5p1p/6pQ/8/8/8/5PPP/5RK1 w - - 0 1", 3),
    // Mates in four: Philidor's legacy (a smothered mate), a queen and bishop battery.
    ("5r1k/6pp/8/6N1/2Q5/8/6PP/6K1 w - - 0 1", 4),
    ("6k1/5ppp/8/8/8/8/1B3PPP/1Q4K1 w - - 0 1", 4),
    // Mate in five: the back rank falls to queen and rook.
    ("6k1/5ppp/4p3/8/8/8/4QPPP/4R1K1 w - - 0 1", 5),
];

#[test]
fn finds_every_mate_with_its_exact_distance() {
    let tt = Arc::new(TranspositionTable::new(16));
    let mut search = ThreadPool::new(tt.clone(), HceEvaluator::default);
    for &(fen, moves) in MATES {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        tt.clear();
        search.clear();
        let limits = Limits {
            mate: Some(moves as u32),
            depth: Some(2 * moves + 12),
            ..Limits::default()
        };
        let mut last_pv = Vec::new();
        let result = search.search(&pos, &[], &limits, &SearchOptions::default(), &mut |info| {
            last_pv = info.pv.clone();
        });
        let expected = mate_in(2 * moves as usize - 1);
        assert_eq!(
            UciScore::from_score(result.score),
            UciScore::Mate(moves),
            "{fen}: score {}",
            result.score
        );
        assert_eq!(result.score, expected);
        // The principal variation is legal and ends in checkmate after 2n - 1 plies.
        let mut line = pos.clone();
        assert_eq!(Some(last_pv[0]), result.best_move, "{fen}");
        for (i, &mv) in last_pv.iter().enumerate() {
            assert!(line.is_legal(mv), "{fen}: PV move {i} {mv} illegal");
            line.make_move(mv);
        }
        assert_eq!(
            last_pv.len(),
            2 * moves as usize - 1,
            "{fen}: PV {last_pv:?}"
        );
        assert!(
            line.is_check() && !line.has_legal_moves(),
            "{fen}: PV doesn't end in mate"
        );
    }
}
