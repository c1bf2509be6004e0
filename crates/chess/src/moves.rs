//! A move in 16 bits.
//!
//! Bits 0-5 hold the from-square, 6-11 the to-square, 12-13 the promotion piece (knight to queen)
//! and 14-15 the kind. Castling is stored as "king takes own rook": the to-square is the castling
//! rook's square. That one encoding serves standard chess and Chess960 alike; the king's real
//! destination is always the g- or c-file.

use crate::piece::PieceType;
use crate::square::{File, Square};
use std::fmt;
use std::num::NonZeroU16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    Promotion,
    EnPassant,
    Castle,
}

// ANCHOR: move_type
/// A move. Never zero (a move from a1 to a1 can't exist), so `Option<Move>` is 16 bits too.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const KIND_SHIFT: u16 = 14;
const PROMO_SHIFT: u16 = 12;
// ANCHOR_END: move_type

impl Move {
    // ANCHOR: move_encode
    #[inline]
    const fn encode(from: Square, to: Square, promo_bits: u16, kind: u16) -> Move {
        let bits = from.index() as u16
            | (to.index() as u16) << 6
            | promo_bits << PROMO_SHIFT
            | kind << KIND_SHIFT;
        match NonZeroU16::new(bits) {
            Some(nz) => Move(nz),
            // Only a1-a1 normal encodes to zero, and no move is from a square to itself.
            None => panic!("a move from a square to itself"),
        }
    }

    /// A normal move (including captures).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::encode(from, to, 0, 0)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion_to(from: Square, to: Square, piece: PieceType) -> Move {
        Move::encode(from, to, piece as u16 - PieceType::Knight as u16, 1)
    }

    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::encode(from, to, 0, 2)
    }

    /// Castling, given as the king's square and the castling rook's square.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::encode(king, rook, 0, 3)
    }
    // ANCHOR_END: move_encode

    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 63) as u8)
    }

    /// The destination. For castling, the castling rook's square (see [`Move::king_to`]).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0.get() >> 6) & 63) as u8)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0.get() >> KIND_SHIFT {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    /// The piece a pawn promotes to, for promotions.
    #[inline]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.0.get() >> KIND_SHIFT != 1 {
            return None;
        }
        Some(match (self.0.get() >> PROMO_SHIFT) & 3 {
            0 => PieceType::Knight,
            1 => PieceType::Bishop,
            2 => PieceType::Rook,
            _ => PieceType::Queen,
        })
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0.get() >> KIND_SHIFT == 3
    }

    // ANCHOR: king_to
    /// Where the king lands when castling: the g-file towards the h-side rook, the c-file otherwise.
    #[inline]
    pub const fn king_to(self) -> Square {
        let file = if (self.to().index() & 7) > (self.from().index() & 7) {
            File::G
        } else {
            File::C
        };
        Square::new(file, self.from().rank())
    }

    /// Where the rook lands when castling: the f-file or the d-file.
    #[inline]
    pub const fn rook_to(self) -> Square {
        let file = if (self.to().index() & 7) > (self.from().index() & 7) {
            File::F
        } else {
            File::D
        };
        Square::new(file, self.from().rank())
    }
    // ANCHOR_END: king_to

    /// The 16 bits, for storing a move in a table.
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0.get()
    }

    /// A move from its 16 bits; `None` for zero.
    #[inline]
    pub const fn from_bits(bits: u16) -> Option<Move> {
        match NonZeroU16::new(bits) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }
}

/// Shows the move in UCI's standard notation (castling as the king's two-square move).
/// For Chess960 notation use [`Move::to_uci`].
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let to = if self.is_castle() {
            self.king_to()
        } else {
            self.to()
        };
        write!(f, "{}{}", self.from(), to)?;
        if let Some(piece) = self.promotion() {
            write!(f, "{}", piece.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self} {:?})", self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Rank;

    #[test]
    fn fields_round_trip() {
        for from in Square::all() {
            for to in Square::all().filter(|&t| t != from) {
                let m = Move::normal(from, to);
                assert_eq!(
                    (m.from(), m.to(), m.kind(), m.promotion()),
                    (from, to, MoveKind::Normal, None)
                );
                assert_eq!(Move::from_bits(m.to_bits()), Some(m));
            }
        }
        let e7 = Square::new(File::E, Rank::R7);
        let e8 = Square::E8;
        for piece in PieceType::PROMOTIONS {
            let m = Move::promotion_to(e7, e8, piece);
            assert_eq!(m.promotion(), Some(piece));
            assert_eq!(m.kind(), MoveKind::Promotion);
        }
        let castle = Move::castle(Square::E1, Square::H1);
        assert_eq!(
            (castle.king_to(), castle.rook_to()),
            (Square::G1, Square::F1)
        );
        let long = Move::castle(Square::E8, Square::A8);
        assert_eq!((long.king_to(), long.rook_to()), (Square::C8, Square::D8));
        assert_eq!(long.to_string(), "e8c8");
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }
}
