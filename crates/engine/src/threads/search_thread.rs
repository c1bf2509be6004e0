//! The UCI session's search thread: one thread, started at the first job and then kept, that
//! runs every job of a session (a search, `bench`, `perft`, `tree`) with the pool, so that a `go`
//! starts no thread and the session goes on reading commands meanwhile.

use super::helper::SEARCH_STACK_BYTES;
use super::{Signals, ThreadPool};
use crate::counters::Counters;
use crate::eval::nnue::Network;
use crate::eval::{Evaluation, Evaluator};
use crate::tt::TranspositionTable;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// A job for the search thread: a search, `bench`, `perft` or `tree`.
pub type Job<E> = Box<dyn FnOnce(&mut ThreadPool<E>) + Send>;

/// The running thread.
struct Running<E: Evaluator + 'static> {
    /// Dropping the sender ends the thread's loop once its current job (if any) is done; the
    /// thread is not joined, so dropping a session never waits on a search no one stopped.
    jobs: Sender<(Job<E>, ThreadPool<E>)>,
    results: Receiver<ThreadPool<E>>,
    handle: JoinHandle<()>,
}

/// The pool, and the thread its jobs run on.
pub struct SearchThread<E: Evaluator + 'static = Evaluation> {
    /// `None` while a job runs: the thread has it.
    pool: Option<ThreadPool<E>>,
    thread: Option<Running<E>>,
    /// The pool's, kept here to stop a job while the thread has the pool.
    signals: Arc<Signals>,
    /// The pool's, as last set.
    tt: Arc<TranspositionTable>,
    /// Jobs run on the caller's thread (see [`SearchThread::inline`]).
    inline: bool,
}

impl SearchThread<Evaluation> {
    /// Another network for every thread (`EvalFile`), from the next search on.
    pub fn set_network(&mut self, net: Arc<Network>) {
        self.idle_pool().set_network(net);
    }
}

impl<E: Evaluator + 'static> SearchThread<E> {
    /// No thread is started until the first job.
    pub fn new(pool: ThreadPool<E>) -> SearchThread<E> {
        SearchThread {
            signals: pool.signals().clone(),
            tt: pool.tt().clone(),
            pool: Some(pool),
            thread: None,
            inline: false,
        }
    }

    /// The same, running each job on the calling thread, to its end: for a host that has no
    /// threads (the browser build, inside a Web Worker). [`SearchThread::start`] then returns
    /// only when the job is done, so nothing can stop it meanwhile: the caller gives every job a
    /// limit.
    pub fn inline(mut self) -> SearchThread<E> {
        self.inline = true;
        self
    }

    pub fn signals(&self) -> &Arc<Signals> {
        &self.signals
    }

    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The pool, once the running job (if any) has handed it back. The setters below wait
    /// like this: they are meant for between searches.
    fn idle_pool(&mut self) -> &mut ThreadPool<E> {
        self.wait();
        match &mut self.pool {
            Some(pool) => pool,
            // `wait` has just taken it back, or passed the job's panic on.
            None => unreachable!("the pool is back after wait"),
        }
    }

    /// The counters of the last job, while no job runs.
    pub fn counters(&self) -> Option<&Counters> {
        self.pool.as_ref().map(ThreadPool::counters)
    }

    /// See [`ThreadPool::set_threads`].
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        self.idle_pool().set_threads(threads)
    }

    /// Another hash table for every thread (`Hash`).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt.clone();
        self.idle_pool().set_tt(tt);
    }

    /// Another evaluator for every thread, built by `new_evaluator`.
    pub fn set_evaluator(&mut self, new_evaluator: impl Fn() -> E + Send + Sync + 'static) {
        self.idle_pool().set_evaluator(new_evaluator);
    }

    /// Forgets what every thread learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.idle_pool().clear();
    }

    /// Runs `job` on the search thread, starting it at the first job (or, [`inline`], here and
    /// to its end), once the previous job is done.
    ///
    /// [`inline`]: SearchThread::inline
    pub fn start(&mut self, job: Job<E>) -> Result<(), String> {
        self.wait();
        let Some(mut pool) = self.pool.take() else {
            unreachable!("the pool is back after wait")
        };
        if self.inline {
            job(&mut pool);
            self.pool = Some(pool);
            return Ok(());
        }
        if self.thread.is_none() {
            match Self::spawn() {
                Ok(thread) => self.thread = Some(thread),
                Err(e) => {
                    self.pool = Some(pool);
                    return Err(format!("no search thread: {e}"));
                }
            }
        }
        if let Some(thread) = &self.thread
            && thread.jobs.send((job, pool)).is_err()
        {
            // The thread ends only when the sender is dropped, or by a panic: see `wait`.
            panic!("the search thread has died");
        }
        Ok(())
    }

    fn spawn() -> std::io::Result<Running<E>> {
        let (jobs, queue) = channel::<(Job<E>, ThreadPool<E>)>();
        let (finished, results) = channel();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for (job, mut pool) in queue {
                    job(&mut pool);
                    if finished.send(pool).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Running {
            jobs,
            results,
            handle,
        })
    }

    /// Whether a job was started, its pool is not yet back, and the thread is alive.
    pub fn is_running(&self) -> bool {
        self.pool.is_none()
            && self
                .thread
                .as_ref()
                .is_some_and(|t| !t.handle.is_finished())
    }

    /// Waits for the running job (if any) and takes the pool back.
    ///
    /// A job cannot be lost, so nothing here recovers from one: under `panic = "abort"` (the
    /// release profile, with which every binary is built) a panicking job ends the process, and
    /// where panics unwind (debug builds, the test harness) the panic is passed on to the caller
    /// rather than answered with a pool in an unknown state.
    pub fn wait(&mut self) {
        if self.pool.is_some() {
            return;
        }
        match self.thread.as_ref().map(|t| t.results.recv()) {
            Some(Ok(pool)) => self.pool = Some(pool),
            _ => panic!("the search thread has died"),
        }
    }
}
