//! One test per defect a fuzzer found in cb2026's UCI handling, each with the input that showed
//! it (issue 28).

mod common;

use common::Engine;
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn perft_with_a_fen_leaves_the_game_alone_and_reads_it_by_the_games_rules() {
    let mut e = Engine::start();
    // Chess960 castling rights in a standard game: refused as `position fen` refuses them.
    e.send("perft 1 r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1");
    let reply = e.until("info string error", 5 * SECOND);
    assert!(reply[0].contains("castling"), "{reply:?}");
    assert_eq!(e.fen(), chess::STARTPOS);
    e.send("go depth 2 searchmoves f1c1");
    let reply = e.until("info string error", 5 * SECOND);
    assert!(reply[0].contains("f1c1"), "{reply:?}");
    // A FEN it can read is counted, and the game's position stays.
    e.send("position startpos moves e2e4");
    let before = e.fen();
    e.send("perft 2 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let lines = e.until("Nodes searched", 5 * SECOND);
    assert!(lines.iter().any(|l| l == "e1g1: 3"), "{lines:?}");
    assert_eq!(e.fen(), before);
}

#[test]
fn the_move_counters_do_not_wrap() {
    let mut e = Engine::start();
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w - - 65535 1 moves h1h2");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/7R/4K3 b - - 65536 1");
    let mut line = String::from("position fen 4k3/8/8/8/8/8/8/4K2R w - - 0 30000 moves");
    for _ in 0..1400 {
        line.push_str(" h1h2 e8d8 h2h1 d8e8");
    }
    e.send(&line);
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/4K2R w - - 5600 32800");
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w - - 65536 1");
    let reply = e.until("info string error", 5 * SECOND);
    assert!(reply[0].contains("halfmove clock"), "{reply:?}");
}

#[test]
fn perft_and_bench_run_like_a_search() {
    let mut e = Engine::start();
    for command in ["go perft 7", "perft 7", "bench"] {
        e.send(command);
        let asked = Instant::now();
        e.is_ready();
        assert!(
            asked.elapsed() < SECOND,
            "{command}: isready took {:?}",
            asked.elapsed()
        );
        e.send("stop");
        let end = if command == "bench" {
            "info string bench stopped"
        } else {
            "info string perft stopped"
        };
        e.until(end, 5 * SECOND);
        e.is_ready();
    }
    // `go perft 20` would never end; `quit` ends it and the engine.
    e.send("go perft 20");
    e.is_ready();
    e.send("quit");
    assert!(e.wait_exit(5 * SECOND), "quit did not end go perft 20");
}

#[test]
fn a_large_hash_table_is_ready_at_once() {
    let mut e = Engine::start();
    for command in [
        "setoption name Hash value 4096",
        "ucinewgame",
        "setoption name Clear Hash",
    ] {
        e.send(command);
        let asked = Instant::now();
        e.is_ready();
        // 13 s before; the GUIs' start-up timeout is about 10 s.
        assert!(
            asked.elapsed() < 3 * SECOND,
            "{command}: {:?}",
            asked.elapsed()
        );
    }
    e.send("position startpos");
    e.send("go depth 6");
    e.until("bestmove", 20 * SECOND);
}

#[test]
fn error_messages_cut_a_huge_token() {
    let mut e = Engine::start();
    let token = "x".repeat(1 << 20);
    for command in [
        "go",
        "position startpos moves",
        "setoption name Hash value",
        "set killers",
        "",
    ] {
        e.send(&format!("{command} {token}"));
        let reply = e.until("info string error", 5 * SECOND);
        assert!(
            reply[0].len() < 200,
            "{command}: {} characters",
            reply[0].len()
        );
        assert!(
            reply[0].contains(&"x".repeat(39)),
            "{command}: {}",
            reply[0]
        );
    }
}

#[test]
fn impossible_positions_and_empty_limits_are_refused_and_names_read_in_any_case() {
    let mut e = Engine::start();
    for line in [
        "position fen 4k3/8/8/8/8/8/4r3/rrrrKrrr w - - 0 1",
        "position fen 4k3/8/44/8/8/8/8/4K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/PPPPPPPP/PPPPPPPP/NK6 w - - 0 1",
        "go depth 0",
        "go depth -5",
        "go nodes 0",
        "go mate 0",
        "go perft 3 junk",
    ] {
        e.send(line);
        let reply = e.until("info string error", 5 * SECOND);
        assert_eq!(reply.len(), 1, "{line}: {reply:?}");
    }
    e.send("set Killers off");
    e.until("info string killers = off", 5 * SECOND);
    e.send("setoption name KILLERS value true");
    e.is_ready();
}

#[test]
fn a_gui_sees_the_players_options_and_tools_see_every_technique() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 5 * SECOND);
    let options = lines.iter().filter(|l| l.starts_with("option ")).count();
    // The options a player sets (a dozen or so), not the 29 technique check boxes.
    assert!(options <= 16, "{options} options: {lines:?}");
    assert!(!lines.iter().any(|l| l.contains("name killers ")));

    let mut tool = Engine::start_with(&["--technique-options"]);
    tool.send("uci");
    let lines = tool.until("uciok", 5 * SECOND);
    assert!(lines.iter().any(|l| l.contains("name killers type check")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("name null_move type check"))
    );
}
