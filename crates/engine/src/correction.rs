//! Correction histories (chapter 20): what the search has learned about the static evaluation's
//! errors, by features of the position, so that the next evaluation of a position that shares
//! them is corrected before the search bets on it.
//!
//! Each table maps a feature (the pawn structure, one colour's pieces other than pawns, the minor
//! or the major pieces, the last two moves) to a correction in fixed point. A node whose result
//! says the evaluation was wrong moves the entries of its features towards the error; the
//! correction of a position is a weighted sum of its entries.

use crate::history::PieceTo;
use crate::params::Params;
use crate::techniques::Techniques;
use chess::{Color, Position};

/// An entry counts in 1/256 of a centipawn, so that small, shallow updates still move it.
pub const CORRECTION_GRAIN: i32 = 256;

/// The largest correction one entry holds: 64 centipawns, in grains (it fits an `i16`).
pub const CORRECTION_LIMIT: i32 = 64 * CORRECTION_GRAIN;

/// The weights of the tables are in 1/1024.
const WEIGHT_ONE: i32 = 1024;

/// Entries per side to move in a table indexed by a hash: a power of two.
const KEYED_SIZE: usize = 16_384;

// ANCHOR: correction_bonus
/// How far one result moves an entry, in grains: the error (the search's score less the
/// evaluation it corrected, in centipawns) times the depth that backs it, over
/// `correction_update_divisor`, and at most `correction_bonus_max` centipawns either way, so that
/// one surprising result cannot swing a table that many positions share.
#[inline]
pub fn correction_bonus(p: &Params, error: i32, depth: i32) -> i32 {
    let max = p.correction_bonus_max * CORRECTION_GRAIN;
    let bonus = error as i64 * depth.max(1) as i64 * CORRECTION_GRAIN as i64
        / p.correction_update_divisor as i64;
    bonus.clamp(-max as i64, max as i64) as i32
}
// ANCHOR_END: correction_bonus

// ANCHOR: correction_gravity
/// Moves an entry by `bonus`, by less the nearer the entry already is to the limit on that side
/// ("gravity", as the move-ordering histories do): entries stay within
/// ±[`CORRECTION_LIMIT`] and recent results weigh more than old ones.
#[inline]
pub fn apply_correction(entry: &mut i16, bonus: i32) {
    let value = *entry as i32;
    let moved = value + bonus - value * bonus.abs() / CORRECTION_LIMIT;
    *entry = moved.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16;
}
// ANCHOR_END: correction_gravity

/// A correction per side to move and hash of a part of the position (the low bits of the hash
/// pick the entry: positions that share them share the entry, a risk worth a small table).
#[derive(Clone)]
pub struct KeyedCorrection {
    table: Box<[[i16; KEYED_SIZE]; 2]>,
}

impl Default for KeyedCorrection {
    fn default() -> KeyedCorrection {
        KeyedCorrection {
            table: Box::new([[0; KEYED_SIZE]; 2]),
        }
    }
}

impl KeyedCorrection {
    #[inline]
    pub fn get(&self, side: Color, key: u64) -> i32 {
        self.table[side.index()][key as usize & (KEYED_SIZE - 1)] as i32
    }

    #[inline]
    pub fn update(&mut self, side: Color, key: u64, bonus: i32) {
        apply_correction(
            &mut self.table[side.index()][key as usize & (KEYED_SIZE - 1)],
            bonus,
        );
    }

    pub fn clear(&mut self) {
        *self.table = [[0; KEYED_SIZE]; 2];
    }
}

// ANCHOR: continuation_correction
/// Continuation correction: a correction per pair of moves (piece, to-square), the move two plies
/// before a node and the move that reached it. The pair says what the last exchange of moves
/// was about (a piece hunted, a threat parried), which the evaluation may misjudge whatever the
/// rest of the board.
#[derive(Clone)]
pub struct ContinuationCorrection {
    table: Box<[[[[i16; 64]; 12]; 64]; 12]>,
}
// ANCHOR_END: continuation_correction

impl Default for ContinuationCorrection {
    fn default() -> ContinuationCorrection {
        ContinuationCorrection {
            table: vec![[[[0i16; 64]; 12]; 64]; 12]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("twelve rows make the table")),
        }
    }
}

