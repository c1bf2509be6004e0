//! The search, as one worker thread sees it: negamax alpha-beta with principal variation search,
//! fail-soft, over copies of the position. Each technique is a short block in [`node`] with its
//! switch in `self.techniques`, its numbers in `self.params`, and a counter in `self.notes`.
//!
//! A [`Search`] is one thread's state (histories, the stack of the current line, its evaluator,
//! its counters). Several of them search together through [`crate::threads::ThreadPool`], which
//! owns what they share: the hash table and the [`Signals`].

mod best_move;
mod deepening;
mod lmr_table;
mod node;
mod null_move;
mod probcut;
mod pvs;
mod quiescence;
mod singular;
mod syzygy;
mod table;

pub use deepening::{Info, RootMove, SearchOptions, SearchResult};
pub(crate) use lmr_table::LmrTable;

use crate::eval::nnue::Network;
use crate::eval::{Evaluation, Evaluator};
use crate::history::{Histories, PieceTo};
use crate::movepick::{OrderingContext, quiet_score};
use crate::notes::{Note, Notes};
use crate::params::Params;
use crate::pv::Pv;
use crate::score::{DRAW, MAX_PLY};
use crate::techniques::Techniques;
use crate::time::TimeManager;
use crate::tree::{Kind, TreeRecorder, Via};
use crate::tt::TranspositionTable;
use chess::{Move, Position};
use node::{NonPv, Pv as PvNode};
use std::sync::Arc;
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

/// What the search keeps for each ply of the current line.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    /// The static evaluation at this ply (`-INFINITE` in check).
    pub static_eval: i32,
    /// The move made from this ply (`None`: a null move, or none yet).
    pub moved: Option<PieceTo>,
    /// A move the node at this ply must not search: set during a singular extension's search.
    pub excluded: Option<Move>,
    /// Double extensions on the line up to and including this ply.
    pub double_extensions: i32,
}

/// One search thread's state: a worker. It lives between searches, so what it learned
/// (histories) carries over from move to move. Thread 0, the main thread, also keeps the clock,
/// reports, and waits while pondering; the others (helpers) only search.
pub struct Search<E: Evaluator = Evaluation> {
    pub techniques: Techniques,
    pub params: Params,
    /// The counters of the last search, for `stats`.
    pub notes: Notes,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) evaluator: E,
    pub(crate) histories: Histories,
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
    pub(crate) signals: Arc<Signals>,
    /// 0 for the main thread, 1, 2... for the helpers.
    pub(crate) thread_id: usize,
    pub(crate) time: TimeManager,
    /// The nodes this search may still reach: no limit until the first iteration is complete
    /// (a move from half an iteration is a guess), then `node_budget`.
    pub(crate) node_limit: u64,
    /// `go nodes`, or what a limited strength allows.
    pub(crate) node_budget: u64,
    /// Stop only when told to (`go infinite`).
    pub(crate) infinite: bool,
    pub(crate) was_pondering: bool,
    pub(crate) root_moves: Vec<RootMove>,
    /// The root moves before this one are settled lines of a MultiPV search.
    pub(crate) pv_index: usize,
    /// Null moves are not tried before this ply: set during null-move verification searches.
    pub(crate) nmp_min_ply: usize,
    pub(crate) lmr_table: LmrTable,
    /// The tablebases as this search uses them.
    pub(crate) tablebases: syzygy::TablebaseState,
    /// The search-tree explorer's recorder (`tree`); `None` in play, where each hook below costs
    /// one well-predicted test of this field.
    pub(crate) tree: Option<Box<TreeRecorder>>,
}

/// The one way to build the engine's own search (the UCI session, bench, datagen): with the
/// network `net` (used when the `nnue` switch is on) and the hand-crafted evaluation.
pub fn new_search(
    tt: Arc<TranspositionTable>,
    net: Arc<Network>,
    signals: Arc<Signals>,
) -> Search<Evaluation> {
    Search::new(tt, Evaluation::new(net), signals)
}

impl<E: Evaluator> Search<E> {
    /// The main thread of a search with `evaluator`; see also [`new_search`].
    pub fn new(tt: Arc<TranspositionTable>, evaluator: E, signals: Arc<Signals>) -> Search<E> {
        Search {
            techniques: Techniques::default(),
            params: Params::default(),
            notes: Notes::default(),
            tt,
            evaluator,
            histories: Histories::default(),
            stack: Box::new([Frame::default(); MAX_PLY + 2]),
            keys: Vec::with_capacity(1024),
            nodes: 0,
            nodes_shared: 0,
            seldepth: 0,
            aborted: false,
            signals,
            thread_id: 0,
            time: TimeManager::new(None),
            node_limit: u64::MAX,
            node_budget: u64::MAX,
            infinite: false,
            was_pondering: false,
            root_moves: Vec::new(),
            pv_index: 0,
            nmp_min_ply: 0,
            lmr_table: LmrTable::new(&Params::default()),
            tablebases: syzygy::TablebaseState::default(),
            tree: None,
        }
    }

