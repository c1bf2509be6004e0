//! Nothing on stdin can crash the engine or corrupt its state: random bytes, mutated commands,
//! bad FENs, illegal moves, huge numbers. Each bad command gets one `info string error` line and
//! the previous state stays as it was.

mod common;

use chess::{CastlingMode, Position};
use common::{Engine, Rng, mutate};
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 e4e5",
    "go depth 2",
    "go movetime 20",
    "go wtime 200 btime 200 winc 10 binc 10",
    "go nodes 500",
    "go mate 2",
    "go depth 2 searchmoves e2e4 d2d4",
    "go perft 2",
    "stop",
    "ponderhit",
    "setoption name Hash value 8",
    "setoption name MultiPV value 2",
    "setoption name Move Overhead value 50",
    "setoption name UCI_Chess960 value true",
    "setoption name UCI_Chess960 value false",
    "setoption name killers value false",
    "setoption name aspiration_window value 30",
    "set killers on",
    "set history off",
    "set aspiration_window 20",
    "perft 2",
    "d",
    "eval",
    "stats",
    "spsa",
    "bench 1",
    "tree depth 2",
    "tree depth 1 off lmr,futility",
];

fn garbage(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(120))
        .map(|_| rng.next() as u8)
        .filter(|&b| b != b'\n')
        .collect()
}

/// Lines that are legitimate but would take the machine hostage, not the engine: huge hash
/// tables, long benches or perfts (they run on the input thread, as in other engines), quitting.
fn acceptable(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let words: Vec<&str> = text.split_whitespace().collect();
    let numbers: Vec<u64> = words.iter().filter_map(|w| w.parse::<u64>().ok()).collect();
    let small = !numbers.is_empty() && numbers.iter().all(|&n| n <= 4);
    let heavy = ["Hash", "bench", "perft", "chapter-table", "MultiPV", "tree"];
    words.first() != Some(&"quit") && (small || !words.iter().any(|w| heavy.contains(w)))
}

/// Waits for the answer to a command no noise can produce: everything sent before is done.
fn sync(e: &mut Engine, n: usize) {
    let token = format!("sync-{n}");
    e.send(&token);
    let deadline = std::time::Instant::now() + 20 * SECOND;
    while let Some(line) = e.line(deadline.saturating_duration_since(std::time::Instant::now())) {
        if line.contains(&token) {
            return;
        }
    }
    panic!("no answer to {token}");
}

#[test]
fn thousands_of_bad_lines_never_break_the_engine() {
    let mut rng = Rng(0x0bad_1dea);
    let mut e = Engine::start();
    let mut sent = 0;
    while sent < 3000 {
        let line = match rng.below(3) {
            0 => garbage(&mut rng),
            _ => {
                let command = COMMANDS[rng.below(COMMANDS.len())];
                mutate(&mut rng, command).into_bytes()
            }
        };
        if !acceptable(&line) {
            continue;
        }
        e.send_bytes(&line);
        sent += 1;
        if sent % 100 == 0 {
            // A search that the noise started may run on, with commands waiting for it: stop
            // it, and they run. The noise itself sends isready now and then, so wait for a
            // reply only we can cause.
            e.send("stop");
            sync(&mut e, sent);
            assert!(!e.has_exited(), "the engine exited after {sent} lines");
        }
    }
    // Stop whatever the noise left running; its bestmove comes before the sync reply.
    e.send("stop");
    sync(&mut e, 0);
    e.is_ready();
    e.send("setoption name UCI_Chess960 value false");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.until("bestmove", 20 * SECOND);
    let best = Engine::best_move(&lines);
    let after_e4 =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert!(after_e4.parse_uci_move(&best).is_ok(), "{best}");
}

