//! Playing at a chosen strength (`UCI_LimitStrength`, `UCI_Elo`).
//!
//! A weaker cb2026 should still play chess that makes sense: it looks less far ahead and now and
//! then prefers a move that is a little worse, the way a weaker player does, but it does not hang
//! its queen at random. Two levers do that, both set by the Elo asked for:
//!
//! - the search gets a node budget that halves with each step down, so a weaker setting sees
//!   fewer plies ahead;
//! - the search keeps [`CANDIDATES`] lines (MultiPV), and the move is drawn among them with a chance
//!   that falls off exponentially with how much worse each one scored, with a spread (temperature)
//!   that grows as the Elo falls; a move worse than a few spreads, or one that walks into a mate
//!   the best move avoids, is never chosen.
//!
//! The levers are set on a design scale of levels; games against Stockfish's own `UCI_Elo` at
//! 10+0.1 measured what three levels are worth ([`CALIBRATION`]), and a `UCI_Elo` is turned into a
//! level along those measurements (the book's chapter 19 and the README give the table).

use crate::score::MATE_BOUND;
use crate::search::Info;
use chess::Move;
use chess::rng::Rng;

// ANCHOR: strength_constants
/// The weakest setting.
pub const MIN_ELO: i32 = 1320;
/// The strongest setting: cb2026 at full strength, as measured on Stockfish 15.1's `UCI_Elo` scale
/// at 10+0.1 (the last row of [`CALIBRATION`]).
pub const MAX_ELO: i32 = 2161;
/// Lines searched to choose from.
pub const CANDIDATES: usize = 4;

/// The levers are set on a design scale of levels, from [`BOTTOM_LEVEL`] to [`TOP_LEVEL`], where
/// the node budget is 1,000 nodes at level 1580 and doubles every 80 levels ...
const ANCHOR_NODES: f64 = 1000.0;
const ANCHOR_LEVEL: f64 = 1580.0;
const LEVELS_PER_DOUBLING: f64 = 80.0;
const BOTTOM_LEVEL: f64 = 1320.0;
const TOP_LEVEL: f64 = 2300.0;
/// ... and the spread of the choice falls linearly from this many centipawns at the bottom level
/// to nothing at the top. Kept small: measured, a wide spread cost far more strength than it
/// gave variety.
const MAX_SPREAD: f64 = 15.0;
/// A candidate more than this many spreads worse than the best is never played.
const SPREADS_CUT: f64 = 2.0;

/// What levels measured in games against Stockfish 15.1 at its own `UCI_Elo` (100 games each at
/// 10+0.1, the book's chapter 19): (Elo measured, level played). A `UCI_Elo` is turned into a
/// level along these points, and below the first along the first segment's slope, so that each
/// measured level is offered under the Elo it measured.
pub const CALIBRATION: [(f64, f64); 3] = [(1419.0, 1500.0), (1858.0, 1900.0), (2161.0, 2300.0)];
// ANCHOR_END: strength_constants

/// A strength to play at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: i32,
}

impl Strength {
    /// The strength `elo`, clamped to [`MIN_ELO`]..=[`MAX_ELO`].
    pub fn new(elo: i32) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    pub fn elo(self) -> i32 {
        self.elo
    }

    // ANCHOR: strength_levers
    /// The level of the design scale that plays at this Elo.
    pub fn level(self) -> f64 {
        let elo = self.elo as f64;
        let segment = CALIBRATION
            .windows(2)
            .find(|w| elo <= w[1].0)
            .unwrap_or(&CALIBRATION[CALIBRATION.len() - 2..]);
        let ((e0, l0), (e1, l1)) = (segment[0], segment[1]);
        (l0 + (elo - e0) * (l1 - l0) / (e1 - e0)).min(TOP_LEVEL)
    }

    /// The most nodes a move may search.
    pub fn nodes(self) -> u64 {
        let doublings = (self.level() - ANCHOR_LEVEL) / LEVELS_PER_DOUBLING;
        (ANCHOR_NODES * doublings.exp2()).round() as u64
    }

    /// The spread of the choice among the candidates, in centipawns.
    pub fn spread(self) -> f64 {
        MAX_SPREAD * (TOP_LEVEL - self.level()) / (TOP_LEVEL - BOTTOM_LEVEL)
    }