impl ContinuationCorrection {
    #[inline]
    fn entry(&mut self, before: PieceTo, last: PieceTo) -> &mut i16 {
        &mut self.table[before.piece.index()][before.to.index()][last.piece.index()]
            [last.to.index()]
    }

    #[inline]
    pub fn get(&self, before: PieceTo, last: PieceTo) -> i32 {
        self.table[before.piece.index()][before.to.index()][last.piece.index()][last.to.index()]
            as i32
    }

    #[inline]
    pub fn update(&mut self, before: PieceTo, last: PieceTo, bonus: i32) {
        apply_correction(self.entry(before, last), bonus);
    }

    pub fn clear(&mut self) {
        for row in self.table.iter_mut() {
            *row = [[[0; 64]; 12]; 64];
        }
    }
}

/// Every correction table of one thread.
#[derive(Clone, Default)]
pub struct CorrectionHistories {
    pub pawn: KeyedCorrection,
    /// Indexed by the colour whose pieces the key hashes.
    pub non_pawn: [KeyedCorrection; 2],
    pub minor: KeyedCorrection,
    pub major: KeyedCorrection,
    pub continuation: ContinuationCorrection,
}

impl CorrectionHistories {
    pub fn clear(&mut self) {
        self.pawn.clear();
        for table in &mut self.non_pawn {
            table.clear();
        }
        self.minor.clear();
        self.major.clear();
        self.continuation.clear();
    }

    // ANCHOR: correction_sum
    /// The correction of `pos`, in centipawns: the entries of its features in the tables that
    /// are switched on, each times its weight. `previous`: the moves one and two plies before
    /// (`None`: a null move, or before the root).
    pub fn correction(
        &self,
        pos: &Position,
        previous: [Option<PieceTo>; 2],
        t: &Techniques,
        p: &Params,
    ) -> i32 {
        let side = pos.side_to_move();
        let mut sum = 0;
        if t.pawn_correction {
            sum += p.pawn_correction_weight * self.pawn.get(side, pos.pawn_key());
        }
        if t.non_pawn_correction {
            for color in Color::ALL {
                let key = pos.non_pawn_key(color);
                sum += p.non_pawn_correction_weight * self.non_pawn[color.index()].get(side, key);
            }
        }
        if t.minor_correction {
            sum += p.minor_correction_weight * self.minor.get(side, pos.minor_key());
        }
        if t.major_correction {
            sum += p.major_correction_weight * self.major.get(side, pos.major_key());
        }
        if t.continuation_correction
            && let [Some(last), Some(before)] = previous
        {
            sum += p.continuation_correction_weight * self.continuation.get(before, last);
        }
        sum / (WEIGHT_ONE * CORRECTION_GRAIN)
    }
    // ANCHOR_END: correction_sum

    /// Moves the entries of `pos`'s features, in the tables switched on, by `bonus` (grains).
    pub fn update(
        &mut self,
        pos: &Position,
        previous: [Option<PieceTo>; 2],
        t: &Techniques,
        bonus: i32,
    ) {
        let side = pos.side_to_move();
        if t.pawn_correction {
            self.pawn.update(side, pos.pawn_key(), bonus);
        }
        if t.non_pawn_correction {
            for color in Color::ALL {
                let key = pos.non_pawn_key(color);
                self.non_pawn[color.index()].update(side, key, bonus);
            }
        }
        if t.minor_correction {
            self.minor.update(side, pos.minor_key(), bonus);
        }
        if t.major_correction {
            self.major.update(side, pos.major_key(), bonus);
        }
        if t.continuation_correction
            && let [Some(last), Some(before)] = previous
        {
            self.continuation.update(before, last, bonus);
        }
    }
}

