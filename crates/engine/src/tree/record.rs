//! What the tree explorer keeps of each node, and the recorder the search feeds while it runs.
//!
//! The recorder is driven from three kinds of place in the search: the two node functions (a
//! node opens on entry and closes on exit with its score), the counters (`Worker::note_node`: a
//! counter that ends a node, such as `ReverseFutility`, names the technique that decided it;
//! `Worker::note_pruned`: a skipped move), and the few spots where the parent chooses how to
//! search a child (reduced, re-searched, a null move...).
//! It never changes what the search does; it only watches.

use super::outcome::Outcome;
use crate::counters::{Counters, Note};
use crate::score::{DRAW, MAX_PLY, mated_in};
use chess::Move;

/// No parent: a root search.
pub const NO_PARENT: u32 = u32::MAX;

/// The most nodes one tree keeps unless told otherwise: 64 MB of records (32 bytes each), enough
/// for depth 7 or 8 on most positions; a deeper request records this many and says so.
pub const DEFAULT_CAP: usize = 2_000_000;

/// What kind of node a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Root,
    /// Searched with an open window: its exact score matters.
    Pv,
    /// Searched with a null window: only a bound matters.
    NonPv,
    Quiescence,
    /// A move the parent decided not to search (futility, late move pruning...): no node.
    Pruned,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Root => "root",
            Kind::Pv => "pv",
            Kind::NonPv => "nonpv",
            Kind::Quiescence => "qs",
            Kind::Pruned => "pruned",
        }
    }
}

/// How the parent searched this child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A root search (an iteration, or one of its aspiration windows).
    Root,
    /// A move, with the parent's full window.
    Full,
    /// A move, with a null window (alpha, alpha + 1).
    NullWindow,
    /// A late move searched shallower by this many plies (late move reductions).
    Reduced(i8),
    /// The same move again at full depth after its reduced search beat alpha.
    LmrResearch,
    /// The same move again with the full window after its null-window search landed inside it.
    PvsResearch,
    /// The side to move passed (null-move pruning).
    NullMove,
    /// The same position without passing, to confirm a deep null-move cutoff.
    Verification,
    /// The same position without the hash move, shallower: is the hash move singular?
    Singular,
    /// The quiescence search asked first by razoring.
    Razoring,
    /// ProbCut's quiescence look at a capture.
    ProbCutQs,
    /// ProbCut's reduced search of a capture.
    ProbCut,
    /// Not searched: see the record's outcome.
    Pruned,
}

impl Via {
    pub fn name(self) -> &'static str {
        match self {
            Via::Root => "root",
            Via::Full => "full",
            Via::NullWindow => "null-window",
            Via::Reduced(_) => "reduced",
            Via::LmrResearch => "lmr-research",
            Via::PvsResearch => "pvs-research",
            Via::NullMove => "null-move",
            Via::Verification => "verification",
            Via::Singular => "singular",
            Via::Razoring => "razoring",
            Via::ProbCutQs => "probcut-qs",
            Via::ProbCut => "probcut",
            Via::Pruned => "pruned",
        }
    }

    /// The reduction, for a reduced search.
    pub fn reduction(self) -> i32 {
        match self {
            Via::Reduced(r) => r as i32,
            _ => 0,
        }
    }

    /// An ordinary search of one of the parent's moves (not a null move or a same-position look).
    fn is_move_search(self) -> bool {
        matches!(
            self,
            Via::Full | Via::NullWindow | Via::Reduced(_) | Via::LmrResearch | Via::PvsResearch
        )
    }
}

/// One recorded node (or pruned move).
#[derive(Clone, Copy, Debug)]
pub struct TreeNode {
    /// Index of the parent record, [`NO_PARENT`] for a root search.
    pub parent: u32,
    /// The move from the parent; `None` for a root, a null move, or a second look at the
    /// parent's own position (verification, singular search, razoring).
    pub mv: Option<Move>,
    pub kind: Kind,
    pub via: Via,
    pub ply: u16,
    /// The depth the node was asked to search (0 in the quiescence search).
    pub depth: i16,
    /// Plies the move was extended by (check, singular extension), or shortened by (negative).
    pub extension: i8,
    /// Internal iterative reduction took a ply off this node.
    pub iir: bool,
    /// The window the node was searched with.
    pub alpha: i32,
    pub beta: i32,
    pub score: i32,
    pub outcome: Outcome,
    /// Searches this node started (records with it as parent, pruned moves left out).
    pub searched: u32,
}

/// The search's observer while a tree is recorded.
pub struct TreeRecorder {
    pub(crate) nodes: Vec<TreeNode>,
    /// The open records, innermost last; `None` for a node not recorded (past the cap).
    stack: Vec<Option<u32>>,
    /// The move the current line made from each ply.
    moves: [Option<Move>; MAX_PLY + 2],
    /// How the next child is searched, when the parent said so.
    pending: Option<Via>,
    cap: usize,
    /// Nodes not recorded because the cap was reached.
    pub(crate) dropped: u64,
    /// The counters when the recorded iteration began.
    pub(crate) counters_before: Counters,
    /// The iteration being recorded.
    pub(crate) iteration: i32,
}

impl TreeRecorder {
    pub fn new(cap: usize) -> TreeRecorder {
        TreeRecorder {
            nodes: Vec::new(),
            stack: Vec::with_capacity(MAX_PLY * 2),
            moves: [None; MAX_PLY + 2],
            pending: None,
            cap,
            dropped: 0,
            counters_before: Counters::default(),
            iteration: 0,
        }
    }

