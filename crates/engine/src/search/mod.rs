//! The search, as one worker thread sees it: negamax alpha-beta with principal variation search,
//! fail-soft, over copies of the position. Each technique is a short block in [`node`] with its
//! switch in `self.techniques`, its numbers in `self.params`, and a counter in `self.notes`.
//!
//! A [`Worker`] is one thread's state (histories, the stack of the current line, its evaluator,
//! its counters). Several of them search together through [`crate::threads::ThreadPool`], which
//! owns what they share (the hash table and the signals) and what concerns the search as a whole
//! (its limits, the clock, reporting, the choice of the move).

mod best_move;
mod deepening;
mod hooks;
mod lmr_table;
mod node;
mod null_move;
mod path;
mod probcut;
mod pvs;
mod quiescence;
mod singular;
mod syzygy;
mod table;
mod worker;

pub use deepening::{Info, RootMove, SearchOptions, SearchResult};
pub use worker::Worker;

use crate::eval::Evaluator;
use crate::pv::Pv;
use chess::Position;
use node::{NonPv, Pv as PvNode};

impl<E: Evaluator> Worker<E> {
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
}
