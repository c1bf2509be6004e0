//! Every `go` ends with exactly one `bestmove`, and that move begins the last principal variation
//! sent: a GUI or match runner that waits for a `bestmove` never waits forever, and the line it
//! shows leads to the move played (issue 50).

mod common;

use chess::{CastlingMode, Position};
use common::{Engine, Rng, assert_bestmove_begins_last_pv};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
/// Black is mated: no legal move.
const MATED: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

fn legal_in(fen: &str, mv: &str) -> bool {
    Position::from_fen_with(fen, CastlingMode::Standard)
        .expect("a FEN")
        .parse_uci_move(mv)
        .is_ok()
}

/// The moves of the `bestmove` lines among `lines`.
fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .map(|l| Engine::best_move(std::slice::from_ref(l)))
        .collect()
}

/// All lines up to and including the `n`th `bestmove`.
fn until_bestmoves(e: &mut Engine, n: usize, timeout: Duration) -> Vec<String> {
    let mut lines = Vec::new();
    for _ in 0..n {
        lines.extend(e.until("bestmove", timeout));
    }
    lines
}

#[test]
fn a_go_sent_during_a_search_waits_for_it_and_is_answered_in_its_position() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go movetime 300");
    // Both sent while the first search runs: each waits for the one before it, and the
    // position between them applies to the third only.
    e.send("go depth 2");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = until_bestmoves(&mut e, 3, 20 * SECOND);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let moves = bestmoves(&lines);
    assert!(legal_in(chess::STARTPOS, &moves[0]), "{lines:?}");
    assert!(legal_in(chess::STARTPOS, &moves[1]), "{lines:?}");
    assert!(legal_in(AFTER_E4, &moves[2]), "{lines:?}");
    e.is_ready();
    assert!(e.drain(SECOND / 5).is_empty(), "nothing more");

    // Behind `go infinite`: `stop` ends it, and the `go` waiting is answered at once, not
    // searched to its depth (the GUI asked the engine to stop).
    e.send("position startpos");
    e.send("go infinite");
    e.send("go depth 60");
    e.send("isready");
    let before = e.until("readyok", 5 * SECOND);
    assert!(bestmoves(&before).is_empty(), "{before:?}");
    e.send("stop");
    let lines = until_bestmoves(&mut e, 2, 10 * SECOND);
    assert!(
        bestmoves(&lines)
            .iter()
            .all(|m| legal_in(chess::STARTPOS, m)),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("info depth 60")));
}

#[test]
fn a_go_that_cannot_be_read_whole_reports_the_rest_and_searches() {
    let mut e = Engine::start();
    e.send("position startpos");
    for (go, depth) in [
        ("go depth x depth 3", "3"),
        ("go depth 2 fast", "2"),
        ("go wtime depth 2", "2"),
        ("go searchmoves e7e5 d2d4 depth 2", "2"),
    ] {
        e.send(go);
        let lines = e.until("bestmove", 20 * SECOND);
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error: go:"));
        assert_eq!(errors.count(), 1, "{go}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info depth {depth} "))),
            "{go}: {lines:?}"
        );
        assert!(
            !lines.iter().any(
                |l| l.starts_with(&format!("info depth {}", depth.parse::<i32>().unwrap() + 1))
            ),
            "{go}: the limit read holds: {lines:?}"
        );
        assert!(legal_in(chess::STARTPOS, &Engine::best_move(&lines)));
    }
    // Only the move it could read is searched.
    e.send("go searchmoves e7e5 d2d4 depth 2");
    assert_eq!(Engine::best_move(&e.until("bestmove", 20 * SECOND)), "d2d4");
    // Nothing left to limit it: it searches until `stop`.
    e.send("go nodes 0");
    e.until("info string error", 5 * SECOND);
    assert!(bestmoves(&e.drain(SECOND / 2)).is_empty());
    e.send("stop");
    e.until("bestmove", 5 * SECOND);
    // `go perft` with a depth it can't count is an error, and no search.
    e.send("go perft 99");
    e.until("info string error: go perft", 5 * SECOND);
    e.is_ready();
    assert!(e.drain(SECOND / 5).is_empty());
}

