//! The rules of chess for cb2026: board representation, attacks, legal move generation for
//! standard chess and Chess960, FEN/EPD, move notation (UCI and SAN), draw rules and perft.
//!
//! This crate knows nothing about search or evaluation.

mod attacks;
mod bitboard;
mod castling;
mod draw;
mod fen;
mod legality;
#[cfg(test)]
mod magic_search;
mod make_move;
mod movegen;
mod movelist;
mod moves;
mod notation;
mod perft;
mod piece;
mod position;
pub mod rng;
mod san;
mod square;
mod zobrist;

pub use attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, piece_attacks,
    queen_attacks, rook_attacks,
};
pub use bitboard::Bitboard;
pub use castling::{CastleSide, CastlingRights, back_rank};
pub use draw::{DrawReason, repetitions};
pub use fen::{CastlingMode, Epd, FenError, FenField, STARTPOS};
pub use movegen::{MoveCounter, MoveSink};
pub use movelist::{MAX_MOVES, MoveList};
pub use moves::{Move, MoveKind};
pub use notation::MoveError;
pub use perft::{divide, perft, perft_until};
pub use piece::{Color, Piece, PieceType};
pub use position::Position;
pub use san::SanError;
pub use square::{File, Rank, Square};
