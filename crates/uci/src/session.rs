//! The engine as a GUI sees it: the current position and options, and a search running on its
//! own thread while this one keeps reading commands (so `stop` and `isready` are answered at once).
//! A synchronous session ([`Session::synchronous`], for the browser) runs each job to its end
//! before the next command instead.

use crate::go::{Go, parse_go, parse_position};
use crate::options::{self, Options};
use crate::output::say;
use crate::tree::Format;
use chess::rng::Rng;
use chess::{CastlingMode, Position, divide};
use engine::clock::{Instant, SystemTime, UNIX_EPOCH};
use engine::eval::nnue::{self, Network};
use engine::score::UciScore;
use engine::strength::{self, Lines, Strength};
use engine::tablebase::{Probing, Tablebases};
use engine::techniques::parse_switch;
use engine::tools::bench::{self, BENCH_POSITIONS, DEFAULT_BENCH_DEPTH};
use engine::tools::chapter_table::chapter_table;
use engine::tools::tree::TreeRequest;
use engine::{
    Bound, Counters, Evaluator, HceEvaluator, Info, Params, SearchOptions, SearchThread,
    TECHNIQUES, Techniques, ThreadPool, TranspositionTable,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
    pool: SearchThread,
    /// Set by the search thread just before it sends `bestmove`: from then on it is as good as
    /// finished, and a command that follows `bestmove` at once must not be refused.
    answered: Arc<AtomicBool>,
    last_notes: Counters,
    /// The running job ends only when told to (`go infinite`, `go ponder`).
    endless: bool,
    /// List every technique as a UCI option (`cb2026 --technique-options`, for match runners);
    /// otherwise a GUI's settings dialog shows only what a player sets.
    technique_options: bool,
    /// A command given on the command line failed (the binary then exits with status 1).
    failed: Arc<AtomicBool>,
    /// Jobs run to their end inside `execute` (see [`Session::synchronous`]).
    synchronous: bool,
    /// UCI's `debug on`: each timed `go` says what the time manager allots (chapter 11).
    debug: bool,
}

// ANCHOR: error
fn error(message: impl std::fmt::Display) {
    say!("info string error: {}", clip_words(&message.to_string()));
}
// ANCHOR_END: error

/// The longest word an error message repeats whole: a bad token is echoed so the user sees what
/// was refused, but a megabyte of garbage comes back as its first 40 characters and an ellipsis.
const ECHO_CHARS: usize = 40;

