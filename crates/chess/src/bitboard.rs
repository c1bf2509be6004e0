//! A set of squares in one 64-bit word: bit `i` stands for the square with index `i`.

use crate::square::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u8))
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn popcount(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square in the set.
    #[inline]
    pub const fn has_many(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The set without `sq`.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub const fn lsb(self) -> Square {
        Square::from_index_unchecked(self.0.trailing_zeros() as u8)
    }

    /// The only square of a one-square set, or `None`.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.has_many() {
            Some(self.lsb())
        } else {
            None
        }
    }

    /// Every square moved one rank up (towards rank 8); squares on rank 8 drop off.
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// The set mirrored top to bottom.
    #[inline]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

// ANCHOR: bitboard_iter
/// Yields the squares from a1 towards h8.
impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.popcount() as usize;
        (n, Some(n))
    }
}
// ANCHOR_END: bitboard_iter

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

/// Draws the set as an 8x8 grid, rank 8 at the top.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::new(file, *rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_every_square_once_in_order() {
        let bb = Bitboard(0x8000_0000_0000_0101);
        let squares: Vec<usize> = bb.map(|s| s.index()).collect();
        assert_eq!(squares, vec![0, 8, 63]);
        assert_eq!(bb.popcount(), 3);
        assert!(bb.has_many());
        assert_eq!(Bitboard(1 << 20).single().map(|s| s.index()), Some(20));
        assert_eq!(bb.single(), None);
        assert_eq!(Bitboard::EMPTY.single(), None);
    }

    #[test]
    fn with_and_without() {
        let e4 = Square::new(File::E, Rank::R4);
        let bb = Bitboard::EMPTY.with(e4);
        assert!(bb.contains(e4));
        assert!(bb.without(e4).is_empty());
        assert_eq!(Bitboard::file(File::E) & Bitboard::rank(Rank::R4), bb);
    }
}
