//! Colours, piece types and pieces.

use std::ops::Not;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for White, `-1` for Black: turns a score from White's view into the side's view.
    #[inline]
    pub const fn sign(self) -> i32 {
        1 - 2 * self as i32
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceType {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The pieces a pawn may promote to, best first.
    pub const PROMOTIONS: [PieceType; 4] = [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter of the piece type (`p n b r q k`).
    pub const fn to_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The piece type from its letter, in either case.
    pub fn from_char(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub piece_type: PieceType,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, piece_type: PieceType) -> Piece {
        Piece { color, piece_type }
    }

    /// A dense index, 0..12: White's pawn to king, then Black's.
    #[inline]
    pub const fn index(self) -> usize {
        self.color as usize * 6 + self.piece_type as usize
    }

    /// The piece with a dense index from [`Piece::index`]; `i` must be below 12.
    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        let color = if i < 6 { Color::White } else { Color::Black };
        Piece::new(color, PieceType::ALL[i % 6])
    }

    /// The FEN letter: upper case for White.
    pub fn to_char(self) -> char {
        let c = self.piece_type.to_char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let piece_type = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, piece_type))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_letters_round_trip() {
        for i in 0..12 {
            let piece = Piece::from_index(i);
            assert_eq!(piece.index(), i);
            assert_eq!(Piece::from_char(piece.to_char()), Some(piece));
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(!Color::White, Color::Black);
        assert_eq!(Color::Black.sign(), -1);
    }
}