    /// The move to play among `candidates` (each root move searched as a line, with its score,
    /// best first): the best, or with a chance that falls off with its loss, a worse one.
    pub fn choose(self, candidates: &[(Move, i32)], rng: &mut Rng) -> Option<Move> {
        let &(best_move, best) = candidates.first()?;
        let spread = self.spread();
        if spread < 1.0 {
            return Some(best_move);
        }
        let weight = |score: i32| {
            let loss = (best - score) as f64;
            // A line the best move doesn't lose is never a mate against us.
            let walks_into_mate = score <= -MATE_BOUND && best > -MATE_BOUND;
            if walks_into_mate || loss > SPREADS_CUT * spread {
                0.0
            } else {
                (-loss / spread).exp()
            }
        };
        let total: f64 = candidates.iter().map(|&(_, s)| weight(s)).sum();
        let mut ticket = total * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for &(mv, score) in candidates {
            ticket -= weight(score);
            if ticket < 0.0 {
                return Some(mv);
            }
        }
        Some(best_move)
    }
    // ANCHOR_END: strength_levers
}

/// The lines of the last iteration a search reported: what a limited strength chooses from.
#[derive(Default)]
pub struct Lines {
    depth: i32,
    /// (line number, score, principal variation), in the order reported.
    lines: Vec<(usize, i32, Vec<Move>)>,
}

impl Lines {
    /// Takes in an `info` line; a new depth starts a new set, and a bound (an aspiration window
    /// that failed) is no score to choose by.
    pub fn record(&mut self, info: &Info) {
        if info.bound.is_some() || info.pv.is_empty() {
            return;
        }
        if info.depth != self.depth {
            self.lines.clear();
            self.depth = info.depth;
        }
        self.lines.retain(|line| line.0 != info.multipv);
        self.lines.push((info.multipv, info.score, info.pv.clone()));
    }

    /// The move `strength` plays among the lines, and the reply on its line to ponder on.
    pub fn choose(&mut self, strength: Strength, rng: &mut Rng) -> Option<(Move, Option<Move>)> {
        self.lines.sort_by_key(|line| line.0);
        let candidates: Vec<(Move, i32)> = self
            .lines
            .iter()
            .map(|(_, score, pv)| (pv[0], *score))
            .collect();
        let mv = strength.choose(&candidates, rng)?;
        let line = self.lines.iter().find(|line| line.2[0] == mv)?;
        Some((mv, line.2.get(1).copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;

    fn moves() -> Vec<Move> {
        Position::startpos()
            .legal_moves()
            .iter()
            .copied()
            .take(4)
            .collect()
    }

    #[test]
    fn weaker_searches_less_and_spreads_more() {
        let (weak, strong) = (Strength::new(MIN_ELO), Strength::new(MAX_ELO));
        // The measured levels are played exactly under the Elo they measured.
        assert_eq!(Strength::new(1419).nodes(), 500);
        assert_eq!(Strength::new(1858).nodes(), 16_000);
        assert_eq!(Strength::new(2161).nodes(), 512_000);
        assert!((Strength::new(1419).spread() - 15.0 * 800.0 / 980.0).abs() < 1e-9);
        assert!(strong.spread() == 0.0);
        // Below the first measurement, along the first segment's slope.
        assert!(weak.nodes() < 300 && weak.nodes() > 200, "{}", weak.nodes());
        assert!(weak.spread() > 13.0 && weak.spread() < 15.0);
        assert_eq!(Strength::new(0), weak);
        assert_eq!(Strength::new(9999), strong);
    }

    #[test]
    fn the_choice_follows_the_losses() {
        let m = moves();
        let candidates = [(m[0], 50), (m[1], 40), (m[2], 25), (m[3], -MATE_BOUND - 3)];
        let mut rng = Rng::new(3);
        let mut counts = [0; 4];
        let weak = Strength::new(MIN_ELO);
        for _ in 0..10_000 {
            let mv = weak.choose(&candidates, &mut rng).expect("a move");
            counts[m.iter().position(|&x| x == mv).expect("a candidate")] += 1;
        }
        // 10 cp worse: chosen often; 25 cp worse: now and then (weights 1, 0.48, 0.16 at a
        // spread of 13.6); walking into a mate: never.
        assert!(counts[0] > counts[1] && counts[1] > 2_000, "{counts:?}");
        assert!(counts[2] > 600 && counts[2] < 1_800, "{counts:?}");
        assert_eq!(counts[3], 0);
        // Beyond two spreads: never.
        let far = [(m[0], 50), (m[1], 19)];
        assert!((0..1000).all(|_| weak.choose(&far, &mut rng) == Some(m[0])));
        // At the top strength the best move always.
        let strong = Strength::new(MAX_ELO);
        assert!((0..100).all(|_| strong.choose(&candidates, &mut rng) == Some(m[0])));
        assert_eq!(weak.choose(&[], &mut rng), None);
    }
}