    /// Forgets what was learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.histories.clear();
    }

    /// Another evaluation (a new network from `EvalFile`), from the next search on.
    pub fn set_evaluator(&mut self, evaluator: E) {
        self.evaluator = evaluator;
    }

    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// This thread's nodes in the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
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

    #[inline(always)]
    pub(crate) fn note(&mut self, note: Note) {
        self.notes.add(note);
    }

    // ANCHOR: note_node
    /// Counts an event that decides the node being searched (a cutoff, a pruning, a draw) or marks
    /// it (internal iterative reduction); a recorded tree takes it as the node's outcome or flag.
    /// Only these few counters tell the recorder: the others stay as cheap as before.
    #[inline(always)]
    pub(crate) fn note_node(&mut self, note: Note) {
        self.notes.add(note);
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.note(note);
        }
    }
    // ANCHOR_END: note_node

    /// Counts a move skipped by a pruning technique; a recorded tree keeps it as a stub.
    #[inline(always)]
    pub(crate) fn note_pruned(&mut self, note: Note, mv: Move) {
        self.notes.add(note);
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.pruned(note, mv);
        }
    }

    /// Tells a recorded tree how the next child is searched (a reduction, a re-search...).
    #[inline(always)]
    pub(crate) fn tree_via(&mut self, via: Via) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.via(via);
        }
    }

    /// A node starts: a recorded tree opens a record for it.
    #[inline(always)]
    pub(crate) fn tree_enter(&mut self, kind: Kind, ply: usize, depth: i32, alpha: i32, beta: i32) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.enter(kind, ply, depth, alpha, beta);
        }
    }

    /// The node ends with `score`.
    #[inline(always)]
    pub(crate) fn tree_exit(&mut self, score: i32) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.exit(score, self.aborted);
        }
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
        if !self.is_main() || signals.pondering.load(Ordering::Relaxed) {
            return;
        }
        if self.was_pondering {
            // `ponderhit`: our own clock starts now.
            self.was_pondering = false;
            self.time.restart();
        }
        if !self.infinite && self.time.hard_expired() {
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

    /// Makes `mv` on a copy of `pos`, telling the evaluation and the repetition history.
    #[inline]
    pub(crate) fn play(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let mut child = pos.clone();
        child.make_move(mv);
        self.enter(pos, mv, &child, ply);
        child
    }

    /// Records that the search goes from `pos` to `child` by `mv`: the move for the histories,
    /// the evaluation's update, the position for repetitions. Undone by [`Search::unplay`].
    #[inline]
    pub(crate) fn enter(&mut self, pos: &Position, mv: Move, child: &Position, ply: usize) {
        // The child's first act is to probe the table: start fetching its bucket now.
        if self.techniques.tt {
            self.tt.prefetch(child.hash());
        }
        self.stack[ply].moved = pos
            .piece_at(mv.from())
            .map(|piece| PieceTo { piece, to: mv.to() });
        self.evaluator.push(pos, Some(mv), child, ply);
        self.keys.push(pos.hash());
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.moved(ply, Some(mv));
        }
    }

    /// A quiet move's history scores, as the move picker adds them up.
    fn quiet_history(&self, pos: &Position, mv: Move, previous: &[Option<PieceTo>; 2]) -> i32 {
        let ctx = OrderingContext {
            histories: &self.histories,
            techniques: &self.techniques,
            previous: *previous,
        };
        quiet_score(pos, mv, &ctx)
    }

    /// Searches `child`, reached from this node at `ply`, within this node's window
    /// (`alpha`, `beta`), and returns its score from this node's side. A window wider than a
    /// null window makes the child a PV node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn search_child(
        &mut self,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
        pv: &mut Pv,
    ) -> i32 {
        -self.search(child, depth, ply + 1, -beta, -alpha, cut_node, pv)
    }

    /// A node that isn't the root, of the kind its window makes it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
        pv: &mut Pv,
    ) -> i32 {
        if beta - alpha > 1 {
            self.node::<PvNode>(pos, depth, ply, alpha, beta, cut_node, pv)
        } else {
            self.node::<NonPv>(pos, depth, ply, alpha, beta, cut_node, pv)
        }
    }

    /// The moves one and two plies before `ply`, for the continuation histories.
    #[inline]
    pub(crate) fn previous(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.stack[p].moved),
            ply.checked_sub(2).and_then(|p| self.stack[p].moved),
        ]
    }

    /// Undoes what [`Search::play`] recorded (the position itself is just dropped).
    #[inline]
    pub(crate) fn unplay(&mut self) {
        self.keys.pop();
    }
}