#[test]
fn each_bad_command_gets_one_error_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let before = e.fen();
    let bad = [
        "position startpos moves e2e4 e2e4",
        "position startpos moves e7e5",
        "position startpos moves e2e4 zz",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "position",
        "position nonsense",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name MultiPV value 9999",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Chess960 value maybe",
        "setoption",
        "set killers maybe",
        "set nothing on",
        "set aspiration_window 999999",
        "go perft x",
        "perft x",
        "bench 0",
        "frobnicate",
    ];
    for line in bad {
        e.send(line);
        let reply = e.until("info string error", 5 * SECOND);
        assert_eq!(reply.len(), 1, "{line}: {reply:?}");
        assert!(
            e.drain(Duration::from_millis(20)).is_empty(),
            "{line}: more than one line"
        );
    }
    // A `go` that can't be read whole: one error, and a search with the rest (here nothing,
    // so until `stop`).
    for line in ["go depth x", "go wtime", "go searchmoves e2e4", "go fast"] {
        e.go_read_in_part(line);
    }
    assert_eq!(e.fen(), before);
    // The options kept their values: one line of MultiPV, Standard castling notation.
    e.send("go depth 3");
    let lines = e.until("bestmove", 10 * SECOND);
    assert!(lines.iter().all(|l| !l.contains("multipv 2")));
    let pos = Position::from_fen_with(&before, CastlingMode::Standard).unwrap();
    assert!(pos.parse_uci_move(&Engine::best_move(&lines)).is_ok());
}

/// The `eval` line with the network's score.
fn network_score(e: &mut Engine) -> String {
    e.send("eval");
    let lines = e.until("network score", 5 * SECOND);
    lines.last().cloned().unwrap_or_default()
}

#[test]
fn a_bad_net_file_gets_an_error_and_the_network_stays() {
    use engine::eval::nnue::inputs::Layout;
    use engine::eval::nnue::network::{QA, QB};
    use engine::eval::nnue::{Activation, EMBEDDED_NET, Network};
    let dir = std::env::temp_dir().join(format!("cb2026-nets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A valid network that differs from the embedded one: every piece a little positive (the
    // weights of a float net rounded as `train` quantises them), with four king buckets and
    // mirroring, so that a file of the newest format is loaded too.
    let q = |w: f32, scale: i32| (w * scale as f32).round() as i16;
    let layout = Layout::named(4, true).unwrap();
    let net = Network {
        description: String::new(),
        hidden: 32,
        activation: Activation::SCReLU,
        layout,
        w1: (0..layout.inputs() * 32)
            .map(|i| q((i % 7) as f32 * 0.01, QA))
            .collect(),
        b1: vec![q(0.5, QA); 32],
        buckets: 1,
        w2: (0..64)
            .map(|i| q(if i < 32 { 0.4 } else { -0.3 }, QB))
            .collect(),
        b2: vec![0],
    };
    let other = dir.join("other.nnue");
    std::fs::write(&other, net.to_bytes()).unwrap();
    let mut damaged = EMBEDDED_NET.to_vec();
    damaged[5000] ^= 0x40;
    let mut version = EMBEDDED_NET.to_vec();
    version[8] = 9;
    let bad_files: [(&str, &[u8]); 5] = [
        ("empty.nnue", b""),
        ("short.nnue", &EMBEDDED_NET[..EMBEDDED_NET.len() / 2]),
        ("damaged.nnue", &damaged),
        ("version.nnue", &version),
        ("text.nnue", b"this is not a network\n"),
    ];

    let mut e = Engine::start();
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let embedded = network_score(&mut e);
    e.send(&format!(
        "setoption name EvalFile value {}",
        other.display()
    ));
    assert!(
        e.until("info string network", 5 * SECOND)
            .last()
            .is_some_and(|l| l.contains("loaded"))
    );
    let loaded = network_score(&mut e);
    assert_ne!(loaded, embedded, "the other network scores differently");
    let missing = dir.join("missing.nnue");
    // A directory, and a device that never ends: neither may be read.
    let mut paths = vec![missing, dir.clone(), std::path::PathBuf::from("/dev/zero")];
    for (name, bytes) in bad_files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        paths.push(path);
    }
    for path in &paths {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let reply = e.until("info string error", 5 * SECOND);
        assert_eq!(reply.len(), 1, "{}: {reply:?}", path.display());
        assert!(reply[0].contains("EvalFile"), "{reply:?}");
        assert_eq!(network_score(&mut e), loaded, "{}", path.display());
    }
    // And back to the embedded network.
    e.send("setoption name EvalFile value <embedded>");
    e.until("info string network", 5 * SECOND);
    assert_eq!(network_score(&mut e), embedded);
    std::fs::remove_dir_all(&dir).unwrap();
}
