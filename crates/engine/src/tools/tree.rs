//! The search-tree explorer's search (`tree`): the engine's own search, run as `bench` runs it
//! (one thread, a fixed depth, a fresh hash table and fresh histories, so the same position,
//! depth and switches always give the same tree), with a recorder attached. Iterative deepening
//! runs as usual; the recorder starts again at each iteration, so the tree is the last (deepest)
//! iteration, with every root search it needed (an aspiration window that fails is searched
//! again; each try is a root of its own).

use super::bench::BENCH_HASH_MIB;
use crate::eval::nnue::Network;
use crate::params::Params;
use crate::search::SearchOptions;
use crate::techniques::{TECHNIQUES, Techniques};
use crate::threads::{Signals, ThreadPool};
use crate::time::Limits;
use crate::tree::{NO_PARENT, Tree, TreeRecorder, subtree_sizes};
use crate::tt::TranspositionTable;
use chess::Position;
use std::sync::Arc;

/// The deepest tree `tree` records. The node cap, not the depth, bounds the memory.
pub const MAX_TREE_DEPTH: i32 = 20;

/// What to record.
#[derive(Clone)]
pub struct TreeRequest {
    pub position: Position,
    /// Hashes of the positions before `position` in the game (for repetitions).
    pub history: Vec<u64>,
    pub depth: i32,
    pub techniques: Techniques,
    pub params: Params,
    /// The most nodes to keep ([`DEFAULT_CAP`]).
    pub cap: usize,
    /// Write castling as in Chess960 (king takes rook).
    pub chess960: bool,
}

/// Runs the search of `request` with a recorder attached.
pub fn record(request: &TreeRequest, net: Arc<Network>, signals: Arc<Signals>) -> Tree {
    let tt = Arc::new(TranspositionTable::new(BENCH_HASH_MIB));
    let mut pool = ThreadPool::with_network(tt, net).with_signals(signals);
    pool.set_switches(&request.techniques, &request.params);
    pool.main_worker().tree = Some(Box::new(TreeRecorder::new(request.cap)));
    let depth = request.depth.clamp(1, MAX_TREE_DEPTH);
    let result = pool.search(
        &request.position,
        &request.history,
        &Limits::depth(depth),
        &SearchOptions::default(),
        &mut |_| {},
    );
    let mut counters = pool.counters().clone();
    let search = pool.main_worker();
    let recorder = search
        .tree
        .take()
        .unwrap_or_else(|| Box::new(TreeRecorder::new(0)));
    counters.subtract(&recorder.counters_before);
    let nodes = recorder.nodes;
    let subtree = subtree_sizes(&nodes);
    let roots = (0..nodes.len() as u32)
        .filter(|&i| nodes[i as usize].parent == NO_PARENT)
        .collect();
    let pv = search
        .root_moves
        .first()
        .map(|rm| rm.pv.to_vec())
        .unwrap_or_default();
    Tree {
        fen: request.position.to_fen(),
        depth: recorder.iteration,
        nodes,
        subtree,
        roots,
        score: result.score,
        best_move: result.best_move,
        pv,
        counters,
        dropped: recorder.dropped,
        search_nodes: result.nodes,
        cap: request.cap,
        stopped: search.aborted,
        chess960: request.chess960,
        off: TECHNIQUES
            .iter()
            .filter(|t| {
                request.techniques.get(t.name) == Some(false)
                    && Techniques::default().get(t.name) == Some(true)
            })
            .map(|t| t.name)
            .collect(),
    }
}
