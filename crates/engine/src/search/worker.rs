//! A worker: one search thread's own state. It lives between searches, so what it learned (the
//! histories) carries over from move to move. What the threads share, and what only concerns the
//! search as a whole (the limits, the clock, reporting, the vote), is the
//! [`ThreadPool`](crate::threads::ThreadPool)'s; the pool hands each worker its part before a
//! search.

use super::RootMove;
use super::lmr_table::LmrTable;
use super::syzygy::TablebaseState;
use crate::correction::CorrectionHistories;
use crate::counters::{Counters, Note};
use crate::eval::{Evaluation, Evaluator};
use crate::history::{Histories, PieceTo};
use crate::params::Params;
use crate::score::{DRAW, MAX_PLY};
use crate::techniques::Techniques;
use crate::threads::Signals;
use crate::threads::timekeeper::Timekeeper;
use crate::tree::TreeRecorder;
use crate::tt::TranspositionTable;
use chess::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// What the search keeps for each ply of the current line.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    /// The static evaluation at this ply as the search reads it, corrected (`-INFINITE` in
    /// check).
    pub static_eval: i32,
    /// The evaluator's own score at this ply, before any correction: what the hash table keeps
    /// (chapter 20).
    pub raw_eval: i32,
    /// The move made from this ply (`None`: a null move, or none yet).
    pub moved: Option<PieceTo>,
    /// A move the node at this ply must not search: set during a singular extension's search.
    pub excluded: Option<Move>,
    /// Double extensions on the line up to and including this ply.
    pub double_extensions: i32,
    /// The plies by which the node at this ply reduced the move it is searching, while that
    /// reduced search runs (0 otherwise): the child reads it for hindsight (stage 20).
    pub reduction: i32,
}

/// One search thread's state. The first group of fields is set by the pool, the same for every
/// worker of a pool (the switches through [`ThreadPool::set_switches`], the table and the signals
/// when they change); the rest is the thread's own.
///
/// [`ThreadPool::set_switches`]: crate::threads::ThreadPool::set_switches
pub struct Worker<E: Evaluator = Evaluation> {
    /// 0 for the main thread, 1, 2... for the helpers.
    pub(crate) thread_id: usize,
    pub(crate) techniques: Techniques,
    pub(crate) params: Params,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) signals: Arc<Signals>,
    /// The main thread's watch over this search (time, pondering), lent by the pool for the
    /// search; `None` on the helpers, which stop when the main thread has finished.
    pub(crate) timekeeper: Option<Timekeeper>,
    /// The nodes this search may still reach: no limit until the first iteration is complete
    /// (a move from half an iteration is a guess), then `node_budget`.
    pub(crate) node_limit: u64,
    /// `go nodes`, or what a limited strength allows.
    pub(crate) node_budget: u64,

    /// The counters of the last search, for `stats`.
    pub(crate) counters: Counters,
    pub(crate) evaluator: E,
    pub(crate) histories: Histories,
    /// What the search learned about the evaluation's errors (chapter 20).
    pub(crate) corrections: CorrectionHistories,
    /// One frame per ply of the current line.
    pub(crate) stack: Box<[Frame; MAX_PLY + 2]>,
    /// Hashes of the positions before the current one: the game's, then the search path's.
    pub(crate) keys: Vec<u64>,
    /// This thread's nodes in this search.
    pub(crate) nodes: u64,
    /// How many of them have been added to the shared count (`Signals::nodes`).
    pub(crate) nodes_shared: u64,
    pub(crate) seldepth: usize,
    /// The search was stopped: every score computed after this is meaningless.
    pub(crate) aborted: bool,
    pub(crate) root_moves: Vec<RootMove>,
    /// The root moves before this one are settled lines of a MultiPV search.
    pub(crate) pv_index: usize,
    /// Null moves are not tried before this ply: set during null-move verification searches.
    pub(crate) nmp_min_ply: usize,
    pub(crate) lmr_table: LmrTable,
    /// The tablebases as this search uses them.
    pub(crate) tablebases: TablebaseState,
    /// The search-tree explorer's recorder (`tree`); `None` in play, where each hook costs one
    /// well-predicted test of this field (see `search/hooks.rs`).
    pub(crate) tree: Option<Box<TreeRecorder>>,
}

