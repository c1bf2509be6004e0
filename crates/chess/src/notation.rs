//! Moves in UCI's long algebraic notation: `e2e4`, `e7e8q`, and castling as the king's
//! two-square move (`e1g1`) or, in Chess960, as "king takes own rook" (`e1h1`).

use crate::moves::Move;
use crate::piece::PieceType;
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// Why a move given as text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in the notation at all.
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(text) => write!(f, "'{text}' is not a move in UCI notation"),
            MoveError::Illegal(text) => write!(f, "{text} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Move {
    /// The move in UCI notation. In Chess960 castling is written as the king taking its rook.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_castle() && chess960 {
            format!("{}{}", self.from(), self.to())
        } else {
            self.to_string()
        }
    }
}

impl Position {
    /// Reads a move in UCI notation and finds it among the legal moves. Castling is accepted both
    /// as the king's two-square move and as the king taking its own rook; in Chess960 a king move
    /// that could be either (king on f1, rook on h1, `f1g1`) is the plain king move.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let malformed = || MoveError::Malformed(text.chars().take(16).collect());
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(malformed());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(malformed)?;
        let to = Square::parse(&text[2..4]).ok_or_else(malformed)?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_char(c) {
                Some(
                    p
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) => Some(p),
                _ => return Err(malformed()),
            },
        };
        let moves = self.legal_moves();
        let plain = moves.iter().find(|m| {
            !m.is_castle() && m.from() == from && m.to() == to && m.promotion() == promotion
        });
        let castle = || {
            moves.iter().find(|m| {
                m.is_castle()
                    && promotion.is_none()
                    && m.from() == from
                    && (m.to() == to || m.king_to() == to)
            })
        };
        plain
            .or_else(castle)
            .copied()
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::CastlingMode;
    use crate::moves::MoveKind;

    #[test]
    fn castling_in_both_notations() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = pos.parse_uci_move("e1g1").unwrap();
        assert_eq!(short.kind(), MoveKind::Castle);
        assert_eq!(pos.parse_uci_move("e1h1").unwrap(), short);
        assert_eq!(short.to_uci(false), "e1g1");
        assert_eq!(short.to_uci(true), "e1h1");
        // King on f1, rook on h1: f1g1 is the king's step, f1h1 the castling.
        let pos = Position::from_fen_with("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960)
            .unwrap();
        assert_eq!(pos.parse_uci_move("f1g1").unwrap().kind(), MoveKind::Normal);
        assert_eq!(pos.parse_uci_move("f1h1").unwrap().kind(), MoveKind::Castle);
    }

    #[test]
    fn bad_moves_are_errors() {
        let pos = Position::startpos();
        for text in ["", "e2", "e2e9", "e2e4x", "e2e4qq", "z1e4", "e7e8k", "ééé"] {
            assert!(
                matches!(pos.parse_uci_move(text), Err(MoveError::Malformed(_))),
                "{text}"
            );
        }
        for text in ["e2e5", "e1g1", "a1a1", "e7e5"] {
            assert!(
                matches!(pos.parse_uci_move(text), Err(MoveError::Illegal(_))),
                "{text}"
            );
        }
        assert!(pos.parse_uci_move("g1f3").is_ok());
    }
}