/// Whether any correction table is switched on: without one, nothing is read or learned.
#[inline]
pub fn corrections_on(t: &Techniques) -> bool {
    t.pawn_correction
        || t.non_pawn_correction
        || t.minor_correction
        || t.major_correction
        || t.continuation_correction
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::PieceTo;
    use chess::{Piece, PieceType, Square};

    fn every_table() -> Techniques {
        Techniques {
            pawn_correction: true,
            non_pawn_correction: true,
            minor_correction: true,
            major_correction: true,
            continuation_correction: true,
            ..Techniques::default()
        }
    }

    #[test]
    fn the_bonus_grows_with_error_and_depth_up_to_its_cap() {
        let p = Params::default();
        // 12 centipawns at depth 8: 12 x 8 / 96 = 1 centipawn, in grains.
        assert_eq!(correction_bonus(&p, 12, 8), CORRECTION_GRAIN);
        assert_eq!(correction_bonus(&p, -12, 8), -CORRECTION_GRAIN);
        assert_eq!(correction_bonus(&p, 24, 8), 2 * correction_bonus(&p, 12, 8));
        assert_eq!(
            correction_bonus(&p, 12, 16),
            2 * correction_bonus(&p, 12, 8)
        );
        let cap = p.correction_bonus_max * CORRECTION_GRAIN;
        assert_eq!(correction_bonus(&p, 5000, 20), cap);
        assert_eq!(correction_bonus(&p, -5000, 20), -cap);
        // No overflow at the extremes.
        assert_eq!(correction_bonus(&p, i32::MAX / 2, 128), cap);
        assert_eq!(correction_bonus(&p, 0, 30), 0);
    }

    #[test]
    fn gravity_keeps_entries_within_the_limit() {
        let mut entry = 0i16;
        apply_correction(&mut entry, 1000);
        assert_eq!(entry, 1000, "from zero, the whole bonus");
        apply_correction(&mut entry, 1000);
        assert!(
            entry < 2000 && entry > 1900,
            "{entry}: a little less the second time"
        );
        for _ in 0..10_000 {
            apply_correction(&mut entry, 4096);
        }
        assert!(entry as i32 <= CORRECTION_LIMIT && entry as i32 > CORRECTION_LIMIT - 8);
        for _ in 0..10_000 {
            apply_correction(&mut entry, -4096);
        }
        assert!(entry as i32 >= -CORRECTION_LIMIT && (entry as i32) < -CORRECTION_LIMIT + 8);
    }

    #[test]
    fn a_correction_is_its_entries_times_their_weights() {
        let pos = Position::startpos();
        let t = every_table();
        let mut p = Params::default();
        let mut tables = CorrectionHistories::default();
        assert_eq!(tables.correction(&pos, [None; 2], &t, &p), 0);

        // Ten centipawns into the pawn table alone: the correction is ten centipawns at full
        // weight, five at half weight, and nothing with the table switched off.
        let no_table = Techniques {
            pawn_correction: false,
            non_pawn_correction: false,
            minor_correction: false,
            major_correction: false,
            continuation_correction: false,
            ..Techniques::default()
        };
        let pawn_only = Techniques {
            pawn_correction: true,
            ..no_table
        };
        tables.update(&pos, [None; 2], &pawn_only, 10 * CORRECTION_GRAIN);
        assert_eq!(tables.correction(&pos, [None; 2], &t, &p), 10);
        p.pawn_correction_weight = 512;
        assert_eq!(tables.correction(&pos, [None; 2], &t, &p), 5);
        assert_eq!(tables.correction(&pos, [None; 2], &no_table, &p), 0);
        // The other side to move has an entry of its own.
        let after_nf3 = {
            let mut child = pos.clone();
            child.make_move(pos.parse_uci_move("g1f3").expect("legal"));
            child
        };
        assert_eq!(tables.correction(&after_nf3, [None; 2], &t, &p), 0);

        // Every table: the two non-pawn tables count once each, the continuation table only
        // with both moves known.
        p = Params::default();
        tables.clear();
        assert_eq!(tables.correction(&pos, [None; 2], &t, &p), 0);
        let knight = PieceTo {
            piece: Piece::new(Color::White, PieceType::Knight),
            to: Square::parse("f3").expect("a square"),
        };
        let pawn = PieceTo {
            piece: Piece::new(Color::Black, PieceType::Pawn),
            to: Square::parse("d5").expect("a square"),
        };
        let moves = [Some(pawn), Some(knight)];
        tables.update(&pos, moves, &t, 2 * CORRECTION_GRAIN);
        // Pawn, two non-pawn, minor, major, continuation: six entries of 2.
        assert_eq!(tables.correction(&pos, moves, &t, &p), 12);
        assert_eq!(tables.correction(&pos, [Some(pawn), None], &t, &p), 10);
        // A negative bonus takes it back down.
        tables.update(&pos, moves, &t, -4 * CORRECTION_GRAIN);
        assert!(tables.correction(&pos, moves, &t, &p) < 0);
    }
}
