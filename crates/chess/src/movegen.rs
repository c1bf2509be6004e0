//! Legal move generation, straight from checks and pins: no move is made and tested.
//!
//! The generator hands out moves in whole sets (a piece and all its target squares, or all
//! pawns shifted one way) to a [`MoveSink`]. A list sink expands the sets into moves; a counting
//! sink only adds up their sizes, which is what makes perft's last ply cheap.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, back_rank};
use crate::movelist::MoveList;
use crate::moves::Move;
use crate::piece::{Color, PieceType};
use crate::position::Position;
use crate::square::{File, Rank, Square};

// ANCHOR: move_sink
/// Receives generated moves in sets.
pub trait MoveSink {
    /// A knight, bishop, rook, queen or king on `from` moving to each square of `targets`.
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves that don't promote: each target `to` is reached from the square `to - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8);
    /// Promotions, four per target (queen, rook, bishop, knight), each from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i8);
    /// One move: en passant or castling.
    fn single(&mut self, mv: Move);
}
// ANCHOR_END: move_sink

#[inline(always)]
fn origin(to: Square, delta: i8) -> Square {
    Square::from_index_unchecked((to.index() as i8 - delta) as u8)
}

// ANCHOR: list_sink
impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::normal(origin(to, delta), to));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = origin(to, delta);
            for piece in PieceType::PROMOTIONS {
                self.push(Move::promotion_to(from, to, piece));
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.push(mv);
    }
}
// ANCHOR_END: list_sink

// ANCHOR: move_counter
/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.popcount());
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += u64::from(targets.popcount());
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += 4 * u64::from(targets.popcount());
    }

    #[inline(always)]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}
// ANCHOR_END: move_counter

/// Shifts every square by `delta` (positive: towards h8). Callers mask off wrap-arounds.
#[inline(always)]
fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta > 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

impl Position {
    // ANCHOR: generate
    /// Generates the legal moves into `sink`: quiet moves if `QUIETS`, captures and promotions if
    /// `NOISY`. With both, every legal move exactly once.
    #[inline(always)]
    pub fn generate<S: MoveSink, const QUIETS: bool, const NOISY: bool>(&self, sink: &mut S) {
        let us = self.side;
        let them = !us;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occupied = ours | theirs;
        let king = self.king_square(us);

        // The king may go anywhere not attacked once it has left its square (a slider checking
        // it along a line still attacks the square behind it).
        let mut king_targets = king_attacks(king) & !ours;
        if !QUIETS {
            king_targets &= theirs;
        }
        if !NOISY {
            king_targets &= !theirs;
        }
        let without_king = occupied.without(king);
        let mut safe = Bitboard::EMPTY;
        for to in king_targets {
            if !self.is_attacked_by(to, them, without_king) {
                safe = safe.with(to);
            }
        }
        sink.piece_moves(king, safe);

        // In double check only the king can move.
        if self.checkers.has_many() {
            return;
        }
        // In check, every other move must capture the checker or block its line.
        let check_mask = match self.checkers.single() {
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        let mut targets = Bitboard::EMPTY;
        if NOISY {
            targets |= theirs;
        }
        if QUIETS {
            targets |= !occupied;
        }
        targets &= check_mask;

        self.generate_pawn_moves::<S, QUIETS, NOISY>(sink, check_mask);

        // A pinned knight can never move: every knight move leaves the line.
        let pinned = self.pinned;
        for from in self.pieces(PieceType::Knight, us) & !pinned {
            sink.piece_moves(from, knight_attacks(from) & targets);
        }
        // A pinned slider may still move along the line of its pin.
        let queens = self.pieces(PieceType::Queen, us);
        for from in self.pieces(PieceType::Bishop, us) | queens {
            let mut to = bishop_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink.piece_moves(from, to);
        }
        for from in self.pieces(PieceType::Rook, us) | queens {
            let mut to = rook_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink.piece_moves(from, to);
        }

        if QUIETS && self.checkers.is_empty() && self.castling.any() {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling.rook_square(us, side)
                    && self.castling_is_legal(king, rook, side)
                {
                    sink.single(Move::castle(king, rook));
                }
            }
        }
    }
    // ANCHOR_END: generate

