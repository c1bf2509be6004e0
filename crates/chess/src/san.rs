//! Standard algebraic notation (SAN): `Nf3`, `exd5`, `O-O`, `e8=Q+`, `Rad1#`.

use crate::moves::Move;
use crate::piece::PieceType;
use crate::position::Position;
use crate::square::{File, Rank, Square};
use std::fmt;

/// Why a move in SAN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    Malformed(String),
    Illegal(String),
    /// More than one legal move fits the text.
    Ambiguous(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Malformed(s) => write!(f, "'{s}' is not a move in SAN"),
            SanError::Illegal(s) => write!(f, "{s} is not a legal move in this position"),
            SanError::Ambiguous(s) => write!(f, "{s} fits more than one legal move"),
        }
    }
}

impl std::error::Error for SanError {}

impl Position {
    /// The move in SAN, with `+` or `#` when it gives check or mate. `mv` must be legal.
    pub fn san(&self, mv: Move) -> String {
        let mut san = self.san_without_suffix(mv);
        let mut child = self.clone();
        child.make_move(mv);
        if child.is_check() {
            san.push(if child.has_legal_moves() { '+' } else { '#' });
        }
        san
    }

    fn san_without_suffix(&self, mv: Move) -> String {
        if mv.is_castle() {
            return if mv.king_to().file() == File::G {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let from = mv.from();
        let to = mv.to();
        let piece_type = self
            .piece_at(from)
            .map_or(PieceType::Pawn, |p| p.piece_type);
        let capture = self.is_capture(mv);
        let mut san = String::with_capacity(8);
        if piece_type == PieceType::Pawn {
            if capture {
                san.push(from.file().to_char());
            }
        } else {
            san.push(piece_type.to_char().to_ascii_uppercase());
            // Other pieces of the same type that could also go to `to` need telling apart.
            let rivals: Vec<Square> = self
                .legal_moves()
                .iter()
                .filter(|m| {
                    m.to() == to
                        && m.from() != from
                        && !m.is_castle()
                        && self.piece_at(m.from()).map(|p| p.piece_type) == Some(piece_type)
                })
                .map(|m| m.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|s| s.file() == from.file());
                let same_rank = rivals.iter().any(|s| s.rank() == from.rank());
                if !same_file {
                    san.push(from.file().to_char());
                } else if !same_rank {
                    san.push(from.rank().to_char());
                } else {
                    san.push_str(&from.to_string());
                }
            }
        }
        if capture {
            san.push('x');
        }
        san.push_str(&to.to_string());
        if let Some(promoted) = mv.promotion() {
            san.push('=');
            san.push(promoted.to_char().to_ascii_uppercase());
        }
        san
    }

    /// Reads a move in SAN. Accepts `0-0` for `O-O`, a missing `=` before the promotion piece,
    /// and trailing `+`, `#`, `!` or `?` annotations.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let malformed = || SanError::Malformed(text.chars().take(16).collect());
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        if core.is_empty() || !core.is_ascii() || core.len() > 8 {
            return Err(malformed());
        }
        let moves = self.legal_moves();
        let castle = match core {
            "O-O" | "0-0" => Some(File::G),
            "O-O-O" | "0-0-0" => Some(File::C),
            _ => None,
        };
        if let Some(file) = castle {
            return moves
                .iter()
                .find(|m| m.is_castle() && m.king_to().file() == file)
                .copied()
                .ok_or_else(|| SanError::Illegal(text.to_string()));
        }

        let bytes = core.as_bytes();
        let (piece_type, mut rest) = match bytes[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (
                PieceType::from_char(char::from(bytes[0])).ok_or_else(malformed)?,
                &core[1..],
            ),
            _ => (PieceType::Pawn, core),
        };
        // A promotion at the end: `e8=Q` or `e8Q`.
        let mut promotion = None;
        if let Some(last) = rest.chars().last()
            && let Some(
                p @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
            ) = PieceType::from_char(last).filter(|_| last.is_ascii_uppercase())
        {
            promotion = Some(p);
            rest = &rest[..rest.len() - 1];
            rest = rest.strip_suffix('=').unwrap_or(rest);
        }
        if rest.len() < 2 {
            return Err(malformed());
        }
        let to = Square::parse(&rest[rest.len() - 2..]).ok_or_else(malformed)?;
        let mut from_file = None;
        let mut from_rank = None;
        let mut separator = false;
        for c in rest[..rest.len() - 2].chars() {
            match c {
                'x' | ':' | '-' if !separator => separator = true,
                'a'..='h' if from_file.is_none() => from_file = File::from_char(c),
                '1'..='8' if from_rank.is_none() => from_rank = Rank::from_char(c),
                _ => return Err(malformed()),
            }
        }
        let mut found = moves.iter().filter(|m| {
            !m.is_castle()
                && m.to() == to
                && m.promotion() == promotion
                && self.piece_at(m.from()).map(|p| p.piece_type) == Some(piece_type)
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
        });
        match (found.next(), found.next()) {
            (Some(&mv), None) => Ok(mv),
            (None, _) => Err(SanError::Illegal(text.to_string())),
            (Some(_), Some(_)) => Err(SanError::Ambiguous(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str, uci: &str, expected: &str) {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci_move(uci).unwrap();
        assert_eq!(pos.san(mv), expected, "{fen} {uci}");
        assert_eq!(pos.parse_san(expected), Ok(mv), "{fen} {expected}");
    }

    #[test]
    fn san_formats_and_parses() {
        round_trip(crate::fen::STARTPOS, "g1f3", "Nf3");
        round_trip(crate::fen::STARTPOS, "e2e4", "e4");
        round_trip("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
        round_trip("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O");
        // Two rooks on the first rank: tell them apart by file; on one file, by rank.
        round_trip("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1");
        round_trip("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4", "R1a4");
        // Three queens: file and rank both needed.
        round_trip("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3");
        round_trip("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a2b3", "Q2b3");
        round_trip("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "c4b3", "Qcb3");
        round_trip("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7c8q", "c8=Q+");
        round_trip("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N");
        round_trip("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6");
        round_trip("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#");
    }

    #[test]
    fn lenient_and_strict_parsing() {
        let pos = Position::from_fen("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(pos.parse_san("c8Q").is_ok());
        assert!(pos.parse_san("c8=Q+!?").is_ok());
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1").unwrap();
        assert!(matches!(pos.parse_san("Rd1"), Err(SanError::Ambiguous(_))));
        let start = Position::startpos();
        assert!(matches!(start.parse_san("e5"), Err(SanError::Illegal(_))));
        assert!(matches!(start.parse_san("O-O"), Err(SanError::Illegal(_))));
        for bad in ["", "+", "Zf3", "Nf9", "Nxxxxxf3", "ñ"] {
            assert!(
                matches!(start.parse_san(bad), Err(SanError::Malformed(_))),
                "{bad}"
            );
        }
    }
}
