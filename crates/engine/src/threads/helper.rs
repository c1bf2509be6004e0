//! A helper thread: it owns its worker for good and runs what the pool sends it, one job at a
//! time, until the pool drops it.

use crate::counters::Counters;
use crate::eval::Evaluator;
use crate::search::{Info, SearchResult, Worker};
use std::sync::mpsc::{Receiver, Sender, channel};

/// Every search thread's stack: deep recursion with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// What a helper found, for the vote and `stats`.
pub(crate) struct HelperReport {
    pub result: SearchResult,
    /// The line of its last completed iteration.
    pub info: Option<Info>,
    pub counters: Counters,
}

/// A job for a helper's worker; a search answers with its report.
pub(crate) type HelperJob<E> = Box<dyn FnOnce(&mut Worker<E>) -> Option<HelperReport> + Send>;

pub(crate) struct Helper<E: Evaluator> {
    jobs: Sender<HelperJob<E>>,
    replies: Receiver<Option<HelperReport>>,
}

impl<E: Evaluator + 'static> Helper<E> {
    /// Starts the thread (`Err` if the system won't start one).
    pub fn start(mut worker: Worker<E>) -> std::io::Result<Helper<E>> {
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

    /// Hands the thread a job; its answer comes from [`Helper::reply`].
    pub fn send(&self, job: HelperJob<E>) {
        // The thread ends only when this sender is dropped, or by a panic, which under
        // `panic = "abort"` ends the process: a send cannot fail while the helper exists. Where
        // panics unwind (debug builds, tests), the panic is passed on rather than hidden.
        if self.jobs.send(job).is_err() {
            panic!("a helper thread has died");
        }
    }

    /// Waits for the answer to the job sent last.
    pub fn reply(&self) -> Option<HelperReport> {
        match self.replies.recv() {
            Ok(report) => report,
            Err(_) => panic!("a helper thread has died"),
        }
    }
}