impl<E: Evaluator> Worker<E> {
    /// Worker `thread_id` of a pool whose threads share `tt` and `signals`.
    pub(crate) fn new(
        thread_id: usize,
        tt: Arc<TranspositionTable>,
        evaluator: E,
        signals: Arc<Signals>,
    ) -> Worker<E> {
        Worker {
            thread_id,
            techniques: Techniques::default(),
            params: Params::default(),
            tt,
            signals,
            timekeeper: None,
            node_limit: u64::MAX,
            node_budget: u64::MAX,
            counters: Counters::default(),
            evaluator,
            histories: Histories::default(),
            corrections: CorrectionHistories::default(),
            stack: Box::new([Frame::default(); MAX_PLY + 2]),
            keys: Vec::with_capacity(1024),
            nodes: 0,
            nodes_shared: 0,
            seldepth: 0,
            aborted: false,
            root_moves: Vec::new(),
            pv_index: 0,
            nmp_min_ply: 0,
            lmr_table: LmrTable::new(&Params::default()),
            tablebases: TablebaseState::default(),
            tree: None,
        }
    }

    /// Forgets what was learned (`ucinewgame`).
    pub(crate) fn clear(&mut self) {
        self.histories.clear();
        self.corrections.clear();
    }

    pub(crate) fn is_main(&self) -> bool {
        self.thread_id == 0
    }

    /// The nodes of every thread so far: the shared count plus what this thread hasn't added yet.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.signals.nodes.load(Ordering::Relaxed) + (self.nodes - self.nodes_shared)
    }

    /// Adds this thread's new nodes to the shared count.
    pub(crate) fn share_nodes(&mut self) {
        let new = self.nodes - self.nodes_shared;
        self.signals.nodes.fetch_add(new, Ordering::Relaxed);
        self.nodes_shared = self.nodes;
    }

    #[inline]
    pub(crate) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        self.evaluator.evaluate(pos, ply)
    }

    /// Whether to stop now: this thread's nodes against the limit at every node, and every 1024
    /// nodes the stop flags, every thread's nodes and the clock.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            self.poll();
        }
        self.aborted
    }

    fn poll(&mut self) {
        self.share_nodes();
        let signals = &self.signals;
        if signals.stop.load(Ordering::Relaxed)
            || (!self.is_main() && signals.finished.load(Ordering::Relaxed))
            || signals.nodes.load(Ordering::Relaxed) >= self.node_limit
        {
            self.aborted = true;
            return;
        }
        // The clock is the main thread's: the helpers stop when it has finished.
        if let Some(timekeeper) = &mut self.timekeeper
            && timekeeper.out_of_time(&self.signals)
        {
            self.aborted = true;
        }
    }

    // ANCHOR: start_node
    /// What every node does first: count itself, poll the clock, and end at once on a draw by
    /// rule or at the deepest ply. `Some(score)` ends the node.
    #[inline]
    pub(crate) fn start_node(&mut self, pos: &Position, ply: usize, kind: Note) -> Option<i32> {
        self.nodes += 1;
        self.note(kind);
        if self.should_stop() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        // ANCHOR: draws
        // Draws by rule.
        if self.is_draw(pos) {
            self.note_node(Note::Draw);
            return Some(DRAW);
        }
        // ANCHOR_END: draws
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos, ply));
        }
        None
    }
    // ANCHOR_END: start_node

    // ANCHOR: is_draw
    /// Repetition, the fifty-move rule or insufficient material. Any earlier occurrence of the
    /// position since the last capture or pawn move counts: if repeating was good once, it will be
    /// again.
    pub(crate) fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 && (!pos.is_check() || pos.has_legal_moves()) {
            return true;
        }
        if pos.has_insufficient_material() {
            return true;
        }
        let reach = (pos.halfmove_clock() as usize).min(self.keys.len());
        let key = pos.hash();
        self.keys[self.keys.len() - reach..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }
    // ANCHOR_END: is_draw
}
