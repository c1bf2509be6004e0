//! Making a move on a copy of the position (copy-make): every field is updated incrementally,
//! the hashes included, and the check information is recomputed for the side that moves next.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, PieceType};
use crate::position::Position;
use crate::square::Square;
use crate::zobrist::{self, KEYS};

impl Position {
    // ANCHOR: make_move
    /// Plays `mv`, which must be legal in this position.
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let Some(moving) = self.piece_at(from) else {
            debug_assert!(false, "no piece on the from-square of {mv:?} in {self:?}");
            return;
        };
        let castling_before = self.castling;

        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.game_ply = self.game_ply.saturating_add(1);
        if let Some(ep) = self.en_passant.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }

        let mut double_push = None;
        match mv.kind() {
            MoveKind::Normal => {
                if let Some(captured) = self.piece_at(to) {
                    self.remove_piece(captured, to);
                    self.halfmove_clock = 0;
                }
                self.move_piece(moving, from, to);
                if moving.piece_type == PieceType::Pawn {
                    self.halfmove_clock = 0;
                    if from.index().abs_diff(to.index()) == 16 {
                        // The square the pawn skipped, halfway between from and to.
                        double_push = Square::from_index(((from.index() + to.index()) / 2) as u8);
                    }
                }
            }
            MoveKind::Promotion => {
                if let Some(captured) = self.piece_at(to) {
                    self.remove_piece(captured, to);
                }
                self.remove_piece(moving, from);
                let promoted = mv.promotion().unwrap_or(PieceType::Queen);
                self.put_piece(Piece::new(us, promoted), to);
                self.halfmove_clock = 0;
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to.file(), from.rank());
                self.remove_piece(Piece::new(them, PieceType::Pawn), captured);
                self.move_piece(moving, from, to);
                self.halfmove_clock = 0;
            }
            MoveKind::Castle => {
                // Lift both first: in Chess960 the king or rook may land where the other stood.
                let rook = Piece::new(us, PieceType::Rook);
                self.remove_piece(moving, from);
                self.remove_piece(rook, to);
                self.put_piece(moving, mv.king_to());
                self.put_piece(rook, mv.rook_to());
            }
        }

        if self.castling.any() {
            if moving.piece_type == PieceType::King {
                self.castling.clear(us);
            }
            self.castling.remove_rook(from);
            self.castling.remove_rook(to);
            if self.castling != castling_before {
                self.hash ^= castling_before.hash() ^ self.castling.hash();
            }
        }

        self.side = them;
        self.hash ^= KEYS.black_to_move;

        // The en-passant square counts only if the opponent can really take there.
        if let Some(target) = double_push {
            self.en_passant = self.legal_en_passant_target(target);
            if let Some(ep) = self.en_passant {
                self.hash ^= zobrist::en_passant(ep.file());
            }
        }
        self.update_check_info();
    }
    // ANCHOR_END: make_move

    // ANCHOR: null_move
    /// Passes the turn: the opponent moves next, as if we had made a move that changed nothing.
    /// Not allowed in check. Used by the search's null-move pruning.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.is_check(), "a null move in check");
        if let Some(ep) = self.en_passant.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.game_ply = self.game_ply.saturating_add(1);
        self.side = !self.side;
        self.hash ^= KEYS.black_to_move;
        self.checkers = Bitboard::EMPTY;
        self.update_check_info();
    }
    // ANCHOR_END: null_move
}