    // ANCHOR: pawn_moves
    /// Pawn moves, all pawns at once by shifting the set of pawns. Pinned pawns go one by one.
    #[inline(always)]
    fn generate_pawn_moves<S: MoveSink, const QUIETS: bool, const NOISY: bool>(
        &self,
        sink: &mut S,
        check_mask: Bitboard,
    ) {
        let us = self.side;
        let theirs = self.by_color[(!us).index()];
        let empty = !self.occupied();
        let pawns = self.pieces(PieceType::Pawn, us);
        let free = pawns & !self.pinned;
        let (up, double_rank, last_rank) = match us {
            Color::White => (8, Bitboard::rank(Rank::R3), Bitboard::rank(Rank::R8)),
            Color::Black => (-8, Bitboard::rank(Rank::R6), Bitboard::rank(Rank::R1)),
        };
        let not_a = !Bitboard::file(File::A);
        let not_h = !Bitboard::file(File::H);

        let single = shift(free, up) & empty;
        if NOISY {
            sink.promotions(single & check_mask & last_rank, up);
        }
        if QUIETS {
            sink.pawn_moves(single & check_mask & !last_rank, up);
            let double = shift(single & double_rank, up) & empty & check_mask;
            sink.pawn_moves(double, 2 * up);
        }
        if NOISY {
            let victims = theirs & check_mask;
            // Towards the a-file (from files b-h) and towards the h-file (from files a-g).
            for (delta, sources) in [(up - 1, free & not_a), (up + 1, free & not_h)] {
                let captures = shift(sources, delta) & victims;
                sink.promotions(captures & last_rank, delta);
                sink.pawn_moves(captures & !last_rank, delta);
            }
            if let Some(ep) = self.en_passant {
                for from in pawn_attacks(!us, ep) & pawns {
                    if self.en_passant_is_legal(from, ep) {
                        sink.single(Move::en_passant(from, ep));
                    }
                }
            }
        }

        // A pinned pawn can't answer a check; otherwise it may move along its pin line.
        if self.checkers.is_nonempty() {
            return;
        }
        let king = self.king_square(us);
        for from in pawns & self.pinned {
            let along = line(king, from);
            let pawn = Bitboard::from_square(from);
            let mut to = Bitboard::EMPTY;
            if NOISY {
                to |= pawn_attacks(us, from) & theirs & along;
            }
            let push = shift(pawn, up) & empty & along;
            if NOISY {
                to |= push & last_rank;
            }
            if QUIETS {
                to |= push & !last_rank;
                to |= shift(push & double_rank, up) & empty;
            }
            for target in to {
                let delta = target.index() as i8 - from.index() as i8;
                let bb = Bitboard::from_square(target);
                if last_rank.contains(target) {
                    sink.promotions(bb, delta);
                } else {
                    sink.pawn_moves(bb, delta);
                }
            }
        }
    }
    // ANCHOR_END: pawn_moves

    // ANCHOR: castling
    /// Castling with the rook on `rook`, given the right and no check: the squares both pieces
    /// cross must be empty (but for the two of them), and no square the king crosses or lands on
    /// may be attacked. Attacks are computed with both pieces lifted, which also catches the
    /// Chess960 case of a rook that shields its own king's destination.
    pub(crate) fn castling_is_legal(&self, king: Square, rook: Square, side: CastleSide) -> bool {
        let rank = back_rank(self.side);
        let king_to = Square::new(side.king_file(), rank);
        let rook_to = Square::new(side.rook_file(), rank);
        let occupied = self.occupied().without(king).without(rook);
        let king_path = between(king, king_to).with(king_to);
        let rook_path = between(rook, rook_to).with(rook_to);
        if ((king_path | rook_path) & occupied).is_nonempty() {
            return false;
        }
        let them = !self.side;
        king_path
            .into_iter()
            .all(|sq| !self.is_attacked_by(sq, them, occupied))
    }
    // ANCHOR_END: castling

    // ANCHOR: move_sets
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<MoveList, true, true>(&mut list);
        list
    }

    /// Captures (en passant included) and promotions: what the quiescence search looks at.
    pub fn noisy_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<MoveList, false, true>(&mut list);
        list
    }

    /// The legal moves that neither capture nor promote (castling included).
    pub fn quiet_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<MoveList, true, false>(&mut list);
        list
    }

    /// The number of legal moves.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate::<MoveCounter, true, true>(&mut counter);
        counter.0
    }
    // ANCHOR_END: move_sets

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether the move captures something (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        match mv.kind() {
            crate::moves::MoveKind::EnPassant => true,
            crate::moves::MoveKind::Castle => false,
            _ => self.by_color[(!self.side).index()].contains(mv.to()),
        }
    }
}
