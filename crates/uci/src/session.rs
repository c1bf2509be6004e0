//! The engine as a GUI sees it: the current position and options, and a search running on its
//! own thread while this one keeps reading commands (so `stop` and `isready` are answered at once).
//! A synchronous session ([`Session::synchronous`], for the browser) runs each job to its end
//! before the next command instead.
//!
//! Every `go` gets exactly one `bestmove`: a `go` with arguments that can't be read searches with
//! those that can, one that fails to start is answered at once, and one sent while a search runs
//! waits for that search (see [`Session::execute`]).

use crate::go::{Go, MAX_PERFT_DEPTH, parse_go, parse_position};
use crate::options::{self, Options};
use crate::output::{bestmove_line, error, say};
use crate::report::SearchReport;
use crate::tree::Format;
use chess::rng::Rng;
use chess::{CastlingMode, Color, Position, divide};
use engine::bench::{self, BENCH_POSITIONS, DEFAULT_BENCH_DEPTH};
use engine::clock::{Instant, SystemTime, UNIX_EPOCH};
use engine::eval::nnue::{self, Network};
use engine::strength::{self, Lines, Strength};
use engine::tablebase::{Probing, Tablebases};
use engine::techniques::parse_switch;
use engine::time::Limits;
use engine::tree::TreeRequest;
use engine::{
    Evaluator, HceEvaluator, Notes, Params, SearchOptions, SearchResult, TECHNIQUES, Techniques,
    ThreadPool, TranspositionTable, Workers,
};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub struct Session {
    position: Position,
    /// Hashes of the positions before `position` in the game.
    history: Vec<u64>,
    options: Options,
    techniques: Techniques,
    params: Params,
    /// The network: the embedded one, or the one `EvalFile` loaded.
    net: Arc<Network>,
    /// The tables `SyzygyPath` found, if any.
    tablebases: Option<Arc<Tablebases>>,
    /// Seeds the move choice of a limited strength: from the clock at the start, so that games
    /// differ, then counted up by each search.
    choice_seed: u64,
    /// The search threads, the hash table and the stop flags; the search thread is started at
    /// the first job and then kept for every search.
    pool: ThreadPool,
    /// Set by the search thread just before it sends `bestmove`: from then on it is as good as
    /// finished, and a command that follows `bestmove` at once must not be refused.
    answered: Arc<AtomicBool>,
    last_notes: Notes,
    /// The running job ends only when told to (`go infinite`, `go ponder`, a `go` without a
    /// limit).
    endless: bool,
    /// Commands that came while a search ran, and wait for it to end, in order (see
    /// [`Session::execute`]).
    waiting: VecDeque<Waiting>,
    /// List every technique as a UCI option (`cb2026 --technique-options`, for match runners);
    /// otherwise a GUI's settings dialog shows only what a player sets.
    technique_options: bool,
    /// A command given on the command line failed (the binary then exits with status 1).
    failed: Arc<AtomicBool>,
    /// Jobs run to their end inside `execute` (see [`Session::synchronous`]).
    synchronous: bool,
    /// No `stop` can come (a synchronous session, or one command from the command line): a
    /// search needs a limit.
    needs_limit: bool,
    /// UCI's `debug on`: each timed `go` says what the time manager allots (chapter 11).
    debug: bool,
}