#[test]
fn no_legal_move_waits_for_stop_or_ponderhit_in_an_endless_search() {
    let mut e = Engine::start();
    e.send(&format!("position fen {MATED}"));
    e.send("go depth 5");
    assert_eq!(
        e.until("bestmove", 5 * SECOND).last().unwrap(),
        "bestmove 0000"
    );
    for (go, end) in [
        ("go infinite", "stop"),
        ("go ponder wtime 1000 btime 1000", "ponderhit"),
    ] {
        e.send(go);
        e.is_ready();
        assert!(bestmoves(&e.drain(SECOND / 2)).is_empty(), "{go}");
        e.send(end);
        assert_eq!(
            e.until("bestmove", 5 * SECOND).last().unwrap(),
            "bestmove 0000",
            "{go}"
        );
    }
}

/// Runs cb2026 with `args`, writes `input` and closes it, and waits up to `timeout` for the
/// process to end by itself: its exit status (`None` if it did not end) and its output.
fn run_to_the_end(args: &[&str], input: &str, timeout: Duration) -> (Option<i32>, String) {
    let mut child = common::spawn(args);
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    {
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write");
    }
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break Some(status.code().unwrap_or(-1));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status, reader.join().expect("the output"))
}

/// End of input stops a search that would not end by itself: `stop` needs no time, so 20 s is
/// only room for a loaded machine to start the process and read its lines.
const ENDS_WITHIN: Duration = Duration::from_secs(20);

#[test]
fn end_of_input_ends_every_search_that_would_not_end_by_itself() {
    for go in [
        "go",
        "go movestogo 20",
        "go winc 100 binc 100",
        "go mate 30",
        // Black's clock, with White to move: no limit for White.
        "go btime 1000",
        "go infinite",
        "go ponder wtime 1000 btime 1000",
        "go depth 0",
    ] {
        let (status, out) = run_to_the_end(&[], &format!("position startpos\n{go}\n"), ENDS_WITHIN);
        assert_eq!(status, Some(0), "{go}: {out}");
        let lines: Vec<String> = out.lines().map(String::from).collect();
        let moves = bestmoves(&lines);
        assert_eq!(moves.len(), 1, "{go}: {out}");
        assert!(legal_in(chess::STARTPOS, &moves[0]), "{go}: {out}");
    }
    // A search with a limit is waited for, to its end.
    let (status, out) = run_to_the_end(&[], "go depth 7\n", 10 * ENDS_WITHIN);
    assert_eq!(status, Some(0), "{out}");
    assert!(out.lines().any(|l| l.starts_with("info depth 7 ")), "{out}");
    assert_eq!(
        bestmoves(&out.lines().map(String::from).collect::<Vec<_>>()).len(),
        1
    );
}

#[test]
fn a_go_on_the_command_line_needs_a_limit() {
    for go in [&["go"][..], &["go", "infinite"], &["go", "mate", "3"]] {
        let (status, out) = run_to_the_end(go, "", ENDS_WITHIN);
        assert_eq!(status, Some(1), "{go:?}: {out}");
        assert!(out.starts_with("info string error: go:"), "{go:?}: {out}");
        assert!(!out.contains("bestmove"), "{go:?}: {out}");
    }
    let (status, out) = run_to_the_end(&["go", "depth", "3"], "", ENDS_WITHIN);
    assert_eq!(status, Some(0), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove ")),
        "{out}"
    );
}

const FENS: &[&str] = &[
    chess::STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Short searches, stopped at random moments, on one to three threads, with one or three lines,
/// at full and at a limited strength: every `bestmove` begins the last principal variation
/// sent for the best line (before this was checked, 34 of 200 such searches did not: a stopped
/// iteration's new best move, the threads' vote, a move drawn among the lines).
#[test]
fn bestmove_begins_the_last_principal_variation() {
    let mut e = Engine::start();
    let mut rng = Rng(0x0b35_7e00);
    for search in 0..300 {
        e.send(&format!(
            "setoption name Threads value {}",
            1 + rng.below(3)
        ));
        e.send(&format!(
            "setoption name MultiPV value {}",
            [1, 1, 3][rng.below(3)]
        ));
        e.send(&format!(
            "setoption name UCI_LimitStrength value {}",
            rng.below(3) == 0
        ));
        let fen = FENS[rng.below(FENS.len())];
        e.send(&format!("position fen {fen}"));
        let go = [
            "go infinite",
            "go movetime 30",
            "go nodes 20000",
            "go wtime 300 btime 300",
        ][rng.below(4)];
        e.send(go);
        std::thread::sleep(Duration::from_micros(rng.below(50_000) as u64));
        e.send("stop");
        let lines = e.until("bestmove", 10 * SECOND);
        assert_bestmove_begins_last_pv(&lines, &format!("search {search}, {go}, {fen}"));
        assert!(legal_in(fen, &Engine::best_move(&lines)), "{lines:?}");
        e.is_ready();
    }
}
