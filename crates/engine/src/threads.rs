//! Lazy SMP: several threads search the same root at once, each with its own histories and
//! stack, all sharing one hash table. They don't divide the tree between them; they meet in the
//! table, where each finds what the others stored and so skips work or orders better. The main
//! thread keeps the clock, reports and decides when to stop; the helpers stop when it does, and
//! the best move comes from the thread whose move the most (and deepest) threads voted for.
//!
//! [`ThreadPool`] is what the UCI session holds: the persistent search thread (a `go` starts no
//! thread, so a fast move costs no thread start), the workers while idle, and what they share.

use crate::eval::nnue::Network;
use crate::eval::{Evaluation, Evaluator};
use crate::notes::Notes;
use crate::score::MATE_BOUND;
use crate::search::{Info, Search, SearchOptions, SearchResult, Signals};
use crate::time::Limits;
use crate::tt::TranspositionTable;
use chess::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// Every search thread's stack: deep recursion with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// The most threads a search may use.
pub const MAX_THREADS: usize = 1024;

/// What a helper found, for the vote and `stats`.
struct HelperReport {
    result: SearchResult,
    /// The line of its last completed iteration.
    info: Option<Info>,
    notes: Notes,
}

type HelperJob<E> = Box<dyn FnOnce(&mut Search<E>) -> Option<HelperReport> + Send>;

/// A helper thread: it owns its worker for good and runs what it is sent, one job at a time.
struct Helper<E: Evaluator> {
    jobs: Sender<HelperJob<E>>,
    replies: Receiver<Option<HelperReport>>,
}

impl<E: Evaluator + 'static> Helper<E> {
    fn start(mut worker: Search<E>) -> std::io::Result<Helper<E>> {
        let (jobs, queue) = channel::<HelperJob<E>>();
        let (reply, replies) = channel();
        std::thread::Builder::new()
            .name(format!("helper {}", worker.thread_id))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for job in queue {
                    if reply.send(job(&mut worker)).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Helper { jobs, replies })
    }
}

/// Sends every helper a job; which ones took it (a helper that has gone, after a panic: a bug,
/// takes none).
fn send_to_helpers<E: Evaluator + 'static>(
    helpers: &[Helper<E>],
    mut job: impl FnMut() -> HelperJob<E>,
) -> Vec<bool> {
    helpers.iter().map(|h| h.jobs.send(job()).is_ok()).collect()
}

/// The replies of the helpers that took a job: a helper that dies instead of answering is left
/// out rather than waited for.
fn replies<E: Evaluator + 'static>(helpers: &[Helper<E>], sent: Vec<bool>) -> Vec<HelperReport> {
    helpers
        .iter()
        .zip(sent)
        .filter_map(|(h, sent)| {
            if sent {
                h.replies.recv().ok().flatten()
            } else {
                None
            }
        })
        .collect()
}

/// The threads of a search: the main worker, on the thread that runs the search, and the helpers.
pub struct Workers<E: Evaluator = Evaluation> {
    pub main: Search<E>,
    helpers: Vec<Helper<E>>,
}

impl<E: Evaluator + 'static> Workers<E> {
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    // ANCHOR: smp_search
    /// Searches `pos` on every thread (see [`Search::run`] for the arguments); the main thread
    /// reports, and the result is the voted thread's.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let signals = self.main.signals.clone();
        signals.begin_search();
        self.main.tt.new_search();
        // The helpers search one line (no MultiPV) with the main thread's switches.
        let helper_options = SearchOptions {
            multipv: 1,
            ..options.clone()
        };
        let (techniques, params) = (self.main.techniques.clone(), self.main.params);
        let sent = send_to_helpers(&self.helpers, || {
            let (pos, history, limits) = (pos.clone(), history.to_vec(), limits.clone());
            let (options, techniques) = (helper_options.clone(), techniques.clone());
            Box::new(move |worker| {
                worker.techniques = techniques;
                worker.params = params;
                let result = worker.iterate(&pos, &history, &limits, &options, &mut |_| {});
                let info = (result.depth > 0).then(|| worker.info(result.depth, 0, None));
                let notes = worker.notes.clone();
                Some(HelperReport {
                    result,
                    info,
                    notes,
                })
            })
        });
        let mut result = self.main.iterate(pos, history, limits, options, report);
        // The main thread is done: so are the helpers, at their next look at the flags.
        signals.finished.store(true, Ordering::Relaxed);
        let reports = replies(&self.helpers, sent);
        for r in &reports {
            self.main.notes.merge(&r.notes);
        }
        result.nodes = signals.nodes.load(Ordering::Relaxed);
        if options.multipv > 1 || reports.is_empty() {
            return result;
        }
        let mut results = vec![result.clone()];
        results.extend(reports.iter().map(|r| r.result.clone()));
        let chosen = vote(&results);
        if chosen == 0 {
            return result;
        }
        // Another thread's line wins: show it, so the GUI's last line leads to the best move.
        let helper = &reports[chosen - 1];
        if let Some(info) = &helper.info {
            report(&Info {
                nodes: result.nodes,
                time: self.main.time.elapsed(),
                hashfull: self.main.tt.hashfull(),
                ..info.clone()
            });
        }
        SearchResult {
            nodes: result.nodes,
            ..helper.result.clone()
        }
    }
    // ANCHOR_END: smp_search

    /// Runs `f` on every worker (the helpers on their own threads).
    fn for_each(&mut self, f: impl Fn(&mut Search<E>) + Clone + Send + 'static) {
        f(&mut self.main);
        let sent = send_to_helpers(&self.helpers, || {
            let f = f.clone();
            Box::new(move |worker| {
                f(worker);
                None
            })
        });
        replies(&self.helpers, sent);
    }
}

