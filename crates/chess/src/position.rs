//! The position: where the pieces stand, whose move it is, the castling and en-passant state,
//! the clocks, and what the move generator needs at hand (checkers, pinned pieces, hashes).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::castling::CastlingRights;
use crate::piece::{Color, Piece, PieceType};
use crate::square::{File, Rank, Square};
use crate::zobrist::{self, KEYS};

/// The mailbox code for an empty square; pieces use [`Piece::index`].
const EMPTY: u8 = 12;

const PIECE_FROM_CODE: [Option<Piece>; 13] = {
    let mut table = [None; 13];
    let mut i = 0;
    while i < 12 {
        table[i] = Some(Piece::from_index(i));
        i += 1;
    }
    table
};

/// The partial keys a piece type's Zobrist keys go into, as masks (all ones: it does; zero: it
/// doesn't). See [`Position::toggle_keys`].
struct KeyParts {
    pawn: u64,
    non_pawn: u64,
    minor: u64,
    major: u64,
}

const KEY_PARTS: [KeyParts; 6] = {
    const fn mask(on: bool) -> u64 {
        (on as u64).wrapping_neg()
    }
    const fn parts(pawn: bool, minor: bool, major: bool) -> KeyParts {
        KeyParts {
            pawn: mask(pawn),
            non_pawn: mask(!pawn),
            minor: mask(minor),
            major: mask(major),
        }
    }
    // Indexed by `PieceType::index`: pawn, knight, bishop, rook, queen, king.
    [
        parts(true, false, false),
        parts(false, true, false),
        parts(false, true, false),
        parts(false, false, true),
        parts(false, false, true),
        parts(false, true, true),
    ]
};

// ANCHOR: position
/// A chess position. Small and plain, so that making a move is `let mut child = pos.clone();
/// child.make_move(mv);` and unmaking it is dropping the copy.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// The squares of each piece type, both colours together.
    pub(crate) by_type: [Bitboard; 6],
    /// The squares of each colour's pieces.
    pub(crate) by_color: [Bitboard; 2],
    /// The piece on each square, as a code (see [`Piece::index`]), for constant-time lookups.
    pub(crate) board: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    /// Set only when a legal en-passant capture exists, so equal positions hash equally.
    pub(crate) en_passant: Option<Square>,
    /// 32 bits, as the move number below: a `position ... moves` list may be longer than 16 bits
    /// count, and a counter must not wrap to a small number.
    pub(crate) halfmove_clock: u32,
    /// Half-moves since the game began (0 with White to move at move 1).
    pub(crate) game_ply: u32,
    pub(crate) hash: u64,
    pub(crate) pawn_key: u64,
    /// Hashes of parts of the board, for the search's correction histories (chapter 20): each
    /// colour's pieces other than pawns (its king included), ...
    pub(crate) non_pawn_keys: [u64; 2],
    /// ... the knights, bishops and kings of both colours, ...
    pub(crate) minor_key: u64,
    /// ... and the rooks, queens and kings of both colours.
    pub(crate) major_key: u64,
    /// The opponent's pieces that give check.
    pub(crate) checkers: Bitboard,
    /// The side to move's pieces that may not leave the line between their king and an enemy slider.
    pub(crate) pinned: Bitboard,
}
// ANCHOR_END: position

