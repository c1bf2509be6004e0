//! Helpers shared by arena's integration tests: running the `arena` binary with a watchdog, the
//! fake engine, and reading the PGN back.
#![allow(dead_code)] // each test file uses its own part

use arena::pgn::{self, PgnGame};
use chess::{CastlingMode, Position, STARTPOS};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const ARENA: &str = env!("CARGO_BIN_EXE_arena");
pub const FAKE: &str = env!("CARGO_BIN_EXE_arena-fake-engine");

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The summary line that starts with `prefix`.
    pub fn line(&self, prefix: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' line in:\n{}{}", self.stdout, self.stderr))
    }

    pub fn show(&self) -> String {
        format!("status {}\n{}\n{}", self.code, self.stdout, self.stderr)
    }
}

/// Runs arena; a test that takes longer than `limit` is a hang of arena itself, and fails.
pub fn run_for(args: &[String], limit: Duration) -> Run {
    let out_path = temp("stdout");
    let err_path = temp("stderr");
    let mut child = Command::new(ARENA)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("arena {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&out_path).unwrap(),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
    };
    let _ = std::fs::remove_file(out_path);
    let _ = std::fs::remove_file(err_path);
    run
}

/// Splits a command line written as one string (no quoting needed in these tests).
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// `--engine` words for fake engines, each given as (name, flags).
pub fn fakes(engines: &[(&str, &str)]) -> Vec<String> {
    let mut w = Vec::new();
    for (name, flags) in engines {
        w.extend([
            "--engine".to_string(),
            format!("cmd={FAKE}"),
            format!("name={name}"),
        ]);
        if !flags.is_empty() {
            w.push(format!("args={flags}"));
        }
    }
    w
}

/// `--openings` with the repository's 3,000 balanced openings.
pub fn balanced() -> String {
    format!(
        "--openings file={}",
        repo_file("data/openings/balanced.epd")
    )
}

/// A finished run with the games it wrote.
pub struct Played {
    pub run: Run,
    pub games: Vec<PgnGame>,
    pub text: String,
}

/// Runs arena with `engines` (`--engine` words) and the arguments `extra`; the games go to a
/// fresh PGN file, which is read back and removed.
pub fn play(engines: Vec<String>, extra: &str, limit: Duration) -> Played {
    let pgn = temp("games.pgn");
    let mut args = engines;
    args.extend(words(extra));
    args.extend(["--pgn".to_string(), pgn.display().to_string()]);
    let run = run_for(&args, limit);
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    Played {
        run,
        games: pgn::parse(&text),
        text,
    }
}

/// [`play`] between fake engines, each given as (name, flags).
pub fn play_fakes(engines: &[(&str, &str)], extra: &str) -> Played {
    play(fakes(engines), extra, Duration::from_secs(120))
}

static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// A fresh path in the temporary directory.
pub fn temp(name: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("arena-test-{}-{n}-{name}", std::process::id()))
}

pub fn repo_file(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Plays a PGN game's moves from its start position, failing the test on any illegal move, and
/// returns the final position.
pub fn replay(game: &PgnGame) -> Position {
    let mode = if game.tag("Variant") == Some("Chess960") {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut pos = Position::from_fen_with(game.tag("FEN").unwrap_or(STARTPOS), mode).unwrap();
    for san in &game.moves {
        let mv = pos
            .parse_san(san)
            .unwrap_or_else(|e| panic!("{e} in {:?}", game.tags));
        pos.make_move(mv);
    }
    pos
}

/// Wins, draws and losses of `name` in these games.
pub fn score_of(games: &[PgnGame], name: &str) -> (u64, u64, u64) {
    let mut wdl = (0, 0, 0);
    for g in games {
        let white = g.tag("White") == Some(name);
        let black = g.tag("Black") == Some(name);
        match (g.tag("Result"), white, black) {
            (Some("1-0"), true, _) | (Some("0-1"), _, true) => wdl.0 += 1,
            (Some("1/2-1/2"), true, _) | (Some("1/2-1/2"), _, true) => wdl.1 += 1,
            (Some("0-1"), true, _) | (Some("1-0"), _, true) => wdl.2 += 1,
            _ => {}
        }
    }
    wdl
}

/// The "W n, D n, L n" counts of the summary's `Games:` line.
pub fn summary_wdl(run: &Run) -> (u64, u64, u64) {
    let line = run.line("Games:");
    let number = |tag: &str| -> u64 {
        let end = line.find(tag).unwrap_or_else(|| panic!("{line}"));
        line[..end].rsplit(' ').next().unwrap().parse().unwrap()
    };
    (number(" W"), number(" D"), number(" L"))
}
