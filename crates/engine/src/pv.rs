//! A principal variation: the line the search expects, as a fixed-size array (no allocation in
//! the search).

use crate::score::MAX_PLY;
use chess::Move;

// ANCHOR: pv
#[derive(Clone)]
pub struct Pv {
    moves: [Option<Move>; MAX_PLY],
    len: usize,
}
// ANCHOR_END: pv

impl Default for Pv {
    fn default() -> Pv {
        Pv::new()
    }
}

impl Pv {
    pub fn new() -> Pv {
        Pv {
            moves: [None; MAX_PLY],
            len: 0,
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    // ANCHOR: pv_set
    /// This line becomes `mv` followed by `rest`.
    #[inline]
    pub fn set(&mut self, mv: Move, rest: &Pv) {
        self.moves[0] = Some(mv);
        let n = rest.len.min(MAX_PLY - 1);
        self.moves[1..=n].copy_from_slice(&rest.moves[..n]);
        self.len = n + 1;
    }
    // ANCHOR_END: pv_set

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn first(&self) -> Option<Move> {
        if self.len > 0 { self.moves[0] } else { None }
    }

    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.len].iter().flatten().copied()
    }

    pub fn to_vec(&self) -> Vec<Move> {
        self.moves().collect()
    }
}
