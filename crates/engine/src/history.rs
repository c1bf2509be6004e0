//! What the search learned about moves, for ordering them: killer moves per ply and the
//! butterfly history of quiet moves.

use crate::params::{HISTORY_MAX, Params};
use crate::score::MAX_PLY;
use chess::{Color, Move};

// ANCHOR: gravity
/// Moves a history score towards `HISTORY_MAX` (bonus > 0) or `-HISTORY_MAX` (bonus < 0), by less
/// the nearer it already is ("gravity"): scores stay bounded and recent results weigh more.
#[inline]
pub fn apply_gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = *entry as i32;
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}
// ANCHOR_END: gravity

/// The bonus for a move that cut off at `depth` (its malus for the quiet moves tried before it
/// is the same amount, negated).
#[inline]
pub fn history_bonus(p: &Params, depth: i32) -> i32 {
    (p.history_bonus_per_depth * depth + p.history_bonus_base).clamp(0, p.history_bonus_max)
}

/// Butterfly history: a score per (side, from-square, to-square) of quiet moves.
#[derive(Clone)]
pub struct QuietHistory {
    table: Box<[[[i16; 64]; 64]; 2]>,
}

impl Default for QuietHistory {
    fn default() -> QuietHistory {
        QuietHistory {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl QuietHistory {
    #[inline]
    pub fn get(&self, side: Color, mv: Move) -> i32 {
        self.table[side.index()][mv.from().index()][mv.to().index()] as i32
    }

    #[inline]
    pub fn update(&mut self, side: Color, mv: Move, bonus: i32) {
        apply_gravity(
            &mut self.table[side.index()][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    pub fn clear(&mut self) {
        *self.table = [[[0; 64]; 64]; 2];
    }
}

/// Two quiet moves per ply that recently cut off there, most recent first.
#[derive(Clone)]
pub struct Killers {
    slots: [[Option<Move>; 2]; MAX_PLY + 1],
}

impl Default for Killers {
    fn default() -> Killers {
        Killers {
            slots: [[None; 2]; MAX_PLY + 1],
        }
    }
}

impl Killers {
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<Move>; 2] {
        self.slots[ply]
    }

    #[inline]
    pub fn add(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    /// Forgets the killers below `ply` (their positions are gone after a new root move).
    pub fn clear_from(&mut self, ply: usize) {
        if ply < self.slots.len() {
            self.slots[ply] = [None; 2];
        }
    }

    pub fn clear(&mut self) {
        self.slots = [[None; 2]; MAX_PLY + 1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_scores_bounded() {
        let mut h = 0i16;
        for _ in 0..1000 {
            apply_gravity(&mut h, 4000);
        }
        assert!(h as i32 <= HISTORY_MAX && h > 16_000, "{h}");
        for _ in 0..1000 {
            apply_gravity(&mut h, -4000);
        }
        assert!(h as i32 >= -HISTORY_MAX && h < -16_000, "{h}");
        let mut small = 0i16;
        apply_gravity(&mut small, 100);
        assert_eq!(small, 100);
    }
}
