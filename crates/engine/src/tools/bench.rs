//! `bench`: a fixed set of positions searched to a fixed depth. Its node count is a fingerprint
//! of the search: any change in what the search does changes it, so commit messages carry it.

use crate::clock::Instant;
use crate::counters::Counters;
use crate::eval::nnue::{Network, embedded};
use crate::params::Params;
use crate::search::SearchOptions;
use crate::techniques::Techniques;
use crate::threads::{Signals, ThreadPool};
use crate::time::Limits;
use crate::tt::TranspositionTable;
use chess::{CastlingMode, Position};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The depth `bench` searches to when none is given.
pub const DEFAULT_BENCH_DEPTH: i32 = 13;

/// The hash size bench uses, whatever the `Hash` option says, so the count never depends on it.
pub const BENCH_HASH_MIB: usize = 16;

// ANCHOR: six_positions
/// The six positions of the Chess Programming Wiki's perft page, which the book's tables use:
/// the start position, "Kiwipete", a rook-and-pawns ending, a promotion-rich middlegame (and a
/// mirror-image test in the original), a tricky middlegame, and a quiet one.
pub const SIX_POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];
// ANCHOR_END: six_positions

/// The bench set: the six positions, then openings, middlegames and endgames of every kind, and
/// a few Chess960 positions (the `bool`).
pub const BENCH_POSITIONS: &[(&str, bool)] = &[
    (SIX_POSITIONS[0], false),
    (SIX_POSITIONS[1], false),
    (SIX_POSITIONS[2], false),
    (SIX_POSITIONS[3], false),
    (SIX_POSITIONS[4], false),
    (SIX_POSITIONS[5], false),
    // Openings.
    (
        "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
        false,
    ),
    (
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        false,
    ),
    (
        "rnbqkb1r/ppp1pp1p/5np1/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
        false,
    ),
    (
        "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 1 5",
        false,
    ),
    (
        "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1 b kq - 1 7",
        false,
    ),
    (
        "rnbqkbnr/pp2pppp/3p4/8/3NP3/8/PPP2PPP/RNBQKB1R b KQkq - 0 4",
        false,
    ),
    (
        "rn1qkbnr/pp2pppp/2p5/5b2/3PN3/8/PPP2PPP/R1BQKBNR w KQkq - 1 5",
        false,
    ),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        false,
    ),
    // Middlegames.
    (
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        false,
    ),
    (
        "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PPQ2PPP/R3KB1R w KQ - 4 8",
        false,
    ),
    (
        "r1b2rk1/pp1nqppp/2pbpn2/3p4/2PP4/2NBPN2/PPQ2PPP/R1B2RK1 w - - 4 9",
        false,
    ),
    (
        "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 2 11",
        false,
    ),
    (
        "r3r1k1/pp1q1ppp/2nbbn2/3p4/3P4/2NBBN2/PPQ2PPP/R3R1K1 w - - 8 14",
        false,
    ),
    (
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
        false,
    ),
    (
        "3r2k1/1p3ppp/2pq4/p1n5/P6P/1P6/1PB2QP1/1K2R3 w - - 0 1",
        false,
    ),
    (
        "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
        false,
    ),
    ("6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1", false),
    (
        "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
        false,
    ),
    ("2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1", false),
    ("8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1", false),
    ("7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1", false),
    (
        "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NPP2/1BN1B3/PPP3PP/R2Q1RK1 w - - 2 11",
        false,
    ),
    (
        "r4rk1/1b2qppp/p1n1p3/1p6/3P4/P1NB1N2/1P3PPP/R2Q1RK1 w - - 0 16",
        false,
    ),
    (
        "2r3k1/pp3pp1/4p2p/3r4/3P4/P3RN2/1P3PPP/2R3K1 w - - 0 25",
        false,
    ),
    (
        "1r4k1/5ppp/p1p1p3/2Pp4/1P1P4/P3P3/5PPP/2R3K1 w - - 0 27",
        false,
    ),
    // Tactics and attacks.
    (
        "r1b1k2r/ppp2ppp/2n5/3q4/1b1P4/2N2N2/PP3PPP/R2QKB1R w KQkq - 0 9",
        false,
    ),
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        false,
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        false,
    ),
    (
        "r1bqr1k1/ppp2ppp/2n2n2/3p4/1bPP4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 8",
        false,
    ),
    (
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        false,
    ),
    (
        "r3k2r/pb1p1ppp/1p2pn2/q1b5/2P5/P1NQPN2/1P3PPP/R1B1KB1R w KQkq - 1 11",
        false,
    ),
    // Endgames.
    ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false),
    ("8/8/4k3/8/8/8/4PK2/8 w - - 0 1", false),
    ("1k6/1P6/2K5/8/8/8/5r2/4R3 w - - 0 1", false),
    ("3k4/3P4/3K4/8/8/8/r7/5R2 b - - 0 1", false),
    ("8/8/1p6/p1p5/P1P5/1P2k3/8/4K3 w - - 0 1", false),
    ("8/5pk1/6p1/8/4PP2/6K1/8/8 w - - 0 1", false),
    ("6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1", false),
    ("8/8/8/8/3k4/8/3KB3/3N4 w - - 0 1", false),
    ("8/3k4/8/8/8/4B3/4KB2/8 w - - 0 1", false),
    ("5k2/8/8/8/8/8/3Q4/4K3 w - - 0 1", false),
    ("8/8/2k5/8/2P5/2K5/8/4b3 w - - 0 1", false),
    ("8/5k2/8/3RK3/8/8/2r5/8 w - - 0 1", false),
    // Chess960.
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    (
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        true,
    ),
    (
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        true,
    ),
    (
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        true,
    ),
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub fen: &'static str,
    pub nodes: u64,
    pub time: Duration,
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub time: Duration,
    pub counters: Counters,
    /// Stopped by the signal before every position was searched (see [`run_with_signals`]).
    pub stopped: bool,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

