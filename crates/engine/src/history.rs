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

// ANCHOR: history_deltas
/// What one history learns from a cutoff: `bonus` for the move that cut off, and `malus` (a
/// positive amount, taken away) for each move of its kind tried before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BonusMalus {
    pub bonus: i32,
    pub malus: i32,
}

/// The bonus and malus of each history after a cutoff at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryDeltas {
    pub quiet: BonusMalus,
    pub capture: BonusMalus,
    pub continuation: BonusMalus,
}

/// `per_depth * depth + base`, capped at `max` and never below 0 (a bonus that turned into a
/// malus at low depth would teach the opposite of what the cutoff showed).
#[inline]
fn capped(per_depth: i32, base: i32, max: i32, depth: i32) -> i32 {
    (per_depth * depth + base).min(max).max(0)
}

impl HistoryDeltas {
    /// 20: with `separate` (the technique `history_bonus_malus`), six formulas of their own, one
    /// per history and direction, so that tuning can make a malus larger than the bonus, or the
    /// capture history learn faster than the quiet one; without it, [`history_bonus`] for all six,
    /// as chapter 9 built it.
    #[inline]
    pub fn new(p: &Params, separate: bool, depth: i32) -> HistoryDeltas {
        if !separate {
            let same = history_bonus(p, depth);
            let both = BonusMalus {
                bonus: same,
                malus: same,
            };
            return HistoryDeltas {
                quiet: both,
                capture: both,
                continuation: both,
            };
        }
        HistoryDeltas {
            quiet: BonusMalus {
                bonus: capped(
                    p.quiet_bonus_per_depth,
                    p.quiet_bonus_base,
                    p.quiet_bonus_max,
                    depth,
                ),
                malus: capped(
                    p.quiet_malus_per_depth,
                    p.quiet_malus_base,
                    p.quiet_malus_max,
                    depth,
                ),
            },
            capture: BonusMalus {
                bonus: capped(
                    p.capture_bonus_per_depth,
                    p.capture_bonus_base,
                    p.capture_bonus_max,
                    depth,
                ),
                malus: capped(
                    p.capture_malus_per_depth,
                    p.capture_malus_base,
                    p.capture_malus_max,
                    depth,
                ),
            },
            continuation: BonusMalus {
                bonus: capped(
                    p.cont_bonus_per_depth,
                    p.cont_bonus_base,
                    p.cont_bonus_max,
                    depth,
                ),
                malus: capped(
                    p.cont_malus_per_depth,
                    p.cont_malus_base,
                    p.cont_malus_max,
                    depth,
                ),
            },
        }
    }
}
// ANCHOR_END: history_deltas

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

// ANCHOR: low_ply_history
/// The plies below the root that the low-ply history covers (stage 20).
pub const LOW_PLY_HISTORY_PLIES: usize = 4;

/// Low-ply history (stage 20): a butterfly table of quiet moves, by from- and to-square, for each
/// of the first plies below the root. The main history mixes every ply of the tree, most of them
/// near the leaves; near the root, where a better ordering saves the most, the few positions
/// there keep a table of their own. Its plies count from the root of the current search, so it
/// starts empty with each search. The root's own moves are ordered by the iterations, so its
/// ply has no row.
#[derive(Clone)]
pub struct LowPlyHistory {
    table: Box<[[[i16; 64]; 64]; LOW_PLY_HISTORY_PLIES]>,
}
// ANCHOR_END: low_ply_history

impl Default for LowPlyHistory {
    fn default() -> LowPlyHistory {
        LowPlyHistory {
            table: Box::new([[[0; 64]; 64]; LOW_PLY_HISTORY_PLIES]),
        }
    }
}

impl LowPlyHistory {
    /// The row of `ply`, if the table covers it.
    #[inline]
    pub fn row(ply: usize) -> Option<usize> {
        ply.checked_sub(1)
            .filter(|&row| row < LOW_PLY_HISTORY_PLIES)
    }

    #[inline]
    pub fn get(&self, row: usize, mv: Move) -> i32 {
        self.table[row][mv.from().index()][mv.to().index()] as i32
    }

