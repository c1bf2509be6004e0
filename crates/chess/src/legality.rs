//! Is this move legal here? Answered for one move without generating the others: the search asks
//! it of moves that come from elsewhere (the hash table, killer slots), which may belong to another
//! position entirely.

use crate::attacks::{between, line, pawn_attacks, piece_attacks};
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::moves::{Move, MoveKind};
use crate::piece::{Color, PieceType};
use crate::position::Position;
use crate::square::Rank;

impl Position {
    /// Whether `mv` is a legal move in this position. Safe to call with any 16-bit move.
    pub fn is_legal(&self, mv: Move) -> bool {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color != us {
            return false;
        }
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[(!us).index()];
        let occupied = ours | theirs;
        let last_rank = match us {
            Color::White => Rank::R8,
            Color::Black => Rank::R1,
        };

        if from == to {
            return false;
        }
        // Unused promotion bits make a different 16-bit value for the same move: refuse them.
        let canonical = match mv.kind() {
            MoveKind::Normal => Move::normal(from, to),
            MoveKind::EnPassant => Move::en_passant(from, to),
            MoveKind::Castle => Move::castle(from, to),
            MoveKind::Promotion => mv,
        };
        if canonical != mv {
            return false;
        }

        match mv.kind() {
            MoveKind::Castle => {
                let side = if to.file() > from.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                return piece.piece_type == PieceType::King
                    && !self.is_check()
                    && self.castling.rook_square(us, side) == Some(to)
                    && self.castling_is_legal(from, to, side);
            }
            MoveKind::EnPassant => {
                return piece.piece_type == PieceType::Pawn
                    && self.en_passant == Some(to)
                    && pawn_attacks(us, from).contains(to)
                    && self.en_passant_is_legal(from, to);
            }
            MoveKind::Promotion => {
                if piece.piece_type != PieceType::Pawn || to.rank() != last_rank {
                    return false;
                }
            }
            MoveKind::Normal => {
                if piece.piece_type == PieceType::Pawn && to.rank() == last_rank {
                    return false;
                }
            }
        }
        if ours.contains(to) {
            return false;
        }

        // Can the piece get there at all?
        let reachable = if piece.piece_type == PieceType::Pawn {
            let up: i8 = if us == Color::White { 8 } else { -8 };
            let step = |sq: crate::square::Square| sq.offset(0, up / 8);
            let single = step(from).filter(|&s| !occupied.contains(s));
            let start_rank = if us == Color::White {
                Rank::R2
            } else {
                Rank::R7
            };
            let double = single
                .filter(|_| from.rank() == start_rank)
                .and_then(step)
                .filter(|&s| !occupied.contains(s));
            (pawn_attacks(us, from) & theirs).contains(to)
                || single == Some(to)
                || double == Some(to)
        } else {
            piece_attacks(piece.piece_type, from, occupied).contains(to)
        };
        if !reachable {
            return false;
        }

        // Does it leave the king safe?
        if piece.piece_type == PieceType::King {
            return !self.is_attacked_by(to, !us, occupied.without(from));
        }
        let king = self.king_square(us);
        if self.checkers.has_many() {
            return false;
        }
        if let Some(checker) = self.checkers.single()
            && !(between(king, checker) | Bitboard::from_square(checker)).contains(to)
        {
            return false;
        }
        !self.pinned.contains(from) || line(king, from).contains(to)
    }
}