// ANCHOR: bench_run
/// Searches each position to `depth` on one thread, each from a cleared hash table and cleared
/// histories, so every run of the same binary counts the same nodes.
pub fn run(
    positions: &[(&'static str, bool)],
    depth: i32,
    techniques: &Techniques,
    params: &Params,
) -> BenchReport {
    run_with_signals(
        positions,
        depth,
        techniques,
        params,
        embedded(),
        Arc::new(Signals::default()),
    )
}

/// [`run`], ending early when `signals.stop` is set (the UCI `stop` and `quit`): the position
/// being searched is cut short and left out, and the report says it stopped.
pub fn run_with_signals(
    positions: &[(&'static str, bool)],
    depth: i32,
    techniques: &Techniques,
    params: &Params,
    net: Arc<Network>,
    signals: Arc<Signals>,
) -> BenchReport {
    let tt = Arc::new(TranspositionTable::new(BENCH_HASH_MIB));
    let mut pool = ThreadPool::with_network(tt.clone(), net).with_signals(signals.clone());
    pool.set_switches(techniques, params);
    let mut stopped = false;
    let mut lines = Vec::new();
    let mut counters = Counters::default();
    for &(fen, chess960) in positions {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let Ok(pos) = Position::from_fen_with(fen, mode) else {
            continue;
        };
        tt.clear();
        pool.clear();
        let t = Instant::now();
        let result = pool.search(
            &pos,
            &[],
            &Limits::depth(depth),
            &SearchOptions::default(),
            &mut |_| {},
        );
        // A stop set at any time ends the search at once, and this position is left out.
        if signals.stop.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        counters.merge(pool.counters());
        lines.push(BenchLine {
            fen,
            nodes: result.nodes,
            time: t.elapsed(),
        });
    }
    BenchReport {
        nodes: lines.iter().map(|l| l.nodes).sum(),
        // The searches' own time: clearing the hash table between positions isn't search.
        time: lines.iter().map(|l| l.time).sum(),
        lines,
        counters,
        stopped,
    }
}
// ANCHOR_END: bench_run

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_legal() {
        for &(fen, chess960) in BENCH_POSITIONS {
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let pos = Position::from_fen_with(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_moves(), "{fen}");
        }
        assert!(BENCH_POSITIONS.len() >= 50);
    }

    #[test]
    fn bench_is_deterministic() {
        let positions = &BENCH_POSITIONS[..8];
        let a = run(positions, 5, &Techniques::default(), &Params::default());
        let b = run(positions, 5, &Techniques::default(), &Params::default());
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
    }
}
