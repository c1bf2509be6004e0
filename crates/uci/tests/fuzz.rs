//! A hostile GUI: over 100,000 generated lines (mutated real commands, random bytes, huge and
//! CRLF-terminated lines, positions with legal and illegal moves, option changes and `quit` during
//! searches on several threads) sent to cb2026, with shakmaty (an independent move generator, a
//! dev-dependency only) as the model of the game's position. Every 64 lines the test stops any
//! search, asks `isready` and `d`, and checks that the answer came in time, that `d` shows the
//! model's position, that every `pv` printed since the last check was legal in the notation of the
//! `UCI_Chess960` setting, and that every search `go` sent since got exactly one `bestmove`, in
//! order, legal in the position that `go` was sent in and beginning the last `pv` sent before it.
//! Now and then it sends `quit` instead, checks the same of everything the engine said before it
//! exited, and starts a new engine.
mod common;

use common::{Engine, Rng, last_pv_move, mutate};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use uci::input::MAX_LINE_BYTES;

const LINES: usize = 100_000;
const CHECK_EVERY: usize = 64;
/// How long the engine may take to answer `stop`, `isready` and `d` at a check.
const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// Commands to mutate. None of them can change the game's position or the castling notation
/// however it is mutated (no `position`, no `UCI_Chess960`: the generator sends those itself,
/// whole, and the model follows them), and `d` is kept for the checks.
const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "go depth 2",
    "go movetime 5",
    "go wtime 100 btime 100 winc 1 binc 1",
    "go nodes 300",
    "go mate 1",
    "go depth 2 searchmoves e2e4 d2d4",
    "go infinite",
    "go ponder wtime 50 btime 50",
    "go",
    "go perft 2",
    "stop",
    "ponderhit",
    "setoption name Hash value 2",
    "setoption name MultiPV value 2",
    "setoption name Move Overhead value 5",
    "setoption name Clear Hash",
    "setoption name killers value false",
    "setoption name Killers value true",
    "setoption name Threads value 1",
    "setoption name Threads value 3",
    "setoption name EvalFile value <embedded>",
    "setoption name EvalFile value /no/such/net.nnue",
    "set killers on",
    "set NULL_MOVE off",
    "set aspiration_window 20",
    "perft 2",
    "perft 2 r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
    "perft 1 rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "eval",
    "stats",
    "bench 1",
];

/// Tokens that are no move in any position, for either rules: the model and the engine must both
/// refuse a `position` command that holds one.
const NOT_MOVES: &[&str] = &["a1a1", "i2i4", "e7e8k", "abcd", "e2", "h8h9q"];

/// Random bytes with no newline, defused.
fn garbage(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut bytes: Vec<u8> = (0..len)
        .map(|_| rng.next() as u8)
        .filter(|&b| b != b'\n')
        .collect();
    defuse(&mut bytes);
    bytes
}

/// Random bytes and mutations can spell a command that the test must send itself or not at all
/// (`go depth 2` loses `go` and then most of `depth`: `d 2`); such a line gets a `?` in front.
fn defuse(bytes: &mut Vec<u8>) {
    let text = String::from_utf8_lossy(bytes).to_string();
    let first = text.split_whitespace().next();
    if first.is_some_and(|w| ["d", "position", "quit"].contains(&w)) {
        bytes.insert(0, b'?');
    }
}

fn suite(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/perft")
        .join(name);
    std::fs::read_to_string(path)
        .expect("suite file")
        .lines()
        .filter_map(|l| l.split(';').next())
        .map(|f| f.trim().to_string())
        .filter(|f| !f.is_empty())
        .collect()
}

fn mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

fn parse(fen: &str, chess960: bool) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position::<Chess>(mode(chess960))
        .ok()
}

/// The move `text` names in `pos`, if it is legal there in the notation of `chess960`.
fn legal(pos: &Chess, text: &str, chess960: bool) -> Option<shakmaty::Move> {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.to_uci(mode(chess960)).to_string() == text)
}

/// The game as the test believes it to be.
struct Model {
    position: Chess,
    chess960: bool,
}

/// The position a search `go` was sent in, with its notation.
#[derive(Clone)]
struct GoContext {
    position: Chess,
    chess960: bool,
}

/// Whether `moves` (a bestmove and its ponder move, or a pv) is a legal line in `ctx`.
fn legal_line(ctx: &GoContext, moves: &[&str]) -> bool {
    let mut pos = ctx.position.clone();
    for text in moves {
        match legal(&pos, text, ctx.chess960) {
            Some(m) => pos.play_unchecked(&m),
            None => return false,
        }
    }
    true
}

/// Whether the engine takes `bytes` (one line) as a search: a `go` that isn't `go perft`, in a
/// line the engine reads (not past its length limit). Each gets exactly one `bestmove`.
fn is_search(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let mut words = text.split_whitespace();
    bytes.len() <= MAX_LINE_BYTES && words.next() == Some("go") && words.next() != Some("perft")
}

