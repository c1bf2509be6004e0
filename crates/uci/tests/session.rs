//! A UCI session driven like a GUI drives it.

mod common;

use chess::{CastlingMode, Position};
use common::Engine;
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

fn legal_in(fen: &str, mode: CastlingMode, mv: &str) -> bool {
    Position::from_fen_with(fen, mode)
        .unwrap()
        .parse_uci_move(mv)
        .is_ok()
}

#[test]
fn handshake_and_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 5 * SECOND);
    assert!(lines[0].starts_with("id name cb2026"));
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "UCI_Chess960",
        "Clear Hash",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option} missing: {lines:?}"
        );
    }
    e.send("setoption name Hash value 32");
    e.send("setoption name Move Overhead value 30");
    e.send("setoption name Clear Hash");
    e.send("setoption name killers value false");
    e.send("ucinewgame");
    e.is_ready();
    // None of those produced an error.
    e.send("isready");
    let lines = e.until("readyok", 5 * SECOND);
    assert_eq!(lines, vec!["readyok"]);
}

#[test]
fn go_depth_and_multipv() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    let lines = e.until("bestmove", 30 * SECOND);
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} ")))
        );
    }
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 5"))
        .unwrap();
    for field in [
        "seldepth", "score cp", "nodes", "nps", "hashfull", "tbhits", "time", " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    let best = Engine::best_move(&lines);
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(legal_in(after_e4, CastlingMode::Standard, &best));
    assert!(lines.last().unwrap().contains(" ponder "));
}

#[test]
fn go_movetime_returns_in_time() {
    let mut e = Engine::start();
    e.is_ready();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go movetime 300");
    e.until("bestmove", 5 * SECOND);
    let took = start.elapsed();
    // A fixed time is used whole (less the 10 ms Move Overhead): no answer before 290 ms, which
    // no machine's load can make faster. The upper bound only catches a search that ignores its
    // time: 2 s is six times the limit, and a loaded two-core machine delays a runnable process
    // by tens of milliseconds, not by seconds.
    assert!(
        took >= Duration::from_millis(290) && took < 2 * SECOND,
        "{took:?}"
    );
}

#[test]
fn go_infinite_answers_isready_and_stops() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok", SECOND);
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // A second go while searching waits for the first, without an error.
    e.send("go depth 3");
    // Infinite never ends by itself.
    let meanwhile = e.drain(Duration::from_millis(500));
    assert!(
        meanwhile
            .iter()
            .all(|l| !l.starts_with("bestmove") && !l.contains("error")),
        "{meanwhile:?}"
    );
    // `stop` ends it (the 5 s only bound a hang, with room for a loaded machine).
    e.send("stop");
    let lines = e.until("bestmove", 5 * SECOND);
    assert!(legal_in(
        chess::STARTPOS,
        CastlingMode::Standard,
        &Engine::best_move(&lines)
    ));
    // Then the `go` that waited: answered at once, since `stop` came after it.
    let lines = e.until("bestmove", 5 * SECOND);
    assert!(legal_in(
        chess::STARTPOS,
        CastlingMode::Standard,
        &Engine::best_move(&lines)
    ));
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    // Pondering has no time limit: no bestmove however long it takes.
    let early = e.drain(Duration::from_millis(800));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    // After ponderhit the clock (2 s, no increment) governs, and the search ends by itself: its
    // hard limit is three quarters of the clock, 1.5 s from ponderhit. 5 s is that with room
    // for a loaded machine; a search still pondering would never answer.
    let lines = e.until("bestmove", 5 * SECOND);
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert!(legal_in(
        fen,
        CastlingMode::Standard,
        &Engine::best_move(&lines)
    ));
}

#[test]
fn position_with_castling_en_passant_and_promotion() {
    let mut e = Engine::start();
    e.send(
        "position fen r3k2r/P7/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1 moves e5d6 e8c8 e1g1 h8h2 a7a8q",
    );
    e.send("d");
    let lines = e.until("Checkers", 5 * SECOND);
    assert!(
        lines.contains(&"Fen: Q1kr4/8/3P4/8/8/8/7r/R4RK1 b - - 0 3".to_string()),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().contains("a8"));
    e.send("go depth 4");
    let lines = e.until("bestmove", 10 * SECOND);
    assert_eq!(Engine::best_move(&lines), "c8d7", "the only legal move");
}