    /// A new iteration of iterative deepening: only the last one is kept, so forget the last.
    #[cold]
    pub(crate) fn begin_iteration(&mut self, depth: i32, counters: &Counters) {
        self.nodes.clear();
        self.stack.clear();
        self.pending = None;
        self.dropped = 0;
        self.counters_before = counters.clone();
        self.iteration = depth;
    }

    /// The innermost open record, if it was recorded.
    fn current(&mut self) -> Option<&mut TreeNode> {
        let index = (*self.stack.last()?)?;
        self.nodes.get_mut(index as usize)
    }

    /// The line moved `mv` from `ply` (`None`: a null move).
    #[cold]
    pub(crate) fn moved(&mut self, ply: usize, mv: Option<Move>) {
        if let Some(slot) = self.moves.get_mut(ply) {
            *slot = mv;
        }
    }

    /// The next child is searched this way.
    #[cold]
    pub(crate) fn via(&mut self, via: Via) {
        self.pending = Some(via);
    }

    /// The announced child was not searched after all.
    #[cold]
    pub(crate) fn forget_via(&mut self) {
        self.pending = None;
    }

    /// A node of the search starts: `kind` Root, Pv, NonPv or Quiescence.
    #[cold]
    pub(crate) fn enter(&mut self, kind: Kind, ply: usize, depth: i32, alpha: i32, beta: i32) {
        let pending = self.pending.take();
        if self.nodes.len() >= self.cap || self.stack.last() == Some(&None) {
            self.dropped += 1;
            self.stack.push(None);
            return;
        }
        let parent = self.stack.last().copied().flatten();
        let parent_node = parent.map(|p| self.nodes[p as usize]);
        let via = match (kind, pending) {
            (Kind::Root, _) => Via::Root,
            (_, Some(via)) => via,
            _ if beta - alpha > 1 => Via::Full,
            _ => Via::NullWindow,
        };
        // A child one ply down was reached by the move the line made; one at the same ply is
        // another look at the parent's position.
        let mv = match parent_node {
            Some(p) if p.ply as usize + 1 == ply => self.moves[p.ply as usize],
            _ => None,
        };
        // The depth the parent would give any move, against what this one got.
        let extension = match parent_node {
            Some(p) if via.is_move_search() && kind != Kind::Quiescence && p.depth > 0 => {
                let usual = p.depth as i32 - p.iir as i32 - 1;
                (depth + via.reduction() - usual).clamp(-8, 8) as i8
            }
            _ => 0,
        };
        if let Some(p) = parent {
            self.nodes[p as usize].searched += 1;
        }
        let index = self.nodes.len() as u32;
        self.nodes.push(TreeNode {
            parent: parent.unwrap_or(NO_PARENT),
            mv,
            kind,
            via,
            ply: ply as u16,
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            extension,
            iir: false,
            alpha,
            beta,
            score: 0,
            outcome: Outcome::Open,
            searched: 0,
        });
        self.stack.push(Some(index));
    }

    /// The innermost node ends with `score`. Unless a counter already named what decided it, its
    /// outcome follows from the score against its window.
    #[cold]
    pub(crate) fn exit(&mut self, score: i32, aborted: bool) {
        let Some(Some(index)) = self.stack.pop() else {
            return;
        };
        let node = &mut self.nodes[index as usize];
        node.score = score;
        if aborted {
            node.outcome = Outcome::Aborted;
        } else if node.outcome == Outcome::Open {
            node.outcome = settled(node);
        }
    }

    /// A counter went up at the innermost node.
    #[cold]
    pub(crate) fn note(&mut self, note: Note) {
        if note == Note::Iir {
            if let Some(node) = self.current() {
                node.iir = true;
            }
        } else if let Some(outcome) = Outcome::ending(note)
            && let Some(node) = self.current()
        {
            node.outcome = outcome;
        }
    }

    /// The innermost node skipped `mv` for the reason the counter `note` names.
    #[cold]
    pub(crate) fn pruned(&mut self, note: Note, mv: chess::Move) {
        let Some(outcome) = Outcome::pruning(note) else {
            return;
        };
        // Past the cap, or under a node not recorded, the skipped move is not kept either.
        let Some(Some(parent)) = self.stack.last().copied() else {
            return;
        };
        if self.nodes.len() >= self.cap {
            return;
        }
        let p = self.nodes[parent as usize];
        self.nodes.push(TreeNode {
            parent,
            mv: Some(mv),
            kind: Kind::Pruned,
            via: Via::Pruned,
            ply: p.ply + 1,
            depth: 0,
            extension: 0,
            iir: false,
            alpha: -p.beta,
            beta: -p.alpha,
            score: 0,
            outcome,
            searched: 0,
        });
    }
}

/// The outcome of a node that no technique ended early.
fn settled(node: &TreeNode) -> Outcome {
    let quiescence = node.kind == Kind::Quiescence;
    if node.searched == 0 && node.kind != Kind::Root {
        if node.score == mated_in(node.ply as usize) {
            return Outcome::Checkmate;
        }
        if quiescence {
            return Outcome::Quiet;
        }
        if node.score == DRAW {
            return Outcome::Stalemate;
        }
    }
    if node.score >= node.beta {
        // The main search counts its cutoffs (BetaCutoff, set by the counter); the root's
        // aspiration failures and the quiescence search's captures that reach beta are not.
        Outcome::FailHigh
    } else if node.score <= node.alpha {
        Outcome::FailLow
    } else {
        Outcome::Exact
    }
}
