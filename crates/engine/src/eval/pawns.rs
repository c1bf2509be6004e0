//! Pawn structure, cached by the pawn key: it depends on the pawns alone, and pawns move seldom,
//! so most positions the search meets find their structure already evaluated.

use super::feature_sink::{FeatureSink, Sum};
use super::masks::{adjacent_files, forward, passed_span, relative_rank};
use super::score_pair::S;
use super::weights::{BACKWARD, CONNECTED, DOUBLED, ISOLATED};
use chess::{Bitboard, Color, PieceType, Position, pawn_attacks};

// ANCHOR: pawn_structure
/// The pawn-structure features of both sides; returns each side's passed pawns.
#[inline(always)]
pub fn pawn_structure<A: FeatureSink>(pos: &Position, acc: &mut A) -> [Bitboard; 2] {
    let mut passed = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let ours = pos.pieces(PieceType::Pawn, color);
        let theirs = pos.pieces(PieceType::Pawn, !color);
        let their_attacks = theirs.fold(Bitboard::EMPTY, |a, sq| a | pawn_attacks(!color, sq));
        for sq in ours {
            let rank = relative_rank(color, sq);
            let beside = adjacent_files(sq.file()) & ours;
            // A pawn with another of ours in front of it on its file.
            if (forward(color, sq) & ours).is_nonempty() {
                acc.add(DOUBLED, color, 1);
            }
            if beside.is_empty() {
                acc.add(ISOLATED, color, 1);
            } else {
                let phalanx = beside & Bitboard::rank(sq.rank());
                let supported = pawn_attacks(!color, sq) & ours;
                if (phalanx | supported).is_nonempty() {
                    acc.add(CONNECTED + rank, color, 1);
                } else {
                    // Backward: no pawn beside it is level or behind to support its advance, and
                    // an enemy pawn controls the square in front.
                    let ahead_beside = adjacent_files(sq.file()) & passed_span(color, sq);
                    let behind_or_level = beside & !ahead_beside;
                    let up = if color == Color::White { 1 } else { -1 };
                    let stop = sq.offset(0, up).map_or(Bitboard::EMPTY, Bitboard::from);
                    if behind_or_level.is_empty() && (stop & their_attacks).is_nonempty() {
                        acc.add(BACKWARD, color, 1);
                    }
                }
            }
            // Passed: no enemy pawn in front on its file or beside, and no pawn of ours in front.
            if (passed_span(color, sq) & theirs).is_empty()
                && (forward(color, sq) & ours).is_empty()
            {
                passed[color.index()] = passed[color.index()].with(sq);
            }
        }
    }
    passed
}
// ANCHOR_END: pawn_structure

// ANCHOR: pawn_cache
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: S,
    passed: [Bitboard; 2],
}

/// A small hash table of pawn structures, one per search thread.
pub struct PawnCache {
    entries: Vec<Entry>,
}

const ENTRIES: usize = 1 << 14;

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache {
            entries: vec![Entry::default(); ENTRIES],
        }
    }
}

impl PawnCache {
    /// The structure's score and passed pawns, from the cache or computed and cached.
    #[inline(always)]
    pub fn probe(&mut self, pos: &Position) -> (S, [Bitboard; 2]) {
        let key = pos.pawn_key();
        let entry = &mut self.entries[key as usize & (ENTRIES - 1)];
        if entry.key != key {
            let mut sum = Sum::default();
            let passed = pawn_structure(pos, &mut sum);
            *entry = Entry {
                key,
                score: sum.score,
                passed,
            };
        }
        (entry.score, entry.passed)
    }
}
// ANCHOR_END: pawn_cache
