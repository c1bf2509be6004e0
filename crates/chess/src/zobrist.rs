//! Zobrist keys: one random number per feature of a position, XORed together into its hash.

use crate::piece::{Color, Piece};
use crate::rng::splitmix;
use crate::square::{File, Square};

// ANCHOR: zobrist
pub(crate) struct Keys {
    pub(crate) pieces: [[u64; 64]; 12],
    pub(crate) black_to_move: u64,
    /// One key per (colour, file of a castling rook): castling rights are stored by rook file.
    pub(crate) castling: [[u64; 8]; 2],
    pub(crate) en_passant: [u64; 8],
    /// Added to the pawn key so that a position without pawns doesn't hash to zero.
    pub(crate) no_pawns: u64,
}

const fn keys() -> Keys {
    let mut state = 0x2026_0c0f_fee0_cb26;
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        black_to_move: 0,
        castling: [[0; 8]; 2],
        en_passant: [0; 8],
        no_pawns: 0,
    };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            keys.pieces[p][sq] = splitmix(&mut state);
            sq += 1;
        }
        p += 1;
    }
    keys.black_to_move = splitmix(&mut state);
    let mut f = 0;
    while f < 8 {
        keys.castling[0][f] = splitmix(&mut state);
        keys.castling[1][f] = splitmix(&mut state);
        keys.en_passant[f] = splitmix(&mut state);
        f += 1;
    }
    keys.no_pawns = splitmix(&mut state);
    keys
}

pub(crate) static KEYS: Keys = keys();
// ANCHOR_END: zobrist

#[inline(always)]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

#[inline(always)]
pub(crate) fn castling(color: Color, rook_file: File) -> u64 {
    KEYS.castling[color.index()][rook_file.index()]
}

#[inline(always)]
pub(crate) fn en_passant(file: File) -> u64 {
    KEYS.en_passant[file.index()]
}
