//! perft: the number of leaf nodes of the legal move tree to a fixed depth. Comparing it with
//! known counts is the standard test of a move generator.

use crate::movelist::MoveList;
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// [`perft`] that gives up, returning `None`, soon after `stop` is set: for a `go perft` that a
/// GUI may stop. The flag is read at every node two or more plies from the leaves, so a stop is
/// seen within a few thousand nodes and the count itself costs nothing measurable.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.generate::<MoveList, true, true>(&mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.make_move(mv);
        nodes += perft_until(&child, depth - 1, stop)?;
    }
    Some(nodes)
}

// ANCHOR: divide
/// perft split by the first move: what `go perft` prints, to find where two generators differ.
/// Each first move is reported through `report` as soon as its subtree is counted; returns the
/// total, or `None` if `stop` was set before the end (see [`perft_until`]).
pub fn divide(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
    mut report: impl FnMut(Move, u64),
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut total = 0;
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.make_move(mv);
        let nodes = perft_until(&child, depth - 1, stop)?;
        report(mv, nodes);
        total += nodes;
    }
    Some(total)
}
// ANCHOR_END: divide

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stoppable_count_equals_the_plain_one_and_stops() {
        let pos = Position::startpos();
        let go_on = AtomicBool::new(false);
        for depth in 0..=4 {
            assert_eq!(perft_until(&pos, depth, &go_on), Some(perft(&pos, depth)));
        }
        let mut split = Vec::new();
        let total = divide(&pos, 3, &go_on, |mv, n| split.push((mv, n)));
        assert_eq!(split.len(), 20);
        for &(mv, n) in &split {
            let mut child = pos.clone();
            child.make_move(mv);
            assert_eq!(n, perft(&child, 2), "{mv}");
        }
        assert_eq!(total, Some(8_902));
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&pos, 20, &stop), None);
        assert_eq!(divide(&pos, 20, &stop, |_, _| {}), None);
    }
}