impl Position {
    /// The board with no pieces, White to move: the starting point of the FEN parser (fen.rs,
    /// which builds on this file; nothing here reads or writes FEN).
    pub(crate) fn empty() -> Position {
        Position {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [EMPTY; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            game_ply: 0,
            hash: 0,
            pawn_key: KEYS.no_pawns,
            non_pawn_keys: [0; 2],
            minor_key: 0,
            major_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        PIECE_FROM_CODE[self.board[sq.index()] as usize]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn pieces_of_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of one colour's pieces of one type.
    #[inline]
    pub fn pieces(&self, piece_type: PieceType, color: Color) -> Bitboard {
        self.by_type[piece_type.index()] & self.by_color[color.index()]
    }

    /// The squares of all pieces of one type, both colours.
    #[inline]
    pub fn pieces_of_type(&self, piece_type: PieceType) -> Bitboard {
        self.by_type[piece_type.index()]
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(PieceType::King, color).lsb()
    }

    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant target square, only when a legal en-passant capture exists.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Half-moves played since the game began.
    #[inline]
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// The move number as FEN counts it: 1 at the start, increased after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.game_ply / 2 + 1
    }

    /// The Zobrist hash of the position: pieces, side to move, castling rights and a possible
    /// en-passant capture.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// A hash of the pawns alone (for a pawn-structure cache).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// A hash of `color`'s pieces other than pawns, its king included.
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color.index()]
    }

    /// A hash of the knights, bishops and kings of both colours.
    #[inline]
    pub fn minor_key(&self) -> u64 {
        self.minor_key
    }

    /// A hash of the rooks, queens and kings of both colours.
    #[inline]
    pub fn major_key(&self) -> u64 {
        self.major_key
    }

