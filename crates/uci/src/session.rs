//! The engine as a GUI sees it: the current position and options, and a search running on its
//! own thread while this one keeps reading commands (so `stop` and `isready` are answered at once).
//! A synchronous session ([`Session::synchronous`], for the browser) runs each job to its end
//! before the next command instead.
//!
//! Every `go` gets exactly one `bestmove`: a `go` with arguments that can't be read searches with
//! those that can, one that fails to start is answered at once, and one sent while a search runs
//! waits for that search (see [`Session::execute`]). This file carries commands out; what they
//! are is `command.rs`, how the answers read is `output.rs`, the jobs on the search thread are
//! `session/jobs.rs` and the options `session/settings.rs`.

mod jobs;
mod settings;

use crate::command::{Command, Timing};
use crate::go::parse_position;
use crate::options::{self, Options};
use crate::output::{self, error, say};
use chess::{CastlingMode, Position};
use engine::clock::{SystemTime, UNIX_EPOCH};
use engine::eval::nnue::{self, Network};
use engine::tablebase::Tablebases;
use engine::{
    Counters, Evaluator, HceEvaluator, Params, PstEvaluator, SearchThread, Techniques, ThreadPool,
    TranspositionTable,
};
use std::collections::VecDeque;
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
    /// finished, and a command that follows `bestmove` at once must not wait.
    answered: Arc<AtomicBool>,
    last_notes: Counters,
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

/// A command's words, as the readers of `position`, `go` and `tree` take them.
fn words(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A command that came while a search ran and waits for it to end.
struct Waiting {
    command: Command,
    /// A `stop` came after it: a job it starts is stopped at once (and so answered at once).
    stopped: bool,
}

/// The most commands that wait for a search (each from a line of at most
/// [`crate::input::MAX_LINE_BYTES`]). A GUI sends one or two by mistake; one that sends more
/// without a `stop` gets the search stopped, as if it had sent `stop`, so that memory stays
/// bounded and no `go` is dropped.
const MAX_WAITING: usize = 64;

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

    /// Tells the running job (if any) to stop, and a pondering search to stop pondering.
    fn signal_stop(&self) {
        let signals = self.pool.signals();
        signals.stop.store(true, Ordering::Relaxed);
        signals.pondering.store(false, Ordering::Relaxed);
    }

    /// Keeps the counters of the job that just ended, for `stats`.
    fn keep_notes(&mut self) {
        if let Some(counters) = self.pool.counters() {
            self.last_notes = counters.clone();
        }
    }

    /// Waits for the search thread's job (if any) and takes the workers back.
    pub fn wait(&mut self) {
        let running = self.pool.counters().is_none();
        // A search thread that dies takes the process with it: under `panic = "abort"` (every
        // release build) at once, and in a build that unwinds the search thread's `wait` panics
        // in turn (see `SearchThread::wait`), so there is no lost job to recover from here.
        self.pool.wait();
        if running {
            self.keep_notes();
        }
    }

    /// The end of input: a job that ends by itself (a search with a limit, `bench`, `perft`)
    /// is waited for, so that `echo bench | cb2026` prints its result; one that would never
    /// end (`go infinite`, pondering, a `go` without a limit) is stopped. Commands that wait
    /// for a search run after it, in the same way.
    pub fn end_of_input(&mut self) {
        loop {
            if self.endless {
                self.signal_stop();
            }
            self.wait();
            if self.waiting.is_empty() {
                return;
            }
            self.run_waiting();
        }
    }

    /// `stop`: stops the running search and every job of the commands waiting for it (each `go`
    /// among them is answered at once), carries out those commands in order, and returns when
    /// every search has sent its `bestmove`.
    pub fn stop(&mut self) {
        for waiting in &mut self.waiting {
            waiting.stopped = true;
        }
        self.signal_stop();
        self.wait();
        self.run_waiting();
        self.signal_stop();
        self.wait();
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
            self.run(waiting.command);
            if waiting.stopped {
                self.signal_stop();
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
    /// answered after it, in the position it was sent in (see [`Command::timing`]).
    pub fn execute(&mut self, line: &str) -> bool {
        let Some(command) = Command::parse(line) else {
            return true;
        };
        let timing = command.timing();
        let waits = match timing {
            Timing::AtOnce => false,
            Timing::Alongside => !self.waiting.is_empty(),
            Timing::WhenIdle => !self.waiting.is_empty() || self.searching(),
        };
        if !waits {
            return self.run(command);
        }
        self.waiting.push_back(Waiting {
            command,
            stopped: false,
        });
        if self.waiting.len() > MAX_WAITING {
            error(format!(
                "more than {MAX_WAITING} commands wait for the search: it is stopped"
            ));
            self.stop();
        }
        true
    }

    /// Carries out one command now; false for `quit`.
    fn run(&mut self, command: Command) -> bool {
        if command.timing() == Timing::WhenIdle {
            self.wait();
        }
        match command {
            Command::Uci => {
                let declarations = options::declarations(self.technique_options);
                output::text(&output::handshake(&declarations));
            }
            Command::IsReady => say!("readyok"),
            Command::Debug(on) => self.debug = on,
            Command::UciNewGame => {
                self.clear_hash();
                self.pool.clear();
            }
            Command::Position(args) => match parse_position(&words(&args), self.mode()) {
                Ok(p) => {
                    self.position = p.position;
                    self.history = p.history;
                }
                Err(e) => error(e),
            },
            Command::Go(args) => self.go(&words(&args)),
            Command::Stop => self.stop(),
            Command::PonderHit => self
                .pool
                .signals()
                .pondering
                .store(false, Ordering::Relaxed),
            Command::Quit => {
                self.stop();
                return false;
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, &value) {
                    error(e);
                }
            }
            Command::Set { name, value } => self.set(&name, &value),
            Command::Display => output::text(&output::board(&self.position)),
            Command::Moves => say!(
                "{}",
                output::legal_moves_line(&self.position, self.options.chess960)
            ),
            Command::Eval => self.eval(),
            Command::Perft { depth, fen } => self.perft_command(depth, fen.as_deref()),
            Command::Bench { depth, stage } => self.bench(depth, stage),
            Command::Genfens(request) => self.genfens(request),
            Command::Stats => output::text(&self.last_notes.report()),
            Command::Spsa => output::text(&Params::spsa_input()),
            Command::ChapterTable {
                depth,
                techniques,
                stage,
            } => self.chapter_table(depth, &techniques, stage),
            Command::Tree(args) => self.tree(&words(&args)),
            Command::Refused(message) => error(message),
        }
        true
    }

    /// The hand-crafted evaluation term by term (with `hce` off, the first evaluation's material
    /// and squares), then the network's score and what each piece is worth to it (the score with
    /// the piece minus the score without it).
    fn eval(&self) {
        let trace = if self.techniques.hce {
            HceEvaluator::default().trace(&self.position)
        } else {
            PstEvaluator.trace(&self.position)
        };
        output::text(&trace.report());
        let values = nnue::piece_values(&self.net, &self.position);
        output::text(&output::network_evaluation(
            &self.net,
            &values,
            &self.position,
            &self.techniques,
        ));
    }
}