/// A net file's bytes. Only a regular file is read (a pipe or a device such as `/dev/zero` could
/// block or never end), and no more than the largest network's size.
fn read_net_file(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    use nnue::network::{MAX_DESCRIPTION, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, file_size};
    let limit = file_size(MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MAX_DESCRIPTION) as u64;
    if meta.len() > limit {
        return Err(format!("{} bytes, larger than any network", meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// The value after the name of a `setoption name ... value ...` command.
fn split_setoption(args: &[&str]) -> Result<(String, String), String> {
    if args.first() != Some(&"name") {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
    }
    let value_at = args.iter().position(|&w| w == "value");
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    let value = value_at
        .map(|at| args[at + 1..].join(" "))
        .unwrap_or_default();
    if name.is_empty() {
        return Err("setoption: no option name".into());
    }
    Ok((name, value))
}

/// A command that came while a search ran and waits for it to end.
struct Waiting {
    line: String,
    /// A `stop` came after it: a job it starts is stopped at once (and so answered at once).
    stopped: bool,
}

/// The most commands that wait for a search (each a line of at most [`crate::input::MAX_LINE_BYTES`]).
/// A GUI sends one or two by mistake; one that sends more without a `stop` gets the search
/// stopped, as if it had sent `stop`, so that memory stays bounded and no `go` is dropped.
const MAX_WAITING: usize = 64;

/// How a command meets a running search.
#[derive(PartialEq)]
enum Timing {
    /// Carried out at once, even during a search, and never kept waiting: UCI's `isready`,
    /// `stop`, `ponderhit` and `quit` must reach the engine while it searches.
    AtOnce,
    /// Carried out at once during a search, unless commands already wait (then after them).
    Alongside,
    /// Needs the search state, which a running search holds: waits for the search to end.
    WhenIdle,
}

// ANCHOR: needs_idle
fn timing(command: &str) -> Timing {
    match command {
        "isready" | "stop" | "ponderhit" | "quit" => Timing::AtOnce,
        "go" | "ucinewgame" | "setoption" | "set" | "bench" | "perft" | "stats"
        | "chapter-table" | "tree" => Timing::WhenIdle,
        _ => Timing::Alongside,
    }
}
// ANCHOR_END: needs_idle

impl Session {
    pub fn new(technique_options: bool) -> Session {
        Session::build(technique_options, false, false)
    }

    /// A session for a host without threads (the browser build, in a Web Worker): each search,
    /// `perft`, `bench` or `tree` runs to its end on the caller's thread before `execute`
    /// returns. Nothing can stop a job meanwhile, so a `go` needs a limit (`depth`, `nodes`,
    /// `movetime` or the clock of the side to move): `go infinite`, `go ponder` and a bare `go`
    /// are refused.
    pub fn synchronous(technique_options: bool) -> Session {
        Session::build(technique_options, true, true)
    }

    /// A session for one command given on the command line (`cb2026 go depth 10`): jobs run on
    /// the search thread as in [`Session::new`], but no `stop` can come, so a `go` needs a limit
    /// as in [`Session::synchronous`], and one without is refused (a failure, for the exit status).
    pub fn without_input(technique_options: bool) -> Session {
        Session::build(technique_options, false, true)
    }

    fn build(technique_options: bool, synchronous: bool, needs_limit: bool) -> Session {
        let tt = Arc::new(TranspositionTable::new(options::DEFAULT_HASH_MIB));
        let net = nnue::embedded();
        let mut pool = ThreadPool::with_network(tt, net.clone());
        if synchronous {
            pool = pool.inline();
        }
        Session {
            position: Position::startpos(),
            history: Vec::new(),
            options: Options::default(),
            techniques: Techniques::default(),
            params: Params::default(),
            pool,
            net,
            tablebases: None,
            choice_seed: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            answered: Arc::new(AtomicBool::new(false)),
            last_notes: Notes::default(),
            endless: false,
            waiting: VecDeque::new(),
            technique_options,
            failed: Arc::new(AtomicBool::new(false)),
            synchronous,
            needs_limit,
            debug: false,
        }
    }

    /// Whether a command failed (so far only `tree` and a refused `go` say so), for the exit
    /// status.
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    fn mode(&self) -> CastlingMode {
        if self.options.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Whether a search is running and hasn't been told to stop.
    fn searching(&self) -> bool {
        self.pool.is_running()
            && !self.answered.load(Ordering::Relaxed)
            && !self.pool.signals().stop.load(Ordering::Relaxed)
    }

    /// Waits for the search thread's job (if any) and takes the workers back.
    pub fn wait(&mut self) {
        let running = self.pool.main().is_none();
        // The pool reports a search thread that died instead of handing the workers back. Only a
        // build that unwinds gets here (a debug build, `cargo test`): the release profile has
        // `panic = "abort"`, where a panic ends the process. Kept, so that such a build says so
        // and goes on with fresh workers rather than wait forever.
        if let Err(e) = self.pool.wait() {
            error(e);
        } else if running {
            if let Some(main) = self.pool.main() {
                self.last_notes = main.notes.clone();
            }
        }
    }

    /// The end of input: a job that ends by itself (a search with a limit, `bench`, `perft`)
    /// is waited for, so that `echo bench | cb2026` prints its result; one that would never
    /// end (`go infinite`, pondering, a `go` without a limit) is stopped. Commands that wait
    /// for a search run after it, in the same way.
    pub fn end_of_input(&mut self) {
        loop {
            if self.endless {
                self.stop_job();
            } else {
                self.wait();
            }
            if self.waiting.is_empty() {
                return;
            }
            self.run_waiting();
        }
    }

    /// Stops the running job (if any) and waits for it; the commands waiting stay.
    fn stop_job(&mut self) {
        let signals = self.pool.signals();
        signals.stop.store(true, Ordering::Relaxed);
        signals.pondering.store(false, Ordering::Relaxed);
        self.wait();
    }

    /// `stop`: stops the running search and every job of the commands waiting for it (each `go`
    /// among them is answered at once), carries out those commands in order, and returns when
    /// every search has sent its `bestmove`.
    pub fn stop(&mut self) {
        for waiting in &mut self.waiting {
            waiting.stopped = true;
        }
        self.stop_job();
        self.run_waiting();
        self.stop_job();
    }

    /// Whether commands wait for the running search to end (then [`Session::run_waiting`]
    /// should be called now and then).
    pub fn has_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// Carries out the commands that wait, in order, as long as no search runs.
    pub fn run_waiting(&mut self) {
        while !self.searching() {
            let Some(waiting) = self.waiting.pop_front() else {
                return;
            };
            self.run(&waiting.line);
            if waiting.stopped {
                self.pool.signals().stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// A line past `limit` bytes was skipped.
    pub fn line_too_long(&self, limit: usize) {
        error(format!("a line longer than {limit} bytes: ignored"));
    }

    /// Runs one command line; returns false when the engine should quit.
    ///
    /// `isready`, `stop`, `ponderhit` and `quit` are carried out at once. A command that needs
    /// the search state (`go`, `setoption`...) waits while a search runs, and so does every
    /// command after it, so that they run in the order sent: a `go` sent during a search is
    /// answered after it, in the position it was sent in.
    pub fn execute(&mut self, line: &str) -> bool {
        let Some(command) = line.split_whitespace().next() else {
            return true;
        };
        let timing = timing(command);
        if timing != Timing::AtOnce
            && (!self.waiting.is_empty() || timing == Timing::WhenIdle && self.searching())
        {
            self.waiting.push_back(Waiting {
                line: line.to_string(),
                stopped: false,
            });
            if self.waiting.len() > MAX_WAITING {
                error(format!(
                    "more than {MAX_WAITING} commands wait for the search: it is stopped"
                ));
                self.stop();
            }
            return true;
        }
        self.run(line)
    }

    /// Carries out one command line now; false for `quit`.
    fn run(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        if timing(command) == Timing::WhenIdle {
            self.wait();
        }
        match command {
            "uci" => self.uci(),
            "isready" => say!("readyok"),
            "debug" => match args {
                ["on"] => self.debug = true,
                ["off"] => self.debug = false,
                _ => error(format!(
                    "debug: expected on or off, not '{}'",
                    args.join(" ")
                )),
            },
            "ucinewgame" => {
                self.clear_hash();
                self.pool.clear();
            }
            "position" => match parse_position(args, self.mode()) {
                Ok(p) => {
                    self.position = p.position;
                    self.history = p.history;
                }
                Err(e) => error(e),
            },
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self
                .pool
                .signals()
                .pondering
                .store(false, Ordering::Relaxed),
            "quit" => {
                self.stop();
                return false;
            }
            "setoption" => {
                if let Err(e) = split_setoption(args).and_then(|(n, v)| self.set_option(&n, &v)) {
                    error(e);
                }
            }
            "set" => self.set(args),
            "d" => self.display(),
            "moves" => self.legal_moves(),
            "eval" => self.eval(),
            "perft" => self.perft_command(args),
            "bench" => self.bench(args),
            "stats" => crate::output::text(&self.last_notes.report()),
            "spsa" => crate::output::text(&Params::spsa_input()),
            "chapter-table" => self.chapter_table(args),
            "tree" => self.tree(args),
            other => error(format!("unknown command '{other}'")),
        }
        true
    }

    fn uci(&self) {
        say!("id name cb2026 {}", env!("CARGO_PKG_VERSION"));
        say!("id author the cb2026 developers");
        for line in options::declarations(self.technique_options) {
            say!("{line}");
        }
        say!("uciok");
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "hash" => {
                let mib =
                    options::parse_spin(name, value, 1, options::MAX_HASH_MIB as i64)? as usize;
                if mib != self.options.hash_mib {
                    let tt = Arc::new(TranspositionTable::try_new(mib)?);
                    self.pool.set_tt(tt);
                    self.options.hash_mib = mib;
                }
            }
            "threads" => {
                let threads =
                    options::parse_spin(name, value, 1, options::MAX_THREADS as i64)? as usize;
                self.pool.set_threads(threads)?;
                self.options.threads = threads;
            }
            "multipv" => {
                self.options.multipv =
                    options::parse_spin(name, value, 1, options::MAX_MULTIPV as i64)? as usize;
            }
            "move overhead" => {
                self.options.move_overhead =
                    options::parse_spin(name, value, 0, options::MAX_MOVE_OVERHEAD as i64)? as u64;
            }
            "ponder" => self.options.ponder = options::parse_check(name, value)?,
            "uci_chess960" => self.options.chess960 = options::parse_check(name, value)?,
            "uci_showwdl" => self.options.show_wdl = options::parse_check(name, value)?,
            "clear hash" => self.clear_hash(),
            "evalfile" => self.load_net(value)?,
            "syzygypath" => self.load_tablebases(value)?,
            "syzygyprobedepth" => {
                self.options.syzygy_probe_depth =
                    options::parse_spin(name, value, 1, options::MAX_PROBE_DEPTH)? as i32;
            }
            "syzygyprobelimit" => {
                self.options.syzygy_probe_limit =
                    options::parse_spin(name, value, 0, options::MAX_PROBE_LIMIT)? as usize;
            }
            "uci_limitstrength" => {
                self.options.limit_strength = options::parse_check(name, value)?;
            }
            "uci_elo" => {
                self.options.elo = options::parse_spin(
                    name,
                    value,
                    strength::MIN_ELO as i64,
                    strength::MAX_ELO as i64,
                )? as i32;
            }
            "syzygy50moverule" => {
                self.options.syzygy_50_move_rule = options::parse_check(name, value)?
            }
            _ => {
                // ANCHOR: setoption_switches
                // Technique and parameter names are lower case; like the others, any case goes.
                if self.techniques.get(&lower).is_some() {
                    let on = options::parse_check(name, value)?;
                    self.techniques.set(&lower, on)?;
                } else if self.params.get(&lower).is_some() {
                    let v =
                        options::parse_spin(name, value, i32::MIN as i64, i32::MAX as i64)? as i32;
                    self.params.set(&lower, v)?;
                } else {
                    return Err(format!("unknown option '{name}'"));
                }
                // ANCHOR_END: setoption_switches
            }
        }
        Ok(())
    }

    // ANCHOR: set_command
    /// `set NAME on|off` for a technique, `set NAME VALUE` for a parameter. Names are read in
    /// any case, as `setoption` reads them.
    fn set(&mut self, args: &[&str]) {
        let [name, value] = args else {
            error("usage: set NAME on|off|VALUE");
            return;
        };
        let lower = name.to_ascii_lowercase();
        let name = lower.as_str();
        let result = if self.techniques.get(name).is_some() {
            match parse_switch(value) {
                Some(on) => self.techniques.set(name, on),
                None => Err(format!("set {name}: expected on or off, not '{value}'")),
            }
        } else if self.params.get(name).is_some() {
            value
                .parse::<i32>()
                .map_err(|_| format!("set {name}: '{value}' is not a whole number"))
                .and_then(|v| self.params.set(name, v))
        } else {
            Err(format!("set: no technique or parameter called '{name}'"))
        };
        match result {
            Ok(()) => say!("info string {name} = {value}"),
            Err(e) => error(e),
        }
    }
    // ANCHOR_END: set_command

    fn go(&mut self, args: &[&str]) {
        let go_received = Instant::now();
        let limits = match parse_go(args, &self.position) {
            Ok(Go::Search { limits, errors }) => {
                if !errors.is_empty() {
                    error(format!("go: {}", errors.join("; ")));
                }
                limits
            }
            Ok(Go::Perft(depth)) => {
                let position = self.position.clone();
                self.perft(position, depth);
                return;
            }
            Err(e) => {
                error(e);
                return;
            }
        };
        let (mut techniques, params) = (self.techniques.clone(), self.params);
        let chess960 = self.options.chess960;
        // The win/draw/loss model reads the move number of the position searched.
        let wdl_move = self
            .options
            .show_wdl
            .then_some(self.position.fullmove_number());
        let mut options = SearchOptions {
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            go_received: Some(go_received),
            tablebases: self.probing(),
        };
        // ANCHOR: limit_strength
        // A chosen strength: fewer nodes, and a move drawn among several lines.
        let strength = self
            .options
            .limit_strength
            .then(|| Strength::new(self.options.elo));
        let mut limits = limits;
        if let Some(strength) = strength {
            limits.nodes = Some(limits.nodes.unwrap_or(u64::MAX).min(strength.nodes()));
            options.multipv = options.multipv.max(strength::CANDIDATES);
            // The levels were measured with the hand-crafted evaluation (chapter 19): the
            // network, worth about a hundred Elo at the same nodes, would play above them.
            techniques.nnue = false;
        }
        self.choice_seed = self.choice_seed.wrapping_add(1);
        let mut rng = Rng::new(self.choice_seed ^ self.position.hash());
        // ANCHOR_END: limit_strength
        let endless = !ends_by_itself(&limits, &self.position);
        if self.needs_limit && endless {
            self.failed.store(true, Ordering::Relaxed);
            error(
                "go: nothing can stop a search here: give it depth, nodes, movetime or the clock of the side to move",
            );
            return;
        }
        if self.debug {
            self.say_time_limits(&limits);
        }
        self.pool
            .signals()
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        // Should the job not start, the answer is a legal move all the same.
        let fallback = fallback_move(&self.position, &limits);
        let request = SearchRequest {
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            options,
            techniques,
            params,
        };
        let answered = self.answered.clone();
        let signals = self.pool.signals().clone();
        // ANCHOR: search_thread
        let job = Box::new(move |workers: &mut Workers| {
            let mut report = SearchReport::new(chess960, go_received, wdl_move);
            let mut lines = Lines::default();
            let mut result = run_search(workers, &request, &mut |info| {
                report.info(info);
                lines.record(info);
            });
            if let Some((mv, ponder)) = strength.and_then(|s| lines.choose(s, &mut rng)) {
                (result.best_move, result.ponder_move) = (Some(mv), ponder);
            }
            let limits = &request.limits;
            if result.best_move.is_none() && (limits.infinite || limits.ponder) {
                // UCI: such a search ends only at `stop` (or `ponderhit`), even with no move.
                wait_for_stop(&signals.stop, &signals.pondering, limits.infinite);
            }
            answered.store(true, Ordering::Relaxed);
            report.finish(&result);
        });
        // ANCHOR_END: search_thread
        if self.start_job(job) {
            self.endless = endless;
        } else {
            say!("{}", bestmove_line(fallback, None, chess960));
        }
    }

    // ANCHOR: say_time_limits
    /// `debug on`: what the time manager allots to this `go` (the search draws the same limits
    /// from the same clock), so that a user can see the effect of `Move Overhead` or `movestogo`.
    fn say_time_limits(&self, limits: &engine::time::Limits) {
        let side = self.position.side_to_move();
        let allotted = engine::time::allot(limits, side, self.options.move_overhead, &self.params);
        match allotted {
            Some(t) if t.fixed => say!("info string time: fixed {} ms", t.hard.as_millis()),
            Some(t) => say!(
                "info string time: soft {} ms, hard {} ms",
                t.soft.as_millis(),
                t.hard.as_millis()
            ),
            None => say!("info string time: no clock, no time limit"),
        }
    }
    // ANCHOR_END: say_time_limits

    /// Runs `job` on the search thread: a search, `go perft`, `perft` or `bench`, so that the
    /// input thread goes on answering `isready` and `stop` reaches the job (in a synchronous
    /// session: here, to its end). False, with an error said, if it could not be started.
    fn start_job(&mut self, job: engine::threads::Job<engine::Evaluation>) -> bool {
        self.endless = false;
        self.pool.signals().stop.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Relaxed);
        if let Err(e) = self.pool.start(job) {
            error(e);
            return false;
        }
        if self.synchronous {
            // The job is done and its workers are back: keep its counters for `stats`, as
            // `wait` does when a job on the search thread ends.
            if let Some(main) = self.pool.main() {
                self.last_notes = main.notes.clone();
            }
        }
        true
    }

    /// `ucinewgame` and `Clear Hash`: the table emptied in place by every search thread's share
    /// of the cores (see `TranspositionTable::clear_on_threads`).
    fn clear_hash(&mut self) {
        self.pool.tt().clear_on_threads(self.options.threads);
    }

    /// `moves`: the legal moves of the game's position in UCI notation, on one line (the word
    /// alone when there is none), for a board that lets its user play only those.
    fn legal_moves(&self) {
        let mut line = String::from("moves");
        for mv in self.position.legal_moves().iter() {
            line.push(' ');
            line.push_str(&mv.to_uci(self.options.chess960));
        }
        say!("{line}");
    }

    fn display(&self) {
        crate::output::text(&self.position.board_string());
        say!("Fen: {}", self.position.to_fen());
        say!("Hash: {:016x}", self.position.hash());
        let checkers: Vec<String> = self.position.checkers().map(|s| s.to_string()).collect();
        say!("Checkers: {}", checkers.join(" "));
    }

    /// Reads a network for `EvalFile`: on any error the current one stays.
    fn load_net(&mut self, value: &str) -> Result<(), String> {
        let value = value.trim();
        let net = if value.is_empty() || value == options::EMBEDDED_NET_NAME {
            nnue::embedded()
        } else {
            let bytes = read_net_file(value).map_err(|e| format!("EvalFile {value}: {e}"))?;
            let net = Network::from_bytes(&bytes).map_err(|e| format!("EvalFile {value}: {e}"))?;
            Arc::new(net)
        };
        say!(
            "info string network {} ({}) loaded",
            if value.is_empty() {
                options::EMBEDDED_NET_NAME
            } else {
                value
            },
            net.shape()
        );
        if !net.description.is_empty() {
            say!("info string network made by: {}", net.description);
        }
        self.net = net.clone();
        self.options.eval_file = value.to_string();
        self.pool.set_network(net);
        Ok(())
    }

    // ANCHOR: syzygy_path
    /// Reads the tables of `SyzygyPath`'s folders. Tables found are reported and used, with a line
    /// for each folder or file that could not be read; with none found, the tables in use stay.
    fn load_tablebases(&mut self, value: &str) -> Result<(), String> {
        let value = value.trim();
        if value.is_empty() || value == options::NO_SYZYGY_PATH {
            self.tablebases = None;
            self.options.syzygy_path.clear();
            return Ok(());
        }
        let loaded = Tablebases::open(value).map_err(|e| format!("SyzygyPath: {e}"))?;
        for problem in &loaded.problems {
            error(format!("SyzygyPath: {problem}"));
        }
        let tables = loaded.tablebases;
        say!(
            "info string Found {} tablebase files, up to {} pieces",
            tables.files(),
            tables.max_pieces()
        );
        self.tablebases = Some(Arc::new(tables));
        self.options.syzygy_path = value.to_string();
        Ok(())
    }
    // ANCHOR_END: syzygy_path

    /// The tables and the Syzygy options, for a search.
    fn probing(&self) -> Option<Probing> {
        let tables = self.tablebases.clone()?;
        Some(Probing {
            tables,
            depth: self.options.syzygy_probe_depth,
            limit: self.options.syzygy_probe_limit,
            fifty_move_rule: self.options.syzygy_50_move_rule,
        })
    }

    /// The hand-crafted evaluation term by term, then the network's score and what each piece is
    /// worth to it (the score with the piece minus the score without it).
    fn eval(&self) {
        let trace = HceEvaluator::default().trace(&self.position);
        crate::output::text(&trace.report());
        let values = nnue::piece_values(&self.net, &self.position);
        say!("");
        say!(
            "network: {}, made by: {}",
            self.net.shape(),
            if self.net.description.is_empty() {
                "(no description in its file)"
            } else {
                &self.net.description
            }
        );
        say!("network: what each piece is worth to it, in pawns, from White's view");
        crate::output::text(&values.board(&self.position));
        say!(
            "network score {} cp from White's view, {} cp for the side to move ({})",
            values.white_score,
            values.white_score * self.position.side_to_move().sign(),
            if self.techniques.nnue {
                "the search uses it: nnue on"
            } else {
                "not used: nnue off, the search uses the hand-crafted evaluation"
            }
        );
    }

    /// `perft DEPTH [FEN]`: counts the game's position, or the FEN's, which is read by the same
    /// castling rules as `position fen` and does not become the game's position.
    fn perft_command(&mut self, args: &[&str]) {
        let Some(depth) = args
            .first()
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|&d| d <= MAX_PERFT_DEPTH)
        else {
            error(format!(
                "usage: perft DEPTH [FEN] (depth 0 to {MAX_PERFT_DEPTH})"
            ));
            return;
        };
        let position = if args.len() > 1 {
            match Position::from_fen_with(&args[1..].join(" "), self.mode()) {
                Ok(pos) => pos,
                Err(e) => {
                    error(e);
                    return;
                }
            }
        } else {
            self.position.clone()
        };
        self.perft(position, depth);
    }

    /// Counts on the search thread; `stop` ends the count early, and it says so.
    fn perft(&mut self, position: Position, depth: u32) {
        let chess960 = self.options.chess960;
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        // An error if it can't start: `perft` owes no answer.
        self.start_job(Box::new(move |_| {
            let start = Instant::now();
            let total = divide(&position, depth, &signals.stop, |mv, nodes| {
                say!("{}: {nodes}", mv.to_uci(chess960));
            });
            answered.store(true, Ordering::Relaxed);
            let elapsed = start.elapsed();
            say!("");
            match total {
                Some(total) => {
                    say!("Nodes searched: {total}");
                    say!("Time: {} ms", elapsed.as_millis());
                    say!("NPS: {:.0}", total as f64 / elapsed.as_secs_f64().max(1e-9));
                }
                None => say!("info string perft stopped after {} ms", elapsed.as_millis()),
            }
        }));
    }

    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first().map(|d| d.parse::<i32>()) {
            None => DEFAULT_BENCH_DEPTH,
            Some(Ok(d)) if (1..=64).contains(&d) => d,
            Some(_) => {
                error("usage: bench [depth 1-64]");
                return;
            }
        };
        let (techniques, params) = (self.techniques.clone(), self.params);
        let net = self.net.clone();
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        // On the search thread like a search: `isready` is answered meanwhile, `stop` ends it.
        // One thread, whatever `Threads` says: the node count is the search's fingerprint.
        // An error if it can't start: `bench` owes no answer.
        self.start_job(Box::new(move |workers: &mut Workers| {
            let report =
                bench::run_with_signals(BENCH_POSITIONS, depth, &techniques, &params, net, signals);
            answered.store(true, Ordering::Relaxed);
            for (i, line) in report.lines.iter().enumerate() {
                say!(
                    "position {:>2}/{}: {:>10} nodes {:>6} ms  {}",
                    i + 1,
                    BENCH_POSITIONS.len(),
                    line.nodes,
                    line.time.as_millis(),
                    line.fen
                );
            }
            if report.stopped {
                say!(
                    "info string bench stopped after {} of {} positions",
                    report.lines.len(),
                    BENCH_POSITIONS.len()
                );
            }
            // `stats` shows the bench's counters, as after a search.
            workers.main.notes = report.notes.clone();
            say!("{} nodes {} nps", report.nodes, report.nps());
        }));
    }

    /// `tree ...` (see [`crate::tree`]): one search recorded on the search thread, like `bench`,
    /// then written to a file or shown as text.
    fn tree(&mut self, args: &[&str]) {
        let parsed = match crate::tree::parse(args, &self.techniques, self.mode()) {
            Ok(parsed) => parsed,
            Err(e) => {
                self.failed.store(true, Ordering::Relaxed);
                error(e);
                return;
            }
        };
        let (position, history) = match parsed.position {
            Some(pos) => (pos, Vec::new()),
            None => (self.position.clone(), self.history.clone()),
        };
        if !position.has_legal_moves() {
            self.failed.store(true, Ordering::Relaxed);
            error("tree: the position has no legal move");
            return;
        }
        let request = TreeRequest {
            position,
            history,
            depth: parsed.depth,
            techniques: parsed.techniques,
            params: self.params,
            cap: parsed.cap,
            chess960: self.options.chess960,
        };
        let (out, print) = (parsed.out, parsed.print);
        let net = self.net.clone();
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        let failed = self.failed.clone();
        let started = self.start_job(Box::new(move |workers: &mut Workers| {
            let tree = engine::tree::record(&request, net, signals);
            answered.store(true, Ordering::Relaxed);
            workers.main.notes = tree.counters.clone();
            if let Some(format) = print {
                let mut drawing = Vec::new();
                match write_tree(&tree, format, &mut drawing) {
                    Ok(()) => crate::output::text(&String::from_utf8_lossy(&drawing)),
                    Err(e) => error(format!("tree: {e}")),
                }
                return;
            }
            let Some((path, format)) = out else {
                crate::output::text(&engine::tree::text::to_text(&tree));
                return;
            };
            let written = std::fs::File::create(&path).and_then(|file| {
                use std::io::Write;
                let mut sink = std::io::BufWriter::new(file);
                write_tree(&tree, format, &mut sink)?;
                sink.flush()
            });
            match written {
                Ok(()) => {
                    let mut capped = String::new();
                    if tree.dropped > 0 {
                        capped = format!(" (cap reached: {} nodes not recorded)", tree.dropped);
                    }
                    if tree.stopped {
                        capped.push_str(" (stopped before the iteration ended)");
                    }
                    say!(
                        "info string tree depth {}: {} nodes written to {path}{capped}",
                        tree.depth,
                        tree.node_count()
                    );
                }
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    error(format!("tree: cannot write {path}: {e}"));
                }
            }
        }));
        if !started {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    fn chapter_table(&mut self, args: &[&str]) {
        let (depth, names) = match args.first().map(|a| a.parse::<i32>()) {
            Some(Ok(d)) => (d, &args[1..]),
            _ => (8, args),
        };
        if !(1..=20).contains(&depth) {
            error("chapter-table: depth from 1 to 20");
            return;
        }
        if let Some(bad) = names
            .iter()
            .find(|n| TECHNIQUES.iter().all(|t| t.name != **n))
        {
            error(format!("chapter-table: no technique called '{bad}'"));
            return;
        }
        match bench::chapter_table(names, depth, &self.techniques, &self.params) {
            Ok(table) => crate::output::text(&table),
            Err(e) => error(e),
        }
    }
}

/// What a `go` hands the search thread.
struct SearchRequest {
    position: Position,
    /// Hashes of the positions before `position` in the game.
    history: Vec<u64>,
    limits: Limits,
    options: SearchOptions,
    techniques: Techniques,
    params: Params,
}

/// The search of a `go`, on every thread of the pool, reporting each line to `report`: the one
/// place a `go` calls into the workers.
fn run_search(
    workers: &mut Workers,
    request: &SearchRequest,
    report: &mut dyn FnMut(&engine::Info),
) -> SearchResult {
    workers.main.techniques = request.techniques.clone();
    workers.main.params = request.params;
    let SearchRequest {
        position,
        history,
        limits,
        options,
        ..
    } = request;
    workers.search(position, history, limits, options, report)
}

/// Whether a search with `limits` in `position` ends by itself: a depth or node limit, a fixed
/// time, or a clock for the side to move. `infinite` and `ponder` wait for `stop` or
/// `ponderhit` whatever the limits, and `mate`, `movestogo` or an increment alone set no limit.
fn ends_by_itself(limits: &Limits, position: &Position) -> bool {
    let clock = match position.side_to_move() {
        Color::White => limits.wtime,
        Color::Black => limits.btime,
    };
    !limits.infinite
        && !limits.ponder
        && (limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || clock.is_some())
}

/// The answer to a `go` whose search could not start: a legal move (among `searchmoves` if
/// given), or none.
fn fallback_move(position: &Position, limits: &Limits) -> Option<chess::Move> {
    let moves = position.legal_moves();
    let mut allowed = moves
        .iter()
        .filter(|mv| limits.searchmoves.is_empty() || limits.searchmoves.contains(mv));
    allowed.next().copied()
}

/// Waits for `stop`, or with `infinite` false for the end of pondering (`ponderhit`).
fn wait_for_stop(stop: &AtomicBool, pondering: &AtomicBool, infinite: bool) {
    while !stop.load(Ordering::Relaxed) && (infinite || pondering.load(Ordering::Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Draws a recorded tree in `format`.
fn write_tree(
    tree: &engine::tree::Tree,
    format: Format,
    sink: &mut impl std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Svg => sink.write_all(engine::tree::svg::to_svg(tree).as_bytes()),
        Format::Html => engine::tree::html::write_html(tree, sink),
        Format::Json => engine::tree::json::write_json(tree, sink),
    }
}