    #[inline]
    pub fn update(&mut self, row: usize, mv: Move, bonus: i32) {
        apply_gravity(
            &mut self.table[row][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    pub fn clear(&mut self) {
        *self.table = [[[0; 64]; 64]; LOW_PLY_HISTORY_PLIES];
    }
}

/// Everything the move ordering learns, kept together.
#[derive(Clone, Default)]
pub struct Histories {
    pub quiet: QuietHistory,
    pub continuation: ContinuationHistory,
    pub capture: CaptureHistory,
    pub countermoves: CounterMoves,
    pub killers: Killers,
    pub low_ply: LowPlyHistory,
}

impl Histories {
    pub fn clear(&mut self) {
        self.quiet.clear();
        self.continuation.clear();
        self.capture.clear();
        self.countermoves.clear();
        self.killers.clear();
        self.low_ply.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chapter 9's single formula, written out: min(160 x depth - 80, 1600), never below 0.
    fn chapter9_bonus(depth: i32) -> i32 {
        (160 * depth - 80).clamp(0, 1600)
    }

    #[test]
    fn one_formula_serves_all_six_when_switched_off() {
        let p = Params::default();
        for depth in -2..=40 {
            let old = chapter9_bonus(depth);
            assert_eq!(history_bonus(&p, depth), old, "depth {depth}");
            let d = HistoryDeltas::new(&p, false, depth);
            for h in [d.quiet, d.capture, d.continuation] {
                assert_eq!(
                    h,
                    BonusMalus {
                        bonus: old,
                        malus: old
                    },
                    "depth {depth}"
                );
            }
        }
        assert_eq!(HistoryDeltas::new(&p, false, 3).quiet.bonus, 400);
        assert_eq!(HistoryDeltas::new(&p, false, 11).capture.malus, 1600);
        // Off, the separate rows are not read at all.
        let mut q = p;
        q.quiet_malus_per_depth = 512;
        q.capture_bonus_max = 200;
        assert_eq!(
            HistoryDeltas::new(&q, false, 5),
            HistoryDeltas::new(&p, false, 5)
        );
    }

    #[test]
    fn separate_formulas_are_capped_and_never_negative() {
        let p = Params::default();
        let d = HistoryDeltas::new(&p, true, 3);
        // The defaults: bonuses as chapter 9's, maluses min(200 x depth - 80, 2000).
        assert_eq!(
            d.quiet,
            BonusMalus {
                bonus: 400,
                malus: 520
            }
        );
        assert_eq!(
            d.capture,
            BonusMalus {
                bonus: 400,
                malus: 520
            }
        );
        assert_eq!(
            d.continuation,
            BonusMalus {
                bonus: 400,
                malus: 520
            }
        );
        let deep = HistoryDeltas::new(&p, true, 30);
        assert_eq!(
            deep.quiet,
            BonusMalus {
                bonus: 1600,
                malus: 2000
            }
        );
        // Each of the eighteen rows is read by its own history and direction.
        let mut q = p;
        q.quiet_bonus_per_depth = 100;
        q.quiet_malus_base = 50;
        q.capture_bonus_max = 300;
        q.capture_malus_per_depth = 16;
        q.cont_bonus_base = -400;
        q.cont_malus_max = 700;
        let d = HistoryDeltas::new(&q, true, 4);
        assert_eq!(
            d.quiet,
            BonusMalus {
                bonus: 320,
                malus: 850
            }
        );
        // 16 x 4 - 80 is below 0: no malus.
        assert_eq!(
            d.capture,
            BonusMalus {
                bonus: 300,
                malus: 0
            }
        );
        assert_eq!(
            d.continuation,
            BonusMalus {
                bonus: 240,
                malus: 700
            }
        );
        // A negative sum is no bonus at all, not a malus.
        let shallow = HistoryDeltas::new(&q, true, 1);
        assert_eq!(shallow.continuation.bonus, 0);
    }

    #[test]
    fn low_ply_history_covers_the_plies_below_the_root() {
        assert_eq!(LowPlyHistory::row(0), None);
        assert_eq!(LowPlyHistory::row(1), Some(0));
        assert_eq!(
            LowPlyHistory::row(LOW_PLY_HISTORY_PLIES),
            Some(LOW_PLY_HISTORY_PLIES - 1)
        );
        assert_eq!(LowPlyHistory::row(LOW_PLY_HISTORY_PLIES + 1), None);
        let mut h = LowPlyHistory::default();
        let mv = Move::normal(Square::G1, Square::H8);
        h.update(1, mv, 500);
        assert_eq!(h.get(1, mv), 500);
        assert_eq!(h.get(0, mv), 0);
        h.clear();
        assert_eq!(h.get(1, mv), 0);
    }

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
