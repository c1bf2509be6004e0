//! Castling rights, stored by the file of the rook each right belongs to.
//!
//! Storing the rook's file instead of a plain "king side / queen side" flag is what lets one
//! representation serve both standard chess and Chess960, where the rooks may start anywhere.

use crate::piece::Color;
use crate::square::{File, Rank, Square};
use crate::zobrist;

/// Towards the h-file (`O-O`) or towards the a-file (`O-O-O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    King,
    Queen,
}

impl CastleSide {
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The file the king lands on.
    pub const fn king_file(self) -> File {
        match self {
            CastleSide::King => File::G,
            CastleSide::Queen => File::C,
        }
    }

    /// The file the rook lands on.
    pub const fn rook_file(self) -> File {
        match self {
            CastleSide::King => File::F,
            CastleSide::Queen => File::D,
        }
    }
}

// ANCHOR: castling_rights
/// Which castling moves are still allowed: for each colour and side, the castling rook's file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    rooks: [[Option<File>; 2]; 2],
}
// ANCHOR_END: castling_rights

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
    };

    /// The castling rook's file for this colour and side, if that right remains.
    #[inline]
    pub const fn rook_file(self, color: Color, side: CastleSide) -> Option<File> {
        self.rooks[color as usize][side as usize]
    }

    /// The castling rook's square for this colour and side, if that right remains.
    #[inline]
    pub const fn rook_square(self, color: Color, side: CastleSide) -> Option<Square> {
        match self.rook_file(color, side) {
            Some(file) => Some(Square::new(file, back_rank(color))),
            None => None,
        }
    }

    #[inline]
    pub fn set(&mut self, color: Color, side: CastleSide, file: Option<File>) {
        self.rooks[color.index()][side as usize] = file;
    }

    #[inline]
    pub fn has(self, color: Color, side: CastleSide) -> bool {
        self.rook_file(color, side).is_some()
    }

    #[inline]
    pub fn any(self) -> bool {
        self != CastlingRights::NONE
    }

    /// Drops both rights of one colour (its king moved).
    #[inline]
    pub fn clear(&mut self, color: Color) {
        self.rooks[color.index()] = [None; 2];
    }

    // ANCHOR: rights_update
    /// Drops any right whose rook stands on `sq` (the rook moved or was captured).
    #[inline]
    pub fn remove_rook(&mut self, sq: Square) {
        for color in Color::ALL {
            if sq.rank() != back_rank(color) {
                continue;
            }
            for side in &mut self.rooks[color.index()] {
                if *side == Some(sq.file()) {
                    *side = None;
                }
            }
        }
    }

    /// The part of the Zobrist hash that the rights contribute.
    pub(crate) fn hash(self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(file) = self.rook_file(color, side) {
                    key ^= zobrist::castling(color, file);
                }
            }
        }
        key
    }
    // ANCHOR_END: rights_update
}

/// Rank 1 for White, rank 8 for Black.
#[inline]
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::R1,
        Color::Black => Rank::R8,
    }
}
