//! The thread pool: the workers of a search and what they share, and [`ThreadPool::search`],
//! every search's one way in.

use super::Signals;
use super::helper::{Helper, HelperReport};
use super::timekeeper::Timekeeper;
use super::vote::vote;
use crate::counters::Counters;
use crate::eval::nnue::Network;
use crate::eval::{Evaluation, Evaluator};
use crate::params::Params;
use crate::search::{Info, SearchOptions, SearchResult, Worker};
use crate::techniques::Techniques;
use crate::time::Limits;
use crate::tt::TranspositionTable;
use chess::Position;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The most threads a search may use.
pub const MAX_THREADS: usize = 1024;

/// Builds a thread's evaluator: each thread needs its own (an incremental evaluation keeps a
/// state per line).
type EvaluatorFactory<E> = Arc<dyn Fn() -> E + Send + Sync>;

/// The workers of a search and what they share: the main worker, which searches on the thread
/// that calls [`ThreadPool::search`], the helpers on threads of their own, the hash table, the
/// signals and the switches.
pub struct ThreadPool<E: Evaluator + 'static = Evaluation> {
    main: Worker<E>,
    helpers: Vec<Helper<E>>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    new_evaluator: EvaluatorFactory<E>,
    techniques: Techniques,
    params: Params,
    /// The counters of the last search, every thread's.
    counters: Counters,
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
    /// One thread, the caller's: no thread is started until [`ThreadPool::set_threads`] asks
    /// for more.
    pub fn new(
        tt: Arc<TranspositionTable>,
        new_evaluator: impl Fn() -> E + Send + Sync + 'static,
    ) -> ThreadPool<E> {
        let signals = Arc::new(Signals::default());
        let main = Worker::new(0, tt.clone(), new_evaluator(), signals.clone());
        ThreadPool {
            main,
            helpers: Vec::new(),
            tt,
            signals,
            new_evaluator: Arc::new(new_evaluator),
            techniques: Techniques::default(),
            params: Params::default(),
            counters: Counters::default(),
        }
    }

    /// The same pool stopped by `signals`, another pool's: a `bench` or `tree` that a session
    /// runs as a job, which its `stop` must reach. Before any helper is started.
    pub fn with_signals(mut self, signals: Arc<Signals>) -> ThreadPool<E> {
        self.helpers.clear();
        self.main.signals = signals.clone();
        self.signals = signals;
        self
    }

    pub fn signals(&self) -> &Arc<Signals> {
        &self.signals
    }

    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// How many threads search.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// The counters of the last search, every thread's (for `stats`).
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Replaces the counters `stats` shows: a `bench` or `tree` run as a job shows its own.
    pub fn show_counters(&mut self, counters: Counters) {
        self.counters = counters;
    }

    // ANCHOR: set_switches
    /// The techniques and parameters every worker searches with, from the next search on: the
    /// one way they reach the workers.
    pub fn set_switches(&mut self, techniques: &Techniques, params: &Params) {
        self.techniques = techniques.clone();
        self.params = *params;
        self.main.techniques = techniques.clone();
        self.main.params = *params;
    }
    // ANCHOR_END: set_switches

    fn worker(&self, thread_id: usize) -> Worker<E> {
        let evaluator = (self.new_evaluator)();
        Worker::new(thread_id, self.tt.clone(), evaluator, self.signals.clone())
    }

    // ANCHOR: set_threads
    /// `threads` threads from the next search on. Helpers beyond the number go (their threads
    /// end), new ones start with empty histories; fewer if the system won't start more threads.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        let threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(threads - 1);
        while self.threads() < threads {
            match Helper::start(self.worker(self.threads())) {
                Ok(helper) => self.helpers.push(helper),
                Err(_) => break,
            }
        }
        let started = self.threads();
        if started < threads {
            return Err(format!("could start only {started} of {threads} threads"));
        }
        Ok(())
    }
    // ANCHOR_END: set_threads

    /// Runs `f` on every worker (the helpers on their own threads) and waits for all of them.
    fn for_each(&mut self, f: impl Fn(&mut Worker<E>) + Clone + Send + 'static) {
        f(&mut self.main);
        for helper in &self.helpers {
            let f = f.clone();
            helper.send(Box::new(move |worker| {
                f(worker);
                None
            }));
        }
        for helper in &self.helpers {
            helper.reply();
        }
    }

    /// Another hash table for every thread (`Hash`).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt.clone();
        self.for_each(move |w| w.tt = tt.clone());
    }

    /// Another evaluator for every thread, built by `new_evaluator`, from the next search on.
    pub fn set_evaluator(&mut self, new_evaluator: impl Fn() -> E + Send + Sync + 'static) {
        self.new_evaluator = Arc::new(new_evaluator);
        let make = self.new_evaluator.clone();
        self.for_each(move |w| w.evaluator = make());
    }

    /// Forgets what every thread learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.for_each(Worker::clear);
    }

    // ANCHOR: smp_search
    /// Searches `pos`, reached through the positions hashed in `history` (oldest first), within
    /// `limits` on every thread; the main thread reports each iteration to `report`, and the
    /// result is the voted thread's.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.signals.begin_search();
        self.tt.new_search();
        // The helpers search one line (no MultiPV) with the pool's switches.
        let helper_options = SearchOptions {
            multipv: 1,
            ..options.clone()
        };
        for helper in &self.helpers {
            let (pos, history, limits) = (pos.clone(), history.to_vec(), limits.clone());
            let (options, techniques) = (helper_options.clone(), self.techniques.clone());
            let params = self.params;
            helper.send(Box::new(move |worker| {
                worker.techniques = techniques;
                worker.params = params;
                let result = worker.iterate(&pos, &history, &limits, &options, &mut |_| {});
                let info = (result.depth > 0).then(|| worker.info(result.depth, 0, None));
                let counters = worker.counters.clone();
                Some(HelperReport {
                    result,
                    info,
                    counters,
                })
            }));
        }
        let side = pos.side_to_move();
        let timekeeper = Timekeeper::new(
            limits,
            side,
            options.go_received,
            options.move_overhead,
            &self.params,
        );
        self.main.timekeeper = Some(timekeeper);
        let mut result = self.main.iterate(pos, history, limits, options, report);
        self.wait_while_pondering(limits.infinite);
        // The main thread is done: so are the helpers, at their next look at the flags.
        self.signals.finished.store(true, Ordering::Relaxed);
        let reports: Vec<HelperReport> = self.helpers.iter().filter_map(Helper::reply).collect();
        let timekeeper = self.main.timekeeper.take();
        self.counters = self.main.counters.clone();
        for r in &reports {
            self.counters.merge(&r.counters);
        }
        result.nodes = self.signals.nodes.load(Ordering::Relaxed);
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
                time: timekeeper.map_or(Duration::ZERO, |t| t.elapsed()),
                hashfull: self.tt.hashfull(),
                ..info.clone()
            });
        }
        SearchResult {
            nodes: result.nodes,
            ..helper.result.clone()
        }
    }
    // ANCHOR_END: smp_search

    /// In `go infinite` and `go ponder` the best move may only be sent after `stop` or
    /// `ponderhit`: the main thread waits (the helpers search on meanwhile).
    fn wait_while_pondering(&self, infinite: bool) {
        let signals = &self.signals;
        while !signals.stop.load(Ordering::Relaxed)
            && (infinite || signals.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The main worker, for the drivers in `tools` (the tree explorer attaches its recorder).
    pub(crate) fn main_worker(&mut self) -> &mut Worker<E> {
        &mut self.main
    }
}
