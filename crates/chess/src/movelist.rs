//! A fixed-capacity list of moves: no allocation on the hot path.

use crate::moves::Move;
use std::ops::{Deref, DerefMut};

// ANCHOR: move_list
/// Room for every legal move of any position this crate can hold. Positions come from the FEN
/// parser, which refuses more promoted pieces than missing pawns, and from legal moves, which
/// keep that true. Petrovic's 1964 composition has 218 legal moves, and Tobias Tuerk's 2024
/// computer search proved that no reachable position has more; it searched placements whose
/// material promotions explain, reachable or not, and sorted out the unreachable ones after.
/// The parser checks that material, not reachability: 38 places to spare cover the difference,
/// a test climbs towards many moves without finding more than 218, and `push` checks in debug
/// builds. (Without the material check, fifteen queens give 241.)
pub const MAX_MOVES: usize = 256;

#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}
// ANCHOR_END: move_list

/// A harmless filler for the unused part of the array; never read.
const FILLER: Move = Move::normal(crate::square::Square::A1, crate::square::Square::B1);

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [FILLER; MAX_MOVES],
            len: 0,
        }
    }

    // ANCHOR: push
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        // Never fills (see `MAX_MOVES`): debug builds, which CI runs the tests in, stop if it
        // does; the check below keeps a release build within the array.
        debug_assert!(
            self.len < MAX_MOVES,
            "more than {MAX_MOVES} moves in a list"
        );
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }
    // ANCHOR_END: push

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

// The check it tests exists in debug builds only.
#[cfg(all(test, debug_assertions))]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    #[should_panic(expected = "more than 256 moves")]
    fn a_list_that_overflows_stops_a_debug_build() {
        let mut list = MoveList::new();
        for _ in 0..=MAX_MOVES {
            list.push(Move::normal(Square::E1, Square::E8));
        }
    }
}