#[test]
fn chess960_castling_in_and_out() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // King on b1 with rooks on a1 and h1 (Shredder-FEN rights): castle on both sides.
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAgb - 0 1";
    e.send(&format!("position fen {fen} moves b1h1"));
    e.send("d");
    let lines = e.until("Checkers", 5 * SECOND);
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"),
        "{lines:?}"
    );
    // The engine writes castling as king takes rook: ask it to search only the castling move.
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3 searchmoves b1a1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert_eq!(Engine::best_move(&lines), "b1a1");
    // Back to standard chess: e1g1 notation.
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    e.send("go depth 3 searchmoves e1g1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert_eq!(Engine::best_move(&lines), "e1g1");
}

#[test]
fn no_legal_move_gives_bestmove_0000_and_eof_ends_cleanly() {
    let mut e = Engine::start();
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 5");
    let lines = e.until("bestmove", 5 * SECOND);
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    // Closing stdin (EOF) ends the search, which waits for `stop` even here, and the engine,
    // without `quit`. Stopping takes no time: 10 s is room for a loaded machine.
    e.send("go infinite");
    e.is_ready();
    e.close_input();
    let lines = e.until("bestmove", 10 * SECOND);
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(
        e.wait_exit(10 * SECOND),
        "the engine did not exit at the end of its input"
    );
}

#[test]
fn bench_in_uci_matches_the_command_line() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .args(["bench", "4"])
        .output()
        .expect("run bench");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let cli = stdout
        .lines()
        .last()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let mut e = Engine::start();
    e.send("bench 4");
    let lines = e.until("", 60 * SECOND);
    let mut last = lines.last().unwrap().clone();
    while !last.ends_with(" nps") {
        last = e.line(60 * SECOND).expect("bench output");
    }
    assert_eq!(last.split_whitespace().next().unwrap(), cli);
    assert!(last.ends_with(" nps") && last.contains(" nodes "));
}

#[test]
fn show_wdl_adds_chances_that_add_up() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 5");
    let plain = e.until("bestmove", 10 * SECOND);
    assert!(plain.iter().all(|l| !l.contains(" wdl ")));
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 5");
    let lines = e.until("bestmove", 10 * SECOND);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for line in infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "wdl").expect("a wdl field");
        // After the score, as UCI has it.
        assert!(
            words
                .iter()
                .position(|&w| w == "score")
                .is_some_and(|s| s < at)
        );
        let chances: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    }
}

/// `debug on` makes a timed `go` say the limits the time manager draws from the clock (chapter
/// 11's formula), and a bad `debug` argument is refused without changing the mode.
#[test]
fn debug_shows_the_time_limits() {
    let mut e = Engine::start();
    // Off by default: no time line.
    e.send("go wtime 10000 btime 10000 winc 100 binc 100 depth 1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string time")),
        "{lines:?}"
    );
    e.send("debug on");
    // 10 s + 0.1 s, 20 moves assumed, Move Overhead 10 ms: (10,000 + 19 x 100 - 20 x 10) / 20.
    e.send("go wtime 10000 btime 10000 winc 100 binc 100 depth 1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(
        lines.contains(&"info string time: soft 585 ms, hard 1755 ms".to_string()),
        "{lines:?}"
    );
    // The last move before a time control: three quarters of what is left, at most.
    e.send("position startpos moves e2e4");
    e.send("go wtime 3000 btime 2010 movestogo 1 depth 1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(
        lines.contains(&"info string time: soft 1500 ms, hard 1500 ms".to_string()),
        "{lines:?}"
    );
    e.send("go movetime 200");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(
        lines.contains(&"info string time: fixed 190 ms".to_string()),
        "{lines:?}"
    );
    e.send("debug sometimes");
    e.send("go depth 1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: debug")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"info string time: no clock, no time limit".to_string()),
        "still on: {lines:?}"
    );
    e.send("debug off");
    e.send("go depth 1");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string time")),
        "{lines:?}"
    );
}
