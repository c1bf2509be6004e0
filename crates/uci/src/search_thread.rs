//! The one thread that runs every search of a session. It is started once and then waits for
//! work, so a `go` costs no thread start: a new thread would map a fresh stack, and on a busy or
//! virtualized machine the first touches of those pages cost milliseconds that a move played with
//! a few milliseconds on the clock doesn't have.

use engine::Search;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// The search thread's stack: deep recursion with move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// A search to run: it owns the search state while it runs and hands it back at the end.
pub type Job = Box<dyn FnOnce() -> Search + Send>;

pub struct SearchThread {
    /// Dropping the sender ends the thread's loop once its current job (if any) is done; the
    /// thread is not joined, so dropping a session never waits on a search no one stopped.
    jobs: Sender<Job>,
    results: Receiver<Search>,
    handle: JoinHandle<()>,
    /// A job was sent and its search state not yet taken back.
    running: bool,
}

/// The thread ended without handing the search state back (a panic in the search: a bug).
#[derive(Debug)]
pub struct Lost;

impl SearchThread {
    pub fn start() -> std::io::Result<SearchThread> {
        let (jobs, job_queue) = channel::<Job>();
        let (finished, results) = channel();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for job in job_queue {
                    if finished.send(job()).is_err() {
                        break;
                    }
                }
            })?;
        Ok(SearchThread {
            jobs,
            results,
            handle,
            running: false,
        })
    }

    /// Starts `job`; the caller has taken back the previous one's state (`wait`).
    pub fn run(&mut self, job: Job) -> Result<(), Lost> {
        debug_assert!(!self.running);
        let sent = self.jobs.send(job).is_ok();
        self.running = sent;
        if sent { Ok(()) } else { Err(Lost) }
    }

    /// Whether a job was started, its state is not yet taken back, and the thread is alive.
    pub fn is_running(&self) -> bool {
        self.running && !self.handle.is_finished()
    }

    /// Waits for the running job and takes its search state back; `None` if none runs.
    pub fn wait(&mut self) -> Option<Result<Search, Lost>> {
        if !self.running {
            return None;
        }
        self.running = false;
        Some(self.results.recv().map_err(|_| Lost))
    }
}
