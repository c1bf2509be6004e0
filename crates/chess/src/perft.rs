//! perft: the number of leaf nodes of the legal move tree to a fixed depth. Comparing it with
//! known counts is the standard test of a move generator.

use crate::movelist::MoveList;
use crate::moves::Move;
use crate::position::Position;

// ANCHOR: perft
/// Counts the leaves of the move tree `depth` plies deep. The last ply isn't played: the moves
/// of the position before it are only counted (bulk counting).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate::<MoveList, true, true>(&mut moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.make_move(mv);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}
// ANCHOR_END: perft

// ANCHOR: divide
/// perft split by the first move: what `go perft` prints, to find where two generators differ.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.make_move(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}
// ANCHOR_END: divide