/// What the engine said since the last check, checked against the `go`s sent in that time.
struct Window<'a> {
    /// The searches sent, in order.
    searches: &'a [GoContext],
    /// The output of the search under way: `info` lines since the last `bestmove`.
    lines: Vec<String>,
    answered: usize,
    sent: usize,
}

impl Window<'_> {
    /// Checks one line of output.
    fn check(&mut self, line: &str) {
        let sent = self.sent;
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(
            line.len() <= 2_000 || line.starts_with("info") && line.contains(" pv "),
            "after {sent} lines, a line of {} characters: {}...",
            line.len(),
            &line[..200]
        );
        if line.starts_with("info depth") {
            let at = words.iter().position(|&w| w == "pv");
            let ctx = self.searches.get(self.answered);
            assert!(
                at.zip(ctx)
                    .is_some_and(|(at, ctx)| legal_line(ctx, &words[at + 1..])),
                "after {sent} lines, not legal in the position of the search under way: {line}"
            );
            self.lines.push(line.to_string());
            return;
        }
        if words.first() != Some(&"bestmove") {
            return;
        }
        let Some(ctx) = self.searches.get(self.answered) else {
            panic!(
                "after {sent} lines, bestmove number {} for {} searches: {line}",
                self.answered + 1,
                self.searches.len()
            );
        };
        self.answered += 1;
        let moves: Vec<&str> = match words.as_slice() {
            ["bestmove", "0000"] => {
                assert!(
                    ctx.position.legal_moves().is_empty(),
                    "after {sent} lines: bestmove 0000 with legal moves"
                );
                vec![]
            }
            ["bestmove", best] => vec![best],
            ["bestmove", best, "ponder", ponder] => vec![best, ponder],
            _ => panic!("after {sent} lines, a malformed bestmove: {line}"),
        };
        assert!(
            legal_line(ctx, &moves),
            "after {sent} lines, {line} is not legal in the position of its go"
        );
        if let (Some(first), Some(best)) = (last_pv_move(&self.lines), moves.first()) {
            assert_eq!(
                &first, best,
                "after {sent} lines, {line} after a last pv from {first}"
            );
        }
        self.lines.clear();
    }

    /// At the end of the window: every search was answered.
    fn done(&self) {
        assert_eq!(
            self.answered,
            self.searches.len(),
            "after {} lines: {} bestmoves for {} searches",
            self.sent,
            self.answered,
            self.searches.len()
        );
    }
}

/// A `position` command from the suites, with legal moves and now and then an illegal one;
/// the model follows it exactly when it is valid.
fn position_command(rng: &mut Rng, model: &mut Model, fens: &[(String, Chess)]) -> String {
    let (fen, start) = &fens[rng.below(fens.len())];
    let startpos = !model.chess960 && rng.below(4) == 0;
    let mut pos = if startpos {
        Chess::default()
    } else {
        start.clone()
    };
    let mut line = if startpos {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    };
    let plies = rng.below(12);
    let mut valid = true;
    if plies > 0 {
        line.push_str(" moves");
    }
    for _ in 0..plies {
        let legal: Vec<shakmaty::Move> = pos.legal_moves().into_iter().collect();
        if legal.is_empty() || rng.below(25) == 0 {
            line.push(' ');
            line.push_str(NOT_MOVES[rng.below(NOT_MOVES.len())]);
            valid = false;
            break;
        }
        let m = legal[rng.below(legal.len())].clone();
        line.push(' ');
        line.push_str(&m.to_uci(mode(model.chess960)).to_string());
        pos.play_unchecked(&m);
    }
    if valid {
        model.position = pos;
    }
    line
}