    /// The opponent's pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The side to move's pieces pinned to its own king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    // ANCHOR: attackers_to
    /// Every piece, of either colour, attacking `sq` when the board holds `occupied`.
    /// Passing a changed occupancy asks "what if": with a piece removed, sliders behind it join in.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()];
        let bishops =
            self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()];
        (pawn_attacks(Color::White, sq) & self.pieces(PieceType::Pawn, Color::Black))
            | (pawn_attacks(Color::Black, sq) & self.pieces(PieceType::Pawn, Color::White))
            | (knight_attacks(sq) & self.by_type[PieceType::Knight.index()])
            | (king_attacks(sq) & self.by_type[PieceType::King.index()])
            | (rook_attacks(sq, occupied) & rooks)
            | (bishop_attacks(sq, occupied) & bishops)
    }
    // ANCHOR_END: attackers_to

    /// Whether any piece of `by` attacks `sq`, with the board holding `occupied`.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color[by.index()];
        let queens = self.by_type[PieceType::Queen.index()];
        ((pawn_attacks(!by, sq) & self.by_type[PieceType::Pawn.index()])
            | (knight_attacks(sq) & self.by_type[PieceType::Knight.index()])
            | (king_attacks(sq) & self.by_type[PieceType::King.index()]))
            & theirs
            != Bitboard::EMPTY
            || rook_attacks(sq, occupied)
                & (self.by_type[PieceType::Rook.index()] | queens)
                & theirs
                != Bitboard::EMPTY
            || bishop_attacks(sq, occupied)
                & (self.by_type[PieceType::Bishop.index()] | queens)
                & theirs
                != Bitboard::EMPTY
    }

    // ANCHOR: check_info
    /// Recomputes the checkers and the pinned pieces for the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let king = self.king_square(us);
        let occupied = self.occupied();
        let theirs = self.by_color[them.index()];
        let queens = self.by_type[PieceType::Queen.index()];
        let rooks = (self.by_type[PieceType::Rook.index()] | queens) & theirs;
        let bishops = (self.by_type[PieceType::Bishop.index()] | queens) & theirs;
        self.checkers = ((pawn_attacks(us, king) & self.by_type[PieceType::Pawn.index()])
            | (knight_attacks(king) & self.by_type[PieceType::Knight.index()]))
            & theirs
            | (rook_attacks(king, occupied) & rooks)
            | (bishop_attacks(king, occupied) & bishops);
        // Sliders that would see the king if only our own pieces were lifted off the board.
        let snipers =
            (rook_attacks(king, theirs) & rooks) | (bishop_attacks(king, theirs) & bishops);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.has_many() {
                pinned |= blockers;
            }
        }
        self.pinned = pinned & self.by_color[us.index()];
    }
    // ANCHOR_END: check_info

    // ANCHOR: piece_ops
    /// Places `piece` on the empty square `sq`, updating the hashes.
    #[inline(always)]
    pub(crate) fn put_piece(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_type[piece.piece_type.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.board[sq.index()] = piece.index() as u8;
        self.toggle_keys(piece, zobrist::piece(piece, sq));
    }

    /// Removes `piece` from `sq`, where it must stand, updating the hashes.
    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_type[piece.piece_type.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.board[sq.index()] = EMPTY;
        self.toggle_keys(piece, zobrist::piece(piece, sq));
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline(always)]
    pub(crate) fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_type[piece.piece_type.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = piece.index() as u8;
        self.toggle_keys(
            piece,
            zobrist::piece(piece, from) ^ zobrist::piece(piece, to),
        );
    }

    /// XORs `key`, a change of `piece`'s squares, into the hash and into each partial key that
    /// `piece` belongs to. The masks make it the same few instructions for every piece: no branch.
    #[inline(always)]
    fn toggle_keys(&mut self, piece: Piece, key: u64) {
        let parts = &KEY_PARTS[piece.piece_type.index()];
        self.hash ^= key;
        self.pawn_key ^= key & parts.pawn;
        self.non_pawn_keys[piece.color.index()] ^= key & parts.non_pawn;
        self.minor_key ^= key & parts.minor;
        self.major_key ^= key & parts.major;
    }
    // ANCHOR_END: piece_ops

    // ANCHOR: en_passant_is_legal
    /// Whether the side to move's pawn on `from` may legally capture en passant onto `to`:
    /// lifting both pawns must not expose the king, and the capture must answer any check.
    pub(crate) fn en_passant_is_legal(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let captured = Square::new(to.file(), from.rank());
        let occupied = self.occupied().without(from).without(captured).with(to);
        let king = self.king_square(us);
        let theirs = self.by_color[them.index()].without(captured);
        let queens = self.by_type[PieceType::Queen.index()];
        let rooks = (self.by_type[PieceType::Rook.index()] | queens) & theirs;
        let bishops = (self.by_type[PieceType::Bishop.index()] | queens) & theirs;
        let attackers = (rook_attacks(king, occupied) & rooks)
            | (bishop_attacks(king, occupied) & bishops)
            | ((pawn_attacks(us, king) & self.by_type[PieceType::Pawn.index()])
                | (knight_attacks(king) & self.by_type[PieceType::Knight.index()]))
                & theirs;
        attackers.is_empty()
    }
    // ANCHOR_END: en_passant_is_legal

    // ANCHOR: legal_en_passant_target
    /// The en-passant target square if some pawn of the side to move can legally take there.
    pub(crate) fn legal_en_passant_target(&self, target: Square) -> Option<Square> {
        let us = self.side;
        let capturers = pawn_attacks(!us, target) & self.pieces(PieceType::Pawn, us);
        capturers
            .into_iter()
            .any(|from| self.en_passant_is_legal(from, target))
            .then_some(target)
    }
    // ANCHOR_END: legal_en_passant_target

    // ANCHOR: hash_from_scratch
    /// The hash computed from scratch, for checking the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                hash ^= zobrist::piece(piece, sq);
            }
        }
        if self.side == Color::Black {
            hash ^= KEYS.black_to_move;
        }
        hash ^= self.castling.hash();
        if let Some(ep) = self.en_passant {
            hash ^= zobrist::en_passant(ep.file());
        }
        hash
    }
    // ANCHOR_END: hash_from_scratch

    /// The pawn key computed from scratch.
    pub fn pawn_key_from_scratch(&self) -> u64 {
        KEYS.no_pawns ^ self.key_of(self.by_type[PieceType::Pawn.index()])
    }

    /// The non-pawn key of `color` computed from scratch.
    pub fn non_pawn_key_from_scratch(&self, color: Color) -> u64 {
        let pawns = self.by_type[PieceType::Pawn.index()];
        self.key_of(self.by_color[color.index()] & !pawns)
    }

    /// The minor-piece key computed from scratch.
    pub fn minor_key_from_scratch(&self) -> u64 {
        let [_, knights, bishops, _, _, kings] = self.by_type;
        self.key_of(knights | bishops | kings)
    }

    /// The major-piece key computed from scratch.
    pub fn major_key_from_scratch(&self) -> u64 {
        let [_, _, _, rooks, queens, kings] = self.by_type;
        self.key_of(rooks | queens | kings)
    }

    /// The Zobrist keys of the pieces on `squares`, XORed together.
    fn key_of(&self, squares: Bitboard) -> u64 {
        squares.fold(0, |key, sq| match self.piece_at(sq) {
            Some(piece) => key ^ zobrist::piece(piece, sq),
            None => key,
        })
    }

    /// The position with colours swapped and the board mirrored top to bottom: a position that is
    /// the same for the other side. An evaluation must give it the same score from the side to move.
    pub fn mirrored(&self) -> Position {
        let mut pos = Position::empty();
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                pos.put_piece(Piece::new(!piece.color, piece.piece_type), sq.flip_rank());
            }
        }
        pos.side = !self.side;
        if pos.side == Color::Black {
            pos.hash ^= KEYS.black_to_move;
        }
        for color in Color::ALL {
            for side in crate::castling::CastleSide::ALL {
                pos.castling
                    .set(!color, side, self.castling.rook_file(color, side));
            }
        }
        pos.hash ^= pos.castling.hash();
        pos.en_passant = self.en_passant.map(Square::flip_rank);
        if let Some(ep) = pos.en_passant {
            pos.hash ^= zobrist::en_passant(ep.file());
        }
        pos.halfmove_clock = self.halfmove_clock;
        pos.game_ply = (self.fullmove_number() - 1) * 2 + pos.side.index() as u32;
        pos.update_check_info();
        pos
    }

    /// A picture of the board, rank 8 at the top, for the `d` command.
    pub fn board_string(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_at(Square::new(file, *rank))
                    .map_or(' ', Piece::to_char);
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n", rank.to_char()));
            s.push_str(" +---+---+---+---+---+---+---+---+\n");
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::STARTPOS;

    /// Each partial key changes exactly when a piece it covers moves, and always matches its
    /// from-scratch version (the differential test checks the latter over random games).
    #[test]
    fn partial_keys_follow_their_pieces() {
        let mut pos = Position::from_fen(STARTPOS).expect("start position");
        let keys = |p: &Position| {
            [
                p.pawn_key(),
                p.non_pawn_key(Color::White),
                p.non_pawn_key(Color::Black),
                p.minor_key(),
                p.major_key(),
            ]
        };
        // Which keys each move changes: pawn, White's and Black's non-pawn, minor, major.
        let expected = [
            ("e2e4", [true, false, false, false, false]),
            ("g8f6", [false, false, true, true, false]),
            ("f1c4", [false, true, false, true, false]),
            ("d7d5", [true, false, false, false, false]),
            ("c4d5", [true, true, false, true, false]),
            ("d8d5", [false, true, true, true, true]), // takes the bishop
            ("g1f3", [false, true, false, true, false]),
            ("c8g4", [false, false, true, true, false]),
            ("e1g1", [false, true, false, true, true]),
        ];
        for (text, changes) in expected {
            let before = keys(&pos);
            let mv = pos.parse_uci_move(text).expect("legal move");
            pos.make_move(mv);
            let after = keys(&pos);
            for (i, changed) in changes.iter().enumerate() {
                assert_eq!(before[i] != after[i], *changed, "key {i} after {text}");
            }
            assert_eq!(pos.minor_key(), pos.minor_key_from_scratch());
            assert_eq!(pos.major_key(), pos.major_key_from_scratch());
            for color in Color::ALL {
                assert_eq!(
                    pos.non_pawn_key(color),
                    pos.non_pawn_key_from_scratch(color)
                );
            }
        }
    }
}
