//! An engine process and the UCI conversation with it.
//!
//! A thread reads the engine's stdout and passes each line, stamped with the instant it was read,
//! through a channel; everything that waits for the engine waits on that channel with a deadline.
//! So an engine that hangs, floods, dies or writes garbage can cost a game, never the match.

use crate::clock::TimeControl;
use crate::log::UciLog;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

/// How an engine is started and set up.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// UCI options, sent in this order after `uciok`.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output or its input: it exited or crashed.
    Closed,
    /// The awaited answer did not come before the deadline.
    Timeout,
    /// The match is stopping; nobody is at fault.
    Stopped,
}

/// Lines longer than this are cut (the rest arrives as further lines), so a flood without
/// newlines cannot exhaust memory.
const MAX_LINE: u64 = 64 * 1024;
/// Lines waiting to be read; beyond this the reader thread, and then the engine, block.
const QUEUE: usize = 4096;
/// How often a waiting game looks at the stop flag when the engine is silent.
const POLL: Duration = Duration::from_millis(100);

pub struct Engine {
    /// `name#worker`, for the log.
    label: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    log: Option<UciLog>,
    /// The engine's `id name`.
    pub id_name: Option<String>,
    /// Options from the configuration that the engine does not declare, so were not sent.
    pub skipped_options: Vec<String>,
}

// ANCHOR: start
impl Engine {
    /// Starts the process and runs the handshake: `uci` until `uciok`, the options, `isready`
    /// until `readyok`, all within `timeout`.
    pub fn start(
        config: &EngineConfig,
        label: String,
        chess960: bool,
        timeout: Duration,
        stop: &AtomicBool,
        log: Option<UciLog>,
    ) -> Result<Engine, EngineError> {
        let mut command = Command::new(&config.cmd);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        // Its own process group keeps Ctrl-C (sent to the terminal's foreground group) away from
        // the engines: arena stops the match and quits them itself.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("cannot run '{}': {e}", config.cmd)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(EngineError::Spawn("no pipes to the engine".to_string()));
        };
        let (sender, lines) = sync_channel(QUEUE);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if sender.send((at, line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = Engine {
            label,
            child,
            stdin,
            lines,
            log,
            id_name: None,
            skipped_options: Vec::new(),
        };
        let deadline = Instant::now() + timeout;
        engine.send("uci")?;
        let mut declared = Vec::new();
        let mut id_name = None;
        engine.read_until(deadline, stop, |line| {
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest);
                declared.push(name.trim().to_ascii_lowercase());
            }
            line.trim() == "uciok"
        })?;
        engine.id_name = id_name;
        for (name, value) in &config.options {
            if declared.contains(&name.to_ascii_lowercase()) {
                engine.send(&format!("setoption name {name} value {value}"))?;
            } else {
                engine.skipped_options.push(name.clone());
            }
        }
        if chess960 {
            engine.send("setoption name UCI_Chess960 value true")?;
        }
        engine.sync(deadline, stop)?;
        Ok(engine)
    }
    // ANCHOR_END: start

    /// `ucinewgame`, then waits for the engine to be ready.
    pub fn new_game(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync(Instant::now() + timeout, stop)
    }

    /// `isready` until `readyok`.
    fn sync(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<(), EngineError> {
        self.send("isready")?;
        self.read_until(deadline, stop, |line| line.trim() == "readyok")
            .map(|_| ())
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.line(&self.label, '>', line);
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Closed)
    }

    // ANCHOR: read_until
    /// Reads lines, giving each to `accept`, until it accepts one; returns the instant that line
    /// was read. Fails at the deadline, when the engine's output closes, or when `stop` is set.
    pub fn read_until(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        mut accept: impl FnMut(&str) -> bool,
    ) -> Result<Instant, EngineError> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(EngineError::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok((at, line)) => {
                    if let Some(log) = &self.log {
                        log.line(&self.label, '<', &line);
                    }
                    if accept(&line) {
                        return Ok(at);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Closed),
            }
        }
    }
    // ANCHOR_END: read_until

    /// Asks the engine to quit and gives it a moment before the process group is killed. The end
    /// of its output (every process holding the pipe has exited) says it is gone; the process is
    /// not reaped here, so that its id cannot be reused before `drop` signals its group.
    pub fn quit(mut self) {
        if self.send("quit").is_ok() {
            let until = Instant::now() + Duration::from_millis(300);
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                if let Err(RecvTimeoutError::Disconnected) = self.lines.recv_timeout(left) {
                    break;
                }
            }
        }
    }

    pub fn note(&self, text: &str) {
        if let Some(log) = &self.log {
            log.line(&self.label, '!', text);
        }
    }
}

impl Drop for Engine {
    /// Kills the engine's whole process group, not only the process arena started: an engine
    /// launched through a wrapper script would otherwise live on, still holding the pipes.
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            use nix::sys::signal::{Signal, killpg};
            let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A score as UCI reports it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates as ±(30000 - distance) so that a nearer mate counts more.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 30_000 - n,
            Score::Mate(n) => -30_000 - n,
        }
    }
}

/// What arena keeps of an `info` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub score: Option<Score>,
}

// ANCHOR: parse
/// Reads the depth and score of an `info` line; `None` for any other line. Everything after
/// `string` or `pv` is free text or moves and is not looked at.
pub fn parse_info(line: &str) -> Option<Info> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = Info::default();
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = words.next().and_then(|w| w.parse().ok()),
            "score" => {
                info.score = match (words.next(), words.next().and_then(|w| w.parse().ok())) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                }
            }
            "string" | "pv" => break,
            _ => {}
        }
    }
    Some(info)
}

/// The move of a `bestmove` line (`Some("")` if the line has none); `None` for any other line.
pub fn parse_bestmove(line: &str) -> Option<&str> {
    let mut words = line.split_ascii_whitespace();
    (words.next() == Some("bestmove")).then(|| words.next().unwrap_or(""))
}
// ANCHOR_END: parse

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let info = parse_info("info depth 12 seldepth 17 score cp -31 nodes 1000 pv e2e4 e7e5");
        assert_eq!(
            info,
            Some(Info {
                depth: Some(12),
                score: Some(Score::Cp(-31))
            })
        );
        let mate = parse_info("info depth 20 score mate -3 lowerbound").unwrap();
        assert_eq!(mate.score, Some(Score::Mate(-3)));
        assert_eq!(Score::Mate(-3).centipawns(), -29_997);
        assert_eq!(Score::Mate(2).centipawns(), 29_998);
        // A score inside an `info string` is text, not a score.
        assert_eq!(parse_info("info string score cp 900").unwrap().score, None);
        assert_eq!(
            parse_info("info depth x score cp").unwrap(),
            Info::default()
        );
        assert_eq!(parse_info("bestmove e2e4"), None);
        assert_eq!(parse_info(""), None);
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(parse_bestmove("bestmove e2e4 ponder e7e5"), Some("e2e4"));
        assert_eq!(parse_bestmove("bestmove"), Some(""));
        assert_eq!(parse_bestmove("bestmovee2e4"), None);
        assert_eq!(parse_bestmove("info bestmove e2e4"), None);
    }
}