// ANCHOR: vote
/// Which thread's move to play. Each thread that completed an iteration votes for its move with
/// a weight that grows with its depth and with its score above the worst; the thread whose move
/// has the most weight wins, the deepest of them if several share that move. A proven mate
/// overrides the vote: the shortest one found is played.
fn vote(results: &[SearchResult]) -> usize {
    let voters = || {
        results
            .iter()
            .filter(|r| r.depth > 0 && r.best_move.is_some())
    };
    let Some(worst) = voters().map(|r| r.score).min() else {
        return 0;
    };
    let weight = |r: &SearchResult| (r.score - worst + 10) as i64 * r.depth as i64;
    let votes_for =
        |mv: Option<Move>| -> i64 { voters().filter(|r| r.best_move == mv).map(weight).sum() };
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        if r.depth == 0 || r.best_move.is_none() {
            continue;
        }
        let b = &results[best];
        let better = if r.score >= MATE_BOUND || b.score >= MATE_BOUND {
            r.score > b.score
        } else {
            let (mine, theirs) = (votes_for(r.best_move), votes_for(b.best_move));
            b.depth == 0 || mine > theirs || (mine == theirs && r.depth > b.depth)
        };
        if better {
            best = i;
        }
    }
    best
}
// ANCHOR_END: vote

/// A job for the search thread: a search, `bench` or `perft`.
pub type Job<E> = Box<dyn FnOnce(&mut Workers<E>) + Send>;

/// The one thread that runs every job of a session, started at the first and then kept.
struct SearchThread<E: Evaluator> {
    /// Dropping the sender ends the thread's loop once its current job (if any) is done; the
    /// thread is not joined, so dropping a pool never waits on a search no one stopped.
    jobs: Sender<(Job<E>, Workers<E>)>,
    results: Receiver<Workers<E>>,
    handle: JoinHandle<()>,
}

/// Builds a thread's evaluator: each thread needs its own (an incremental evaluation keeps a
/// state per line).
type EvaluatorFactory<E> = Arc<dyn Fn() -> E + Send + Sync>;

/// What the UCI session holds: the workers, the search thread that runs their jobs, and what the
/// threads share (the hash table, the signals).
pub struct ThreadPool<E: Evaluator + 'static = Evaluation> {
    /// `None` while a job runs: the search thread has them.
    workers: Option<Workers<E>>,
    thread: Option<SearchThread<E>>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    new_evaluator: EvaluatorFactory<E>,
    threads: usize,
    /// Jobs run on the caller's thread (see [`ThreadPool::inline`]).
    inline: bool,
}

impl ThreadPool<Evaluation> {
    /// The engine's own pool: every thread evaluates with `net` or the hand-crafted evaluation.
    pub fn with_network(tt: Arc<TranspositionTable>, net: Arc<Network>) -> ThreadPool {
        ThreadPool::new(tt, move || Evaluation::new(net.clone()))
    }

    /// Another network for every thread (`EvalFile`), from the next search on.
    pub fn set_network(&mut self, net: Arc<Network>) {
        self.set_evaluator(move || Evaluation::new(net.clone()));
    }
}