#[test]
fn a_hundred_thousand_hostile_lines_keep_the_engine_and_its_position_right() {
    let standard: Vec<(String, Chess)> = suite("standard.epd")
        .into_iter()
        .filter_map(|f| parse(&f, false).map(|p| (f, p)))
        .collect();
    let chess960: Vec<(String, Chess)> = suite("chess960.epd")
        .into_iter()
        .take(200)
        .filter_map(|f| parse(&f, true).map(|p| (f, p)))
        .collect();
    assert!(standard.len() > 100 && chess960.len() > 150);

    let mut rng = Rng(0x00f0_22ed_2026);
    let mut e = Engine::start();
    let mut model = Model {
        position: Chess::default(),
        chess960: false,
    };
    let mut searches: Vec<GoContext> = Vec::new();
    let (mut checks, mut bestmoves, mut huge, mut quits) = (0, 0, 0, 0);
    let started = Instant::now();
    // For the failure message: the last `position` line sent and the errors since the last check.
    let mut last_position: Vec<String> = Vec::new();
    let mut errors: Vec<String> = Vec::new();
    // FUZZ_LOG=FILE keeps every line sent, to replay a failure by hand.
    let mut log = std::env::var_os("FUZZ_LOG").and_then(|p| std::fs::File::create(p).ok());
    for sent in 1..=LINES {
        let roll = rng.below(1000);
        let bytes: Vec<u8> = match roll {
            0..=199 => {
                let len = rng.below(100);
                garbage(&mut rng, len)
            }
            200..=499 => {
                let command = COMMANDS[rng.below(COMMANDS.len())];
                let mut line = mutate(&mut rng, command);
                if rng.below(10) == 0 {
                    line.push('\r');
                }
                let mut bytes = line.into_bytes();
                defuse(&mut bytes);
                bytes
            }
            500..=699 => {
                let fens = if model.chess960 { &chess960 } else { &standard };
                let mut line = position_command(&mut rng, &mut model, fens);
                if rng.below(10) == 0 {
                    line.push('\r');
                }
                line.into_bytes()
            }
            700..=899 => COMMANDS[rng.below(COMMANDS.len())].as_bytes().to_vec(),
            900..=979 => {
                let limit = match rng.below(3) {
                    0 => format!("depth {}", 1 + rng.below(3)),
                    1 => format!("nodes {}", 1 + rng.below(2000)),
                    _ => format!("movetime {}", 1 + rng.below(10)),
                };
                format!("go {limit}").into_bytes()
            }
            980..=989 => {
                // Switch the castling notation, and set up a position in it at once.
                model.chess960 = !model.chess960;
                let fens = if model.chess960 { &chess960 } else { &standard };
                let position = position_command(&mut rng, &mut model, fens);
                // `stop` first: the option would wait for a search.
                format!(
                    "stop\nsetoption name UCI_Chess960 value {}\n{position}",
                    model.chess960
                )
                .into_bytes()
            }
            // About one line in a thousand: `quit`, whatever runs or waits.
            990 => b"quit".to_vec(),
            _ if rng.below(10) != 0 => b"isready\r".to_vec(),
            _ => {
                // Now and then a huge line: a command with a token of up to a mebibyte, past
                // the engine's line limit about half the time.
                huge += 1;
                let token: String = std::iter::repeat_n('x', 1 + rng.below(2 << 20)).collect();
                let command =
                    ["go", "position startpos moves", "setoption name Hash value"][rng.below(3)];
                format!("{command} {token}").into_bytes()
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        if text.contains("position ") || text.contains("UCI_Chess960") {
            last_position.push(text.chars().take(300).collect());
            if last_position.len() > 8 {
                last_position.remove(0);
            }
        }
        if is_search(&bytes) {
            searches.push(GoContext {
                position: model.position.clone(),
                chess960: model.chess960,
            });
        }
        e.send_bytes(&bytes);
        if let Some(log) = &mut log {
            use std::io::Write;
            let _ = log.write_all(&bytes);
            let _ = log.write_all(b"\n");
        }
        let mut window = Window {
            searches: &searches,
            lines: Vec::new(),
            answered: 0,
            sent,
        };

        if bytes == b"quit" {
            // Everything the engine says before it exits: every search answered.
            quits += 1;
            while let Some(line) = e.line(ANSWER_WITHIN) {
                window.check(&line);
            }
            window.done();
            bestmoves += window.answered;
            assert!(
                e.wait_exit(ANSWER_WITHIN),
                "after {sent} lines: quit did not end the engine"
            );
            e = Engine::start();
            model = Model {
                position: Chess::default(),
                chess960: false,
            };
            searches.clear();
            errors.clear();
        } else if sent % CHECK_EVERY == 0 || sent == LINES {
            checks += 1;
            let asked = Instant::now();
            e.send("stop");
            e.send("isready");
            e.send("d");
            let mut fen = None;
            loop {
                let left = ANSWER_WITHIN.saturating_sub(asked.elapsed());
                let Some(line) = e.line(left) else {
                    panic!(
                        "after {sent} lines: no answer to isready and d within {ANSWER_WITHIN:?}"
                    )
                };
                window.check(&line);
                if line.starts_with("info string error") {
                    errors.push(line.chars().take(200).collect());
                }
                if let Some(f) = line.strip_prefix("Fen: ") {
                    fen = Some(f.to_string());
                }
                if line.starts_with("Checkers") {
                    break;
                }
            }
            window.done();
            bestmoves += window.answered;
            let fen = fen.expect("a Fen line before Checkers");
            // Compare as positions, so that equal castling rights written two ways agree.
            let shown = parse(&fen, true)
                .unwrap_or_else(|| panic!("after {sent} lines, d shows a bad FEN: {fen}"));
            let expected =
                Fen::from_position(model.position.clone(), EnPassantMode::Legal).to_string();
            let expected_960 = parse(&expected, true).expect("the model's FEN");
            assert_eq!(
                Fen::from_position(shown, EnPassantMode::Legal).to_string(),
                Fen::from_position(expected_960, EnPassantMode::Legal).to_string(),
                "after {sent} lines, d disagrees with the model; the last position sent: \
                 {last_position:#?}; errors: {errors:?}"
            );
            errors.clear();
            assert!(!e.has_exited(), "the engine exited after {sent} lines");
            searches.clear();
        }
    }
    eprintln!(
        "{LINES} lines ({huge} huge, {quits} quits), {checks} checks, {bestmoves} bestmoves, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(bestmoves > 1_000, "only {bestmoves} searches finished");
    assert!(quits > 20, "only {quits} quits");
    e.send("quit");
    assert!(
        e.wait_exit(Duration::from_secs(5)),
        "quit did not end the engine"
    );
}
