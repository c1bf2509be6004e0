//! A fake UCI engine for arena's tests and measurements: it answers at once with a random legal
//! move (or, with `--strong`, a mate, a capture or a random move), and can be told to misbehave
//! on purpose: crash, hang, play an illegal move, never be ready, overstep its time, or write
//! garbage. Faults happen at the Nth `go` after each `ucinewgame`, so every game meets them.
//!
//! Usage: arena-fake-engine [--strong] [--score] [--seed N] [--name NAME] [--delay MS]
//!        [--use-time] [--crash-at N] [--illegal-at N] [--none-at N] [--hang-at N]
//!        [--overstep-at N] [--no-readyok] [--garbage]

use chess::rng::Rng;
use chess::{CastlingMode, Move, PieceType, Position};
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Behaviour {
    strong: bool,
    score: bool,
    seed: u64,
    name: Option<String>,
    delay: Option<Duration>,
    use_time: bool,
    crash_at: Option<u32>,
    illegal_at: Option<u32>,
    none_at: Option<u32>,
    hang_at: Option<u32>,
    overstep_at: Option<u32>,
    no_readyok: bool,
    not_ready_for_games: bool,
    garbage: bool,
}

fn behaviour() -> Result<Behaviour, String> {
    let mut b = Behaviour::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{what} needs a number"))
        };
        match flag.as_str() {
            "--strong" => b.strong = true,
            "--score" => b.score = true,
            "--use-time" => b.use_time = true,
            "--no-readyok" => b.no_readyok = true,
            "--not-ready-for-games" => b.not_ready_for_games = true,
            "--garbage" => b.garbage = true,
            "--seed" => b.seed = number("--seed")?,
            "--delay" => b.delay = Some(Duration::from_millis(number("--delay")?)),
            "--crash-at" => b.crash_at = Some(number("--crash-at")? as u32),
            "--illegal-at" => b.illegal_at = Some(number("--illegal-at")? as u32),
            "--none-at" => b.none_at = Some(number("--none-at")? as u32),
            "--hang-at" => b.hang_at = Some(number("--hang-at")? as u32),
            "--overstep-at" => b.overstep_at = Some(number("--overstep-at")? as u32),
            "--name" => b.name = args.next(),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(b)
}

const VALUES: [(PieceType, i32); 5] = [
    (PieceType::Pawn, 100),
    (PieceType::Knight, 300),
    (PieceType::Bishop, 300),
    (PieceType::Rook, 500),
    (PieceType::Queen, 900),
];

/// Material from the side to move's point of view.
fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    VALUES
        .iter()
        .map(|&(piece, value)| {
            let ours = pos.pieces(piece, us).popcount() as i32;
            let theirs = pos.pieces(piece, !us).popcount() as i32;
            value * (ours - theirs)
        })
        .sum()
}

/// A random legal move; `--strong` prefers a mate, then the capture that wins most material.
fn choose(pos: &Position, b: &Behaviour) -> Option<(Move, i32)> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::new(b.seed ^ pos.hash());
    let random = moves[rng.below(moves.len())];
    let after = |mv: Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        child
    };
    if !b.strong {
        return Some((random, -material(&after(random))));
    }
    let mut best = (random, -material(&after(random)));
    for &mv in moves.iter() {
        let child = after(mv);
        if child.is_check() && !child.has_legal_moves() {
            return Some((mv, 10_000));
        }
        let score = -material(&child);
        if score > best.1 {
            best = (mv, score);
        }
    }
    Some(best)
}

fn parse_position(words: &[&str], chess960: bool) -> Option<Position> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let moves_at = words.iter().position(|w| *w == "moves");
    let mut pos = match *words.first()? {
        "startpos" => Position::startpos(),
        "fen" => {
            let end = moves_at.unwrap_or(words.len());
            Position::from_fen_with(&words.get(1..end)?.join(" "), mode).ok()?
        }
        _ => return None,
    };
    for text in words.iter().skip(moves_at.map_or(words.len(), |i| i + 1)) {
        let mv = pos.parse_uci_move(text).ok()?;
        pos.make_move(mv);
    }
    Some(pos)
}

/// The time `go` gives the side to move, in milliseconds.
fn go_time(words: &[&str], pos: &Position) -> (u64, u64) {
    let value = |key: &str| -> u64 {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    match pos.side_to_move() {
        chess::Color::White => (value("wtime"), value("winc")),
        chess::Color::Black => (value("btime"), value("binc")),
    }
}

fn main() {
    let b = match behaviour() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("arena-fake-engine: {e}");
            std::process::exit(2);
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut pos = Position::startpos();
    let mut chess960 = false;
    let mut gos = 0u32;
    let mut in_game = false;
    let mut garbage = Rng::new(b.seed);
    let name = b.name.clone().unwrap_or("arena-fake-engine".to_string());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => format!(
                "id name {name}\nid author arena's tests\n\
                 option name Hash type spin default 1 min 1 max 1\n\
                 option name UCI_Chess960 type check default false\nuciok"
            ),
            Some("isready") if b.no_readyok || (b.not_ready_for_games && in_game) => continue,
            Some("isready") => "readyok".to_string(),
            Some("ucinewgame") => {
                gos = 0;
                in_game = true;
                continue;
            }
            Some("setoption") => {
                if words.get(2) == Some(&"UCI_Chess960") {
                    chess960 = words.get(4) == Some(&"true");
                }
                continue;
            }
            Some("position") => {
                match parse_position(&words[1..], chess960) {
                    Some(p) => pos = p,
                    None => {
                        let _ = writeln!(out, "info string bad position");
                    }
                }
                continue;
            }
            Some("go") => {
                gos += 1;
                if b.crash_at == Some(gos) {
                    std::process::exit(3);
                }
                if b.hang_at == Some(gos) {
                    loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    }
                }
                let (time, inc) = go_time(&words, &pos);
                if b.overstep_at == Some(gos) {
                    std::thread::sleep(Duration::from_millis(time + 300));
                } else if b.use_time {
                    std::thread::sleep(Duration::from_millis(time / 40 + inc / 2));
                }
                if let Some(delay) = b.delay {
                    std::thread::sleep(delay);
                }
                if b.garbage {
                    let junk: Vec<u8> = (0..40).map(|_| garbage.next_u64() as u8).collect();
                    let _ = out.write_all(&junk);
                    let _ = writeln!(
                        out,
                        "\ninfo score cp\nbestmov e2e4\ninfo string bestmove a1a1"
                    );
                }
                let mv = if b.illegal_at == Some(gos) {
                    "a1a1".to_string()
                } else if b.none_at == Some(gos) {
                    "(none)".to_string()
                } else {
                    match choose(&pos, &b) {
                        Some((mv, score)) => {
                            if b.score {
                                let _ = writeln!(out, "info depth 1 score cp {score} pv {mv}");
                            }
                            mv.to_uci(chess960)
                        }
                        None => "0000".to_string(),
                    }
                };
                format!("bestmove {mv}")
            }
            Some("quit") => break,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