impl<E: Evaluator + 'static> ThreadPool<E> {
    /// One thread; no thread is started until the first job.
    pub fn new(
        tt: Arc<TranspositionTable>,
        new_evaluator: impl Fn() -> E + Send + Sync + 'static,
    ) -> ThreadPool<E> {
        let mut pool = ThreadPool {
            workers: None,
            thread: None,
            tt,
            signals: Arc::new(Signals::default()),
            new_evaluator: Arc::new(new_evaluator),
            threads: 1,
            inline: false,
        };
        pool.workers = Some(pool.fresh_workers(1));
        pool
    }

    /// The same pool running each job on the calling thread, to its end, instead of on the
    /// search thread: for a host that has no threads (the browser build, inside a Web Worker).
    /// [`ThreadPool::start`] then returns only when the job is done, so nothing can stop it
    /// meanwhile: the caller gives every job a limit.
    pub fn inline(mut self) -> ThreadPool<E> {
        self.inline = true;
        self
    }

    fn worker(&self, thread_id: usize) -> Search<E> {
        let mut worker = Search::new(
            self.tt.clone(),
            (self.new_evaluator)(),
            self.signals.clone(),
        );
        worker.thread_id = thread_id;
        worker
    }

    /// `threads` new workers; fewer if the system won't start more threads.
    fn fresh_workers(&self, threads: usize) -> Workers<E> {
        let mut workers = Workers {
            main: self.worker(0),
            helpers: Vec::new(),
        };
        self.add_helpers(&mut workers, threads);
        workers
    }

    fn add_helpers(&self, workers: &mut Workers<E>, threads: usize) {
        while workers.threads() < threads {
            match Helper::start(self.worker(workers.threads())) {
                Ok(helper) => workers.helpers.push(helper),
                Err(_) => break,
            }
        }
    }

    pub fn signals(&self) -> &Arc<Signals> {
        &self.signals
    }

    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The main worker, while no job runs.
    pub fn main(&mut self) -> Option<&mut Search<E>> {
        self.workers.as_mut().map(|w| &mut w.main)
    }

    /// How many threads search (while idle; else as last set).
    pub fn threads(&self) -> usize {
        self.workers.as_ref().map_or(self.threads, Workers::threads)
    }

    // ANCHOR: set_threads
    /// `threads` threads from the next search on (between searches only). Helpers beyond the
    /// number go (their threads end), new ones start with empty histories.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        let threads = threads.clamp(1, MAX_THREADS);
        self.threads = threads;
        let Some(mut workers) = self.workers.take() else {
            return Ok(());
        };
        workers.helpers.truncate(threads - 1);
        self.add_helpers(&mut workers, threads);
        let started = workers.threads();
        self.workers = Some(workers);
        if started < threads {
            return Err(format!("could start only {started} of {threads} threads"));
        }
        Ok(())
    }
    // ANCHOR_END: set_threads

    /// Another hash table for every thread (`Hash`, `Clear Hash`, `ucinewgame`).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt.clone();
        if let Some(workers) = &mut self.workers {
            workers.for_each(move |w| w.set_tt(tt.clone()));
        }
    }

    /// Another evaluator for every thread, built by `new_evaluator`.
    pub fn set_evaluator(&mut self, new_evaluator: impl Fn() -> E + Send + Sync + 'static) {
        self.new_evaluator = Arc::new(new_evaluator);
        let make = self.new_evaluator.clone();
        if let Some(workers) = &mut self.workers {
            workers.for_each(move |w| w.set_evaluator(make()));
        }
    }

    /// Forgets what every thread learned (`ucinewgame`).
    pub fn clear(&mut self) {
        if let Some(workers) = &mut self.workers {
            workers.for_each(Search::clear);
        }
    }

    /// Runs `job` on the search thread, starting it at the first job (or, [`inline`], here and
    /// to its end). The caller has waited for the previous one.
    ///
    /// [`inline`]: ThreadPool::inline
    pub fn start(&mut self, job: Job<E>) -> Result<(), String> {
        if self.inline {
            let mut workers = match self.workers.take() {
                Some(workers) => workers,
                None => self.fresh_workers(self.threads),
            };
            job(&mut workers);
            self.workers = Some(workers);
            return Ok(());
        }
        if self.thread.is_none() {
            self.thread = Some(Self::spawn().map_err(|e| format!("no search thread: {e}"))?);
        }
        let workers = match self.workers.take() {
            Some(workers) => workers,
            None => self.fresh_workers(self.threads),
        };
        let sent = self
            .thread
            .as_ref()
            .is_some_and(|t| t.jobs.send((job, workers)).is_ok());
        if !sent {
            self.lost();
            return Err("the search thread has gone; its state was reset".into());
        }
        Ok(())
    }

    fn spawn() -> std::io::Result<SearchThread<E>> {
        let (jobs, queue) = channel::<(Job<E>, Workers<E>)>();
        let (finished, results) = channel();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for (job, mut workers) in queue {
                    job(&mut workers);
                    if finished.send(workers).is_err() {
                        break;
                    }
                }
            })?;
        Ok(SearchThread {
            jobs,
            results,
            handle,
        })
    }

    /// Whether a job was started, its workers are not yet back, and the thread is alive.
    pub fn is_running(&self) -> bool {
        self.workers.is_none()
            && self
                .thread
                .as_ref()
                .is_some_and(|t| !t.handle.is_finished())
    }

    /// Waits for the running job (if any) and takes the workers back. `Err` if the job died
    /// (a panic: a bug); the pool then starts afresh.
    pub fn wait(&mut self) -> Result<(), String> {
        if self.workers.is_some() {
            return Ok(());
        }
        match self.thread.as_ref().map(|t| t.results.recv()) {
            Some(Ok(workers)) => {
                self.workers = Some(workers);
                Ok(())
            }
            _ => {
                self.lost();
                Err("the search thread failed; its state was reset".into())
            }
        }
    }

    /// After a lost job: a new search thread at the next job, and new workers now.
    fn lost(&mut self) {
        self.thread = None;
        self.workers = Some(self.fresh_workers(self.threads));
    }
}