fn clip_words(message: &str) -> String {
    let mut clipped = String::with_capacity(message.len().min(400));
    for (i, word) in message.split(' ').enumerate() {
        if i > 0 {
            clipped.push(' ');
        }
        if word.chars().count() > ECHO_CHARS {
            clipped.extend(word.chars().take(ECHO_CHARS));
            clipped.push_str("...");
        } else {
            clipped.push_str(word);
        }
    }
    clipped
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

impl Session {
    pub fn new(technique_options: bool) -> Session {
        Session::build(technique_options, false)
    }

    /// A session for a host without threads (the browser build, in a Web Worker): each search,
    /// `perft`, `bench` or `tree` runs to its end on the caller's thread before `execute`
    /// returns. Nothing can stop a job meanwhile, so a `go` needs a limit (`depth`, `nodes`,
    /// `movetime` or a clock): `go infinite`, `go ponder` and a bare `go` are refused.
    pub fn synchronous(technique_options: bool) -> Session {
        Session::build(technique_options, true)
    }

    fn build(technique_options: bool, synchronous: bool) -> Session {
        let tt = Arc::new(TranspositionTable::new(options::DEFAULT_HASH_MIB));
        let net = nnue::embedded();
        let mut pool = SearchThread::new(ThreadPool::with_network(tt, net.clone()));
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
            last_notes: Counters::default(),
            endless: false,
            technique_options,
            failed: Arc::new(AtomicBool::new(false)),
            synchronous,
            debug: false,
        }
    }

    /// Whether a command failed (so far only `tree` says so), for the exit status.
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
        let running = self.pool.counters().is_none();
        self.pool.wait();
        if running {
            if let Some(notes) = self.pool.counters() {
                self.last_notes = notes.clone();
            }
        }
    }

    /// The end of input: a job that ends by itself (a search with a limit, `bench`, `perft`)
    /// is waited for, so that `echo bench | cb2026` prints its result; one that would never
    /// end (`go infinite`, pondering) is stopped.
    pub fn end_of_input(&mut self) {
        if self.endless {
            self.stop();
        } else {
            self.wait();
        }
    }

    /// Stops any search and waits for it.
    pub fn stop(&mut self) {
        let signals = self.pool.signals();
        signals.stop.store(true, Ordering::Relaxed);
        signals.pondering.store(false, Ordering::Relaxed);
        self.wait();
    }

    /// Runs one command line; returns false when the engine should quit.
    pub fn execute(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        // ANCHOR: needs_idle
        // Commands that change the search state wait for a finished search to hand it back.
        let needs_idle = matches!(
            command,
            "go" | "ucinewgame"
                | "setoption"
                | "set"
                | "bench"
                | "perft"
                | "stats"
                | "chapter-table"
                | "tree"
        );
        if needs_idle && self.searching() {
            error(format!("'{command}' while searching: send 'stop' first"));
            return true;
        }
        if needs_idle {
            self.wait();
        }
        // ANCHOR_END: needs_idle
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
            Ok(Go::Search(limits)) => limits,
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
        let endless = limits.infinite || limits.ponder;
        let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.is_timed();
        if self.synchronous && (endless || !limited) {
            error(
                "go: this session runs each search to its end and cannot be stopped: give it depth, nodes, movetime or a clock",
            );
            return;
        }
        if self.debug {
            self.say_time_limits(&limits);
        }
        let (mut techniques, params) = (self.techniques.clone(), self.params);
        self.pool
            .signals()
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let answered = self.answered.clone();
        let position = self.position.clone();
        let history = self.history.clone();
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
        // ANCHOR: search_thread
        let job = Box::new(move |pool: &mut ThreadPool| {
            pool.set_switches(&techniques, &params);
            let mut lines = Lines::default();
            let mut result = pool.search(&position, &history, &limits, &options, &mut |info| {
                say!("{}", info_line(info, chess960, go_received, wdl_move));
                lines.record(info);
            });
            if let Some((mv, ponder)) = strength.and_then(|s| lines.choose(s, &mut rng)) {
                (result.best_move, result.ponder_move) = (Some(mv), ponder);
            }
            answered.store(true, Ordering::Relaxed);
            match result.best_move {
                Some(best) => match result.ponder_move {
                    Some(ponder) => say!(
                        "bestmove {} ponder {}",
                        best.to_uci(chess960),
                        ponder.to_uci(chess960)
                    ),
                    None => say!("bestmove {}", best.to_uci(chess960)),
                },
                None => say!("bestmove 0000"),
            }
        });
        // ANCHOR_END: search_thread
        self.start_job(job);
        self.endless = endless;
    }

    /// Runs `job` on the search thread: a search, `go perft`, `perft` or `bench`, so that the
    /// input thread goes on answering `isready` and `stop` reaches the job (in a synchronous
    /// session: here, to its end).
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

    fn start_job(&mut self, job: engine::threads::Job<engine::Evaluation>) {
        self.endless = false;
        self.pool.signals().stop.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Relaxed);
        if let Err(e) = self.pool.start(job) {
            error(e);
        } else if self.synchronous {
            // The job is done and its workers are back: keep its counters for `stats`, as
            // `wait` does when a job on the search thread ends.
            if let Some(notes) = self.pool.counters() {
                self.last_notes = notes.clone();
            }
        }
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
            .filter(|&d| d <= 20)
        else {
            error("usage: perft DEPTH [FEN] (depth 0 to 20)");
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
        self.start_job(Box::new(move |pool: &mut ThreadPool| {
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
            pool.show_counters(report.counters.clone());
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
        self.start_job(Box::new(move |pool: &mut ThreadPool| {
            let tree = engine::tools::tree::record(&request, net, signals);
            answered.store(true, Ordering::Relaxed);
            pool.show_counters(tree.counters.clone());
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
        match chapter_table(names, depth, &self.techniques, &self.params) {
            Ok(table) => crate::output::text(&table),
            Err(e) => error(e),
        }
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

/// An `info` line in UCI's format; with `wdl_move` (`UCI_ShowWDL`, the root's move number) the
/// score's win/draw/loss chances too.
fn info_line(info: &Info, chess960: bool, start: Instant, wdl_move: Option<u32>) -> String {
    let score = UciScore::from_score(info.score);
    let mut bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    }
    .to_string();
    if let Some(fullmove) = wdl_move {
        let [w, d, l] = engine::wdl::wdl(info.score, fullmove);
        bound.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let millis = start.elapsed().as_millis().max(info.time.as_millis());
    let nps = (info.nodes as f64 / (millis.max(1) as f64 / 1000.0)) as u64;
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci(chess960)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {millis} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        info.tbhits,
        pv.join(" ")
    )
}
