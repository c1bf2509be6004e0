//! Files, ranks and squares. Square 0 is a1, 7 is h1, 63 is h8 (little-endian rank-file mapping).

use std::fmt;

/// A column of the board, `A` to `H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A row of the board, `R1` to `R8` (from White's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
}

impl File {
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i` (0 = a). `i` must be below 8.
    #[inline]
    pub const fn new(i: u8) -> File {
        File::ALL[i as usize]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file from its letter, `a` to `h` (either case).
    pub fn from_char(c: char) -> Option<File> {
        let lower = c.to_ascii_lowercase();
        ('a'..='h')
            .contains(&lower)
            .then(|| File::new(lower as u8 - b'a'))
    }

    pub fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::R1,
        Rank::R2,
        Rank::R3,
        Rank::R4,
        Rank::R5,
        Rank::R6,
        Rank::R7,
        Rank::R8,
    ];

    /// The rank with index `i` (0 = first rank). `i` must be below 8.
    #[inline]
    pub const fn new(i: u8) -> Rank {
        Rank::ALL[i as usize]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank::new(c as u8 - b'1'))
    }

    pub fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The same rank seen from Black's side (rank 1 becomes rank 8).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::new(7 - self as u8)
    }
}

// ANCHOR: square
/// One of the 64 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);
// ANCHOR_END: square

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);

    // ANCHOR: square_index
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// The square with index `i` (0 = a1, 63 = h8), if `i` is below 64.
    #[inline]
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 64 { Some(Square(i)) } else { None }
    }

    /// The square with index `i & 63`: for indices already known to be in range.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Square {
        Square(i & 63)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File::new(self.0 & 7)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self.0 >> 3)
    }
    // ANCHOR_END: square_index

    /// The square mirrored top to bottom (a1 becomes a8).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square moved by `df` files and `dr` ranks, if it stays on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 & 7) as i8 + df;
        let r = (self.0 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses a square such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        chars.next().is_none().then_some(Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
        }
        assert_eq!(Square::parse("e4"), Some(Square::new(File::E, Rank::R4)));
        for bad in ["", "e", "e9", "i1", "e44", "E4x"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn offsets_stay_on_the_board() {
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(Square::H8.offset(0, 1), None);
        assert_eq!(Square::E1.offset(1, 2), Some(Square::parse("f3").unwrap()));
    }
}
