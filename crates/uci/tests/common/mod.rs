//! Drives the `cb2026` binary like a GUI: writes commands, reads lines with timeouts.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// cb2026 started with `args`, its standard input and output piped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start cb2026")
}

pub struct Engine {
    child: Child,
    /// `None` once closed (see [`Engine::close_input`]).
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The engine started with these command-line arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = spawn(args);
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn input(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("the engine's input is open")
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.input();
        writeln!(stdin, "{line}").expect("write to cb2026");
        stdin.flush().expect("flush");
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.input();
        stdin.write_all(bytes).expect("write to cb2026");
        stdin.write_all(b"\n").expect("write to cb2026");
        stdin.flush().expect("flush");
    }

    /// Writes `bytes` as they are, with no newline.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.input();
        stdin.write_all(bytes).expect("write to cb2026");
        stdin.flush().expect("flush");
    }

    /// Sends `go`, which has arguments the engine can't read and none that limits the search:
    /// one error line, then a search until `stop`, answered with a `bestmove` and no other error.
    pub fn go_read_in_part(&mut self, go: &str) {
        self.send(go);
        let reply = self.until("info string error", Duration::from_secs(5));
        assert_eq!(reply.len(), 1, "{go}: {reply:?}");
        self.send("stop");
        let answer = self.until("bestmove", Duration::from_secs(5));
        assert!(
            !answer.iter().any(|l| l.contains("error")),
            "{go}: {answer:?}"
        );
    }

    /// Closes the engine's standard input: end of input, as when a GUI goes away.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A field of the engine's `/proc/PID/status` in kB (`VmRSS`, `VmHWM`...): Linux only.
    pub fn memory_kb(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status
            .lines()
            .find(|l| l.starts_with(&format!("{field}:")))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// The next line, if one comes within `timeout`.
    pub fn line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// All lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => panic!("no '{prefix}' within {timeout:?}; got {seen:?}"),
            }
        }
    }

    /// Lines that arrive within `wait` (none expected to end the wait early).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Some(line) = self.line(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    pub fn is_ready(&mut self) {
        self.send("isready");
        self.until("readyok", Duration::from_secs(10));
    }

    /// The move of a `bestmove` line.
    pub fn best_move(lines: &[String]) -> String {
        let last = lines.last().expect("a bestmove line");
        last.split_whitespace()
            .nth(1)
            .expect("bestmove's move")
            .to_string()
    }

    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.has_exited() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Engine {
    /// The FEN that `d` shows.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until("Checkers", Duration::from_secs(5));
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("a Fen line")
            .to_string()
    }
}

/// xorshift64: the same lines on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Words that mutations put into real commands.
pub const NOISE: &[&str] = &[
    "-1",
    "0",
    "99999999999999999999",
    "-99999999999",
    "1e9",
    "NaN",
    "moves",
    "fen",
    "value",
    "name",
    "e2e4",
    "e7e8q",
    "e1g1",
    "e1h1",
    "0000",
    "a9a1",
    "KQkq",
    "-",
    "w",
    "b",
    "8/8/8",
    "searchmoves",
    "depth",
    "\u{0}",
    "\u{fffd}",
    "\t",
];

/// A real command with one to three words removed, inserted, replaced or cut short.
pub fn mutate(rng: &mut Rng, line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(words.len() + 1);
        match rng.below(5) {
            0 if at < words.len() => {
                words.remove(at);
            }
            1 => words.insert(at, NOISE[rng.below(NOISE.len())].to_string()),
            2 if at < words.len() => words[at] = NOISE[rng.below(NOISE.len())].to_string(),
            3 if at < words.len() => {
                let w = &mut words[at];
                let i = rng.below(w.len() + 1);
                if w.is_char_boundary(i) {
                    w.truncate(i);
                }
            }
            _ => words.truncate(at.max(1)),
        }
    }
    words.join(" ")
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The first move of the last principal variation a search sent for its best line (an `info`
/// line with `pv` and `multipv 1`, or no `multipv`): what a GUI shows as the engine's plan.
pub fn last_pv_move(lines: &[String]) -> Option<String> {
    lines.iter().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let multipv = words.iter().position(|&w| w == "multipv");
        if multipv.is_some_and(|at| words.get(at + 1) != Some(&"1")) {
            return None;
        }
        let pv = words.iter().position(|&w| w == "pv")?;
        words.get(pv + 1).map(|mv| mv.to_string())
    })
}

/// Asserts that the `bestmove` ending `lines` (one search's output) begins the last principal
/// variation sent, if one was.
pub fn assert_bestmove_begins_last_pv(lines: &[String], context: &str) {
    let best = Engine::best_move(lines);
    if let Some(first) = last_pv_move(lines) {
        assert_eq!(
            first, best,
            "{context}: bestmove {best} after a last pv from {first}: {lines:?}"
        );
    }
}
