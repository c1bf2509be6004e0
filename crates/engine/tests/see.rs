//! Static exchange evaluation against values worked out by hand (pawn 100, knight and bishop
//! 300, rook 500, queen 900), and `see_ge` against `see` on every move of the bench positions.

use chess::{CastlingMode, Position};
use engine::see::{see, see_ge};
use engine::tools::bench::BENCH_POSITIONS;

/// (FEN, move, SEE value, what it shows).
const CASES: &[(&str, &str, i32, &str)] = &[
    (
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        "e4d5",
        100,
        "pawn takes an undefended pawn",
    ),
    (
        "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1",
        "e4d5",
        0,
        "pawn for pawn",
    ),
    (
        "4k3/8/2p5/3p4/4P3/8/8/3RK3 w - - 0 1",
        "e4d5",
        100,
        "pawn for pawn, then the rook wins one",
    ),
    (
        "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1",
        "d1d5",
        -400,
        "rook takes a pawn defended by a pawn",
    ),
    (
        "4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1",
        "e3d5",
        0,
        "knight for knight",
    ),
    (
        "4k3/8/2p5/3n4/8/8/6B1/4K3 w - - 0 1",
        "g2d5",
        0,
        "bishop for knight",
    ),
    (
        "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1",
        "d1d5",
        -800,
        "queen takes a defended pawn",
    ),
    (
        "3r1k2/8/8/3p4/8/8/3R4/3RK3 w - - 0 1",
        "d2d5",
        100,
        "doubled rooks: the x-ray wins",
    ),
    (
        "3r1k2/3r4/8/3p4/8/8/8/3RK3 w - - 0 1",
        "d1d5",
        -400,
        "one rook against doubled rooks",
    ),
    (
        "4k3/8/2p5/3p4/8/5B2/6Q1/4K3 w - - 0 1",
        "f3d5",
        -100,
        "queen behind the bishop: bishop for two pawns",
    ),
    (
        "3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1",
        "d2d5",
        100,
        "queen behind the rook",
    ),
    (
        "3rk3/3r4/8/3p4/8/8/3R4/3QK3 w - - 0 1",
        "d2d5",
        -400,
        "rook and queen against two rooks",
    ),
    (
        "3qk3/8/5n2/3p4/8/1BN5/8/3RK3 w - - 0 1",
        "c3d5",
        100,
        "four attackers, least valuable first",
    ),
    (
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "e5d6",
        100,
        "en passant",
    ),
    (
        "4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "e5d6",
        0,
        "en passant, recaptured",
    ),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 800, "promotion"),
    (
        "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "b7b8q",
        -100,
        "promotion to a defended square",
    ),
    (
        "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "b7a8q",
        1300,
        "capture and promotion",
    ),
    (
        "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "b7b8n",
        -100,
        "under-promotion to a defended square",
    ),
    (
        "1r2k3/P2n4/8/8/8/8/8/4K3 w - - 0 1",
        "a7b8q",
        400,
        "capture-promotion, queen lost for rook and pawn",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "e1g1",
        0,
        "castling exchanges nothing",
    ),
    (
        "8/8/8/3k4/4n3/3P4/8/4K3 w - - 0 1",
        "d3e4",
        200,
        "the king recaptures",
    ),
    (
        "8/8/8/3k4/4n3/3P4/8/4RK2 w - - 0 1",
        "d3e4",
        300,
        "the king may not recapture on a defended square",
    ),
    (
        "8/8/8/8/4k3/3p4/8/3RK3 w - - 0 1",
        "d1d3",
        -400,
        "defended by the king alone",
    ),
    (
        "4k3/4n3/8/3p4/2P5/8/8/K3R3 w - - 0 1",
        "c4d5",
        0,
        "a pinned defender still counts: SEE ignores pins",
    ),
    (
        "4k3/8/8/8/2p5/8/3N4/4K3 w - - 0 1",
        "d2b3",
        -300,
        "a quiet move onto an attacked square",
    ),
    (
        "4k3/8/8/8/2p5/8/3N4/4K3 w - - 0 1",
        "d2f3",
        0,
        "a quiet move onto a safe square",
    ),
    (
        "3rk3/8/8/3r4/8/8/8/3RK3 w - - 0 1",
        "d1d5",
        0,
        "rook for rook",
    ),
    (
        "4k3/8/8/3r4/8/5b2/8/3QK3 w - - 0 1",
        "d1d5",
        -400,
        "queen takes a rook defended by a bishop",
    ),
    (
        "4k3/8/2p5/3Q4/4P3/8/8/4K3 b - - 0 1",
        "c6d5",
        800,
        "pawn takes a defended queen",
    ),
    (
        "4k3/8/4n3/8/3r4/8/1B6/4K3 w - - 0 1",
        "b2d4",
        200,
        "bishop takes a rook defended by a knight",
    ),
    (
        "4k3/8/8/4b3/8/3N4/8/4K3 w - - 0 1",
        "d3e5",
        300,
        "an undefended bishop",
    ),
    (
        "4k3/8/2p5/3n4/8/4N3/6B1/4K3 w - - 0 1",
        "e3d5",
        100,
        "knight trade, then the bishop wins a pawn",
    ),
    (
        "3rk3/8/8/8/3P4/2P5/8/4K3 b - - 0 1",
        "d8d4",
        -400,
        "Black: rook takes a defended pawn",
    ),
    (
        "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1",
        "d1d5",
        900,
        "rook takes an undefended queen",
    ),
];

#[test]
fn hand_worked_exchanges() {
    assert!(CASES.len() >= 30);
    for &(fen, uci, expected, what) in CASES {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{what}: {fen}: {e}"));
        let mv = pos
            .parse_uci_move(uci)
            .unwrap_or_else(|e| panic!("{what}: {uci}: {e}"));
        assert_eq!(see(&pos, mv), expected, "{what}: {fen} {uci}");
        assert!(see_ge(&pos, mv, expected), "{what}: see_ge at the value");
        assert!(
            !see_ge(&pos, mv, expected + 1),
            "{what}: see_ge above the value"
        );
    }
}

/// The bench positions and, for more kinds of exchange, the positions of a random game of 40
/// plies from each.
fn positions() -> Vec<Position> {
    let mut seed = 0x5ee_u64;
    let mut all = Vec::new();
    for &(fen, chess960) in BENCH_POSITIONS {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let mut pos = Position::from_fen_with(fen, mode).expect("bench FEN");
        for _ in 0..40 {
            all.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make_move(moves[(seed % moves.len() as u64) as usize]);
        }
    }
    all
}

#[test]
fn see_ge_agrees_with_see_on_every_move_of_the_bench_positions() {
    let mut checked = 0;
    for pos in positions() {
        let fen = pos.to_fen();
        for &mv in pos.legal_moves().iter() {
            let value = see(&pos, mv);
            for threshold in (-1000..=1000)
                .step_by(50)
                .chain([value - 1, value, value + 1])
            {
                assert_eq!(
                    see_ge(&pos, mv, threshold),
                    value >= threshold,
                    "{fen} {mv} threshold {threshold}, see {value}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}
