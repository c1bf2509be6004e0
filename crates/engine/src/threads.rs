//! Lazy SMP: several threads search the same root at once, each with its own histories and
//! stack, all sharing one hash table. They don't divide the tree between them; they meet in the
//! table, where each finds what the others stored and so skips work or orders better. The main
//! thread keeps the clock, reports and decides when to stop; the helpers stop when it does, and
//! the best move comes from the thread whose move the most (and deepest) threads voted for.
//!
//! [`ThreadPool`] is every search's one way in: the UCI session's, `bench`'s, the tree
//! explorer's, data generation's. It owns the workers and what they share, and
//! [`ThreadPool::search`] runs one search on all of them. The UCI session keeps its pool on a
//! [`SearchThread`], so that a search runs while the session goes on reading commands.
//!
//! This file holds what the threads of a search share besides the hash table, the [`Signals`],
//! which the workers read; the pool that owns them is in `threads/pool.rs`, so that no file
//! imports back: the pool imports the search, the search imports only this file and the
//! timekeeper.

mod helper;
mod pool;
mod search_thread;
pub(crate) mod timekeeper;
mod vote;

pub use helper::SEARCH_STACK_BYTES;
pub use pool::{MAX_THREADS, ThreadPool};
pub use search_thread::{Job, SearchThread};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the threads of one search share besides the hash table: the flags the UCI thread sets,
/// and what the threads tell each other.
#[derive(Default)]
pub struct Signals {
    /// Stop now (`stop`, `quit`).
    pub stop: AtomicBool,
    /// Pondering: no time limit until `ponderhit` clears this.
    pub pondering: AtomicBool,
    /// The main thread has finished its search: the helpers stop too.
    pub(crate) finished: AtomicBool,
    /// The nodes of every thread of this search, added in steps of about 1024 (see `poll`).
    pub(crate) nodes: AtomicU64,
    /// Positions of this search whose result came from the tablebases, on every thread.
    pub(crate) tb_hits: AtomicU64,
}

impl Signals {
    /// Before a search: no thread has finished, no node is counted.
    pub(crate) fn begin_search(&self) {
        self.finished.store(false, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
        self.tb_hits.store(0, Ordering::Relaxed);
    }
}
