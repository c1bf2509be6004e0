//! What the search learned about moves, for ordering them: killer moves per ply, countermoves,
//! and three history tables (quiet moves by from- and to-square, quiet moves by the moves before
//! them, captures by piece and victim). Every score moves by "gravity" and stays bounded.

use crate::params::{HISTORY_MAX, Params};
use crate::score::MAX_PLY;
use chess::{Color, Move, Piece, PieceType, Square};

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

// ANCHOR: history_bonus
/// The bonus for a move that cut off at `depth` (its malus for the moves tried before it is the
/// same amount, negated).
#[inline]
pub fn history_bonus(p: &Params, depth: i32) -> i32 {
    (p.history_bonus_per_depth * depth + p.history_bonus_base).clamp(0, p.history_bonus_max)
}
// ANCHOR_END: history_bonus

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

/// A move as the continuation tables see it: the piece that moved and where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    pub piece: Piece,
    pub to: Square,
}

// ANCHOR: continuation
/// Continuation history: how good a quiet move (piece, to-square) was as the reply to an earlier
/// move (piece, to-square), one or two plies before it. The same table serves both distances.
#[derive(Clone)]
pub struct ContinuationHistory {
    table: Box<[[[[i16; 64]; 12]; 64]; 12]>,
}
// ANCHOR_END: continuation

impl Default for ContinuationHistory {
    fn default() -> ContinuationHistory {
        ContinuationHistory {
            table: vec![[[[0i16; 64]; 12]; 64]; 12]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("twelve rows make the table")),
        }
    }
}

impl ContinuationHistory {
    #[inline]
    pub fn get(&self, before: PieceTo, now: PieceTo) -> i32 {
        self.table[before.piece.index()][before.to.index()][now.piece.index()][now.to.index()]
            as i32
    }

    #[inline]
    pub fn update(&mut self, before: PieceTo, now: PieceTo, bonus: i32) {
        apply_gravity(
            &mut self.table[before.piece.index()][before.to.index()][now.piece.index()]
                [now.to.index()],
            bonus,
        );
    }

    pub fn clear(&mut self) {
        for row in self.table.iter_mut() {
            *row = [[[0; 64]; 12]; 64];
        }
    }
}

// ANCHOR: capture_history
/// Capture history: a score per (moving piece, to-square, captured piece type).
#[derive(Clone)]
pub struct CaptureHistory {
    table: Box<[[[i16; 6]; 64]; 12]>,
}
// ANCHOR_END: capture_history

impl Default for CaptureHistory {
    fn default() -> CaptureHistory {
        CaptureHistory {
            table: Box::new([[[0; 6]; 64]; 12]),
        }
    }
}

impl CaptureHistory {
    #[inline]
    pub fn get(&self, piece: Piece, to: Square, captured: PieceType) -> i32 {
        self.table[piece.index()][to.index()][captured.index()] as i32
    }

    #[inline]
    pub fn update(&mut self, piece: Piece, to: Square, captured: PieceType, bonus: i32) {
        apply_gravity(
            &mut self.table[piece.index()][to.index()][captured.index()],
            bonus,
        );
    }

    pub fn clear(&mut self) {
        *self.table = [[[0; 6]; 64]; 12];
    }
}

// ANCHOR: countermoves
/// Countermoves: for each previous move (piece, to-square), the quiet reply that last refuted it.
#[derive(Clone)]
pub struct CounterMoves {
    table: Box<[[Option<Move>; 64]; 12]>,
}
// ANCHOR_END: countermoves

impl Default for CounterMoves {
    fn default() -> CounterMoves {
        CounterMoves {
            table: Box::new([[None; 64]; 12]),
        }
    }
}

impl CounterMoves {
    #[inline]
    pub fn get(&self, previous: PieceTo) -> Option<Move> {
        self.table[previous.piece.index()][previous.to.index()]
    }

    #[inline]
    pub fn set(&mut self, previous: PieceTo, reply: Move) {
        self.table[previous.piece.index()][previous.to.index()] = Some(reply);
    }

    pub fn clear(&mut self) {
        *self.table = [[None; 64]; 12];
    }
}

// ANCHOR: killers
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

    pub fn clear(&mut self) {
        self.slots = [[None; 2]; MAX_PLY + 1];
    }
}
// ANCHOR_END: killers

/// Everything the move ordering learns, kept together.
#[derive(Clone, Default)]
pub struct Histories {
    pub quiet: QuietHistory,
    pub continuation: ContinuationHistory,
    pub capture: CaptureHistory,
    pub countermoves: CounterMoves,
    pub killers: Killers,
}

impl Histories {
    pub fn clear(&mut self) {
        self.quiet.clear();
        self.continuation.clear();
        self.capture.clear();
        self.countermoves.clear();
        self.killers.clear();
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
