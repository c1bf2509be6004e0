//! Lazy SMP through the protocol: `Threads` starts and ends helper threads, several threads give
//! legal moves and lines, node limits count every thread, and a thousand searches started,
//! stopped and resized at random moments each end with exactly one `bestmove`, which begins the
//! last principal variation sent.

mod common;

use chess::Position;
use common::{Engine, Rng, assert_bestmove_begins_last_pv};
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/4p3/8/8/8/4QPPP/4R1K1 w - - 0 1",
];

/// Whether `moves` (UCI notation) can be played one after the other from `fen`.
fn playable(fen: &str, moves: &[&str]) -> bool {
    let mut pos = Position::from_fen(fen).unwrap();
    for text in moves {
        match pos.parse_uci_move(text) {
            Ok(mv) => pos.make_move(mv),
            Err(_) => return false,
        }
    }
    true
}

/// Checks every `info ... pv` line and the `bestmove` of one search; the largest node count.
fn check_search(fen: &str, lines: &[String]) -> u64 {
    let mut most_nodes = 0;
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let pv_at = words.iter().position(|&w| w == "pv").expect("a pv");
        assert!(playable(fen, &words[pv_at + 1..]), "{fen}: {line}");
        let nodes_at = words.iter().position(|&w| w == "nodes").expect("nodes");
        most_nodes = most_nodes.max(words[nodes_at + 1].parse().expect("a count"));
    }
    let best = Engine::best_move(lines);
    assert!(playable(fen, &[&best]), "{fen}: bestmove {best}");
    most_nodes
}

#[test]
fn two_and_four_threads_give_legal_moves_and_lines() {
    let mut e = Engine::start();
    for threads in [2, 4] {
        e.send(&format!("setoption name Threads value {threads}"));
        for fen in FENS {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            e.send("go depth 10");
            check_search(fen, &e.until("bestmove", 60 * SECOND));
            e.send("go movetime 150");
            check_search(fen, &e.until("bestmove", 10 * SECOND));
            // A node limit counts every thread's nodes: each adds its count in steps of 1024.
            e.send("go nodes 30000");
            let nodes = check_search(fen, &e.until("bestmove", 30 * SECOND));
            assert!(nodes <= 30_000 + threads * 2048, "{fen}: {nodes} nodes");
        }
    }
}

/// The node count of a `bench` at depth 6: its last line is `N nodes M nps`.
fn bench_nodes(e: &mut Engine) -> String {
    e.send("bench 6");
    loop {
        let line = e.line(60 * SECOND).expect("bench's lines");
        if line.ends_with(" nps") && !line.starts_with("position") {
            return line
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
        }
    }
}

/// `bench` runs on one thread whatever `Threads` says, so that its node count stays the search's
/// fingerprint: the same count with `Threads 4` (a bench on four threads would count differently
/// from run to run).
#[test]
fn bench_runs_on_one_thread_whatever_threads_says() {
    let mut e = Engine::start();
    let one = bench_nodes(&mut e);
    e.send("setoption name Threads value 4");
    assert_eq!(bench_nodes(&mut e), one);
}

/// The engine's threads, as the kernel counts them (Linux), once `expected` is reached or after
/// a few seconds of waiting for it: a helper that is told to go ends on its own thread.
fn threads_of(e: &Engine, expected: usize) -> Option<usize> {
    let count = || {
        std::fs::read_dir(format!("/proc/{}/task", e.pid()))
            .ok()
            .map(|tasks| tasks.count())
    };
    let deadline = std::time::Instant::now() + 10 * SECOND;
    loop {
        let now = count()?;
        if now == expected || std::time::Instant::now() > deadline {
            return Some(now);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// `Threads` starts the helpers it asks for and ends those it no longer wants: the main thread
/// and the input thread, then the search thread at the first search, then one helper for each
/// thread past the first.
#[test]
fn threads_start_and_end_helper_threads() {
    let mut e = Engine::start();
    e.is_ready();
    if threads_of(&e, 2).is_none() {
        eprintln!("SKIPPED: no /proc/PID/task here to count threads");
        return;
    }
    assert_eq!(threads_of(&e, 2), Some(2), "main and input");
    e.send("go depth 1");
    e.until("bestmove", 10 * SECOND);
    e.is_ready();
    assert_eq!(threads_of(&e, 3), Some(3), "and the search thread");
    for (threads, helpers) in [(4, 3), (2, 1), (7, 6), (1, 0)] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.is_ready();
        assert_eq!(
            threads_of(&e, 3 + helpers),
            Some(3 + helpers),
            "Threads {threads}"
        );
        e.send("go depth 4");
        check_search(chess::STARTPOS, &e.until("bestmove", 30 * SECOND));
    }
}

#[test]
fn a_thousand_random_searches_each_end_with_one_bestmove() {
    let mut e = Engine::start();
    let mut rng = Rng(0x5eed_1234);
    for cycle in 0..1000 {
        let threads = 1 + rng.below(4);
        e.send(&format!("setoption name Threads value {threads}"));
        if rng.below(20) == 0 {
            e.send(&format!("setoption name Hash value {}", 1 + rng.below(32)));
        }
        if rng.below(10) == 0 {
            e.send("ucinewgame");
        }
        let fen = FENS[rng.below(FENS.len())];
        e.send(&format!("position fen {fen}"));
        e.send(match rng.below(4) {
            0 => "go infinite",
            1 => "go depth 5",
            2 => "go movetime 3",
            _ => "go wtime 200 btime 200",
        });
        std::thread::sleep(Duration::from_micros(rng.below(4000) as u64));
        e.send("stop");
        e.send("isready");
        let lines = e.until("readyok", 10 * SECOND);
        let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, 1, "cycle {cycle}: {lines:?}");
        let search: Vec<String> = lines
            .iter()
            .take_while(|l| !l.starts_with("readyok"))
            .cloned()
            .collect();
        assert_bestmove_begins_last_pv(&search, &format!("cycle {cycle}, {threads} threads"));
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "cycle {cycle}: {lines:?}"
        );
    }
    e.send("quit");
    assert!(e.wait_exit(5 * SECOND));
}
