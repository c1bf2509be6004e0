//! The search-tree explorer (`tree`): one search, recorded node by node, and drawn.
//!
//! The search is the engine's own, run as `bench` runs it: one thread, a fixed depth, a fresh
//! hash table and fresh histories, so the same position, depth and switches always give the same
//! tree. Iterative deepening runs as usual; the recorder starts again at each iteration, so the
//! tree is the last (deepest) iteration, with every root search it needed (an aspiration window
//! that fails is searched again; each try is a root of its own).
//!
//! While no tree is recorded the search carries `None` where the recorder would be, and each hook
//! is one test of that field (see `Worker::note_node` and `Worker::node`).
//!
//! - [`record`] runs the search and returns the [`Tree`];
//! - [`json`], [`svg`], [`html`] and [`text`] write it out.

pub mod html;
pub mod json;
mod outcome;
mod record;
pub mod svg;
pub mod text;

pub use outcome::Outcome;
pub use record::{DEFAULT_CAP, Kind, NO_PARENT, TreeNode, TreeRecorder, Via};

use crate::counters::{Counters, Note};
use chess::Move;

/// One recorded iteration.
pub struct Tree {
    pub fen: String,
    pub depth: i32,
    /// The records, in the order the search entered them: a parent always comes before its
    /// children, and a node's subtree follows it without a gap.
    pub nodes: Vec<TreeNode>,
    /// Nodes in each record's subtree, the record included (pruned moves count 0).
    pub subtree: Vec<u64>,
    /// The root searches of the iteration, in order; the last one gave the result.
    pub roots: Vec<u32>,
    pub score: i32,
    pub best_move: Option<Move>,
    pub pv: Vec<Move>,
    /// The search's own counters for the recorded iteration (the counters at its end less those at
    /// its start).
    pub counters: Counters,
    /// Nodes searched but not recorded, past the cap.
    pub dropped: u64,
    /// Nodes of the whole search, every iteration (as `bench` would count it).
    pub search_nodes: u64,
    pub cap: usize,
    /// The search was stopped before the iteration ended.
    pub stopped: bool,
    pub chess960: bool,
    /// The techniques switched off that are on by default.
    pub off: Vec<&'static str>,
}

/// Subtree sizes in one backward pass: records come in entry order, so every child follows its
/// parent, and adding each record's size to its parent's from the back finishes children first.
pub(crate) fn subtree_sizes(nodes: &[TreeNode]) -> Vec<u64> {
    let mut size: Vec<u64> = nodes
        .iter()
        .map(|n| (n.kind != Kind::Pruned) as u64)
        .collect();
    for i in (0..nodes.len()).rev() {
        let parent = nodes[i].parent;
        if parent != NO_PARENT {
            size[parent as usize] += size[i];
        }
    }
    size
}

impl Tree {
    /// The root search that gave the result (the last one), if any node was recorded.
    pub fn root(&self) -> Option<u32> {
        self.roots.last().copied()
    }

    /// The children of every record, in search order.
    pub fn children(&self) -> Vec<Vec<u32>> {
        let mut children = vec![Vec::new(); self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            if node.parent != NO_PARENT {
                children[node.parent as usize].push(i as u32);
            }
        }
        children
    }

    /// The records along the principal variation: from the final root, at each step the last
    /// search of the PV's next move (the one whose score counted).
    pub fn pv_path(&self, children: &[Vec<u32>]) -> Vec<u32> {
        let Some(mut at) = self.root() else {
            return Vec::new();
        };
        let mut path = vec![at];
        for &mv in &self.pv {
            let next = children[at as usize]
                .iter()
                .rev()
                .find(|&&c| self.nodes[c as usize].mv == Some(mv));
            match next {
                Some(&c) => {
                    path.push(c);
                    at = c;
                }
                None => break,
            }
        }
        path
    }

    /// Records in each record's subtree, pruned moves included: record `i`'s subtree is the
    /// records `i..i + span[i]`, since the search enters a node's subtree before anything else.
    pub fn spans(&self) -> Vec<usize> {
        let mut span = vec![1usize; self.nodes.len()];
        for i in (0..self.nodes.len()).rev() {
            let parent = self.nodes[i].parent;
            if parent != NO_PARENT {
                span[parent as usize] += span[i];
            }
        }
        span
    }

    /// Nodes recorded, pruned moves left out.
    pub fn node_count(&self) -> u64 {
        self.nodes.iter().filter(|n| n.kind != Kind::Pruned).count() as u64
    }

    /// How many records have each outcome.
    pub fn outcome_totals(&self) -> Vec<(Outcome, u64)> {
        Outcome::ALL
            .iter()
            .map(|&o| {
                (
                    o,
                    self.nodes.iter().filter(|n| n.outcome == o).count() as u64,
                )
            })
            .collect()
    }

    /// A move in the notation of the tree (UCI; `null` for a null move, `-` for none).
    pub fn move_text(&self, node: &TreeNode) -> String {
        match (node.mv, node.via) {
            (Some(mv), _) => mv.to_uci(self.chess960),
            (None, Via::NullMove) => "null".to_string(),
            (None, Via::Root) => "root".to_string(),
            (None, via) => format!("({})", via.name()),
        }
    }

    /// The main-search and quiescence nodes the search counted in this iteration.
    pub fn counted_nodes(&self) -> u64 {
        self.counters.get(Note::Nodes) + self.counters.get(Note::QNodes)
    }
}
