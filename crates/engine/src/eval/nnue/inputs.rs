//! The network's inputs: one per (perspective, piece colour, piece kind, square), 768 for each
//! side's view of the board. A side sees the board from its own end: Black's view flips the ranks,
//! so "our pawn on e2" is the same input for both sides, and one set of weights serves both.

use chess::{Color, PieceType, Position};

/// Inputs for one perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;

/// The input for `piece_color`'s `kind` on square `sq` (0 = a1 .. 63 = h8) as `perspective` sees it.
#[inline(always)]
// ANCHOR: feature_index
pub fn index(perspective: Color, piece_color: Color, kind: PieceType, sq: usize) -> usize {
    let (theirs, sq) = match perspective {
        Color::White => (piece_color != Color::White, sq),
        Color::Black => (piece_color != Color::Black, sq ^ 56),
    };
    (theirs as usize) * 384 + (kind as usize) * 64 + sq
}
// ANCHOR_END: feature_index

/// Calls `visit(white_view_index, black_view_index)` for every piece on the board.
pub fn for_each_active(pos: &Position, mut visit: impl FnMut(usize, usize)) {
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            for sq in pos.pieces(kind, color) {
                let s = sq.index();
                visit(
                    index(Color::White, color, kind, s),
                    index(Color::Black, color, kind, s),
                );
            }
        }
    }
}

/// At most this many inputs change for one side on one move (castling: two off, two on).
pub const MAX_CHANGES: usize = 4;

/// The inputs a move switched on and off, for both perspectives (`[white view, black view]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: [[u16; MAX_CHANGES]; 2],
    pub removed: [[u16; MAX_CHANGES]; 2],
    pub n_added: u8,
    pub n_removed: u8,
}

impl Changes {
    // ANCHOR: changes_between
    /// What changed between `parent` and `child`, found by comparing their piece sets: a few
    /// bitboard operations, and right for every kind of move (castling in Chess960, en passant,
    /// promotion) without a case for each. A null move changes nothing.
    #[inline]
    pub fn between(parent: &Position, child: &Position) -> Changes {
        let mut c = Changes::default();
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let before = parent.pieces(kind, color).0;
                let after = child.pieces(kind, color).0;
                let diff = before ^ after;
                if diff == 0 {
                    continue;
                }
                record(&mut c.added, &mut c.n_added, diff & after, color, kind);
                record(&mut c.removed, &mut c.n_removed, diff & before, color, kind);
            }
        }
        c
    }
    // ANCHOR_END: changes_between

    /// More changes than a legal move makes: the two positions are not parent and child, and
    /// the accumulator is rebuilt from scratch instead.
    #[inline]
    pub fn overflowed(&self) -> bool {
        self.n_added as usize > MAX_CHANGES || self.n_removed as usize > MAX_CHANGES
    }
}

/// Appends the inputs of `color`'s `kind` on the squares of `squares` to one of the lists.
#[inline(always)]
fn record(
    list: &mut [[u16; MAX_CHANGES]; 2],
    count: &mut u8,
    mut squares: u64,
    color: Color,
    kind: PieceType,
) {
    while squares != 0 {
        let s = squares.trailing_zeros() as usize;
        squares &= squares - 1;
        let n = *count as usize;
        if n < MAX_CHANGES {
            list[0][n] = index(Color::White, color, kind, s) as u16;
            list[1][n] = index(Color::Black, color, kind, s) as u16;
        }
        *count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    #[test]
    fn our_pawn_on_e2_is_one_input_for_both_sides() {
        // White's e2 pawn seen by White equals Black's e7 pawn seen by Black.
        let e2 = 12;
        let e7 = 52;
        assert_eq!(
            index(Color::White, Color::White, PieceType::Pawn, e2),
            index(Color::Black, Color::Black, PieceType::Pawn, e7)
        );
        assert_eq!(index(Color::White, Color::Black, PieceType::King, 63), 767);
        assert_eq!(index(Color::White, Color::White, PieceType::Pawn, 0), 0);
    }

    #[test]
    fn castling_en_passant_and_promotion_change_what_they_should() {
        let cases = [
            // White castles short: king e1->g1, rook h1->f1.
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 2, 2),
            // En passant: the pawn moves, the taken pawn goes.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 1, 2),
            // A promotion with a capture: pawn off, knight off, queen on.
            ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 1, 2),
        ];
        for (fen, uci, added, removed) in cases {
            let pos = Position::from_fen_with(fen, CastlingMode::Standard).unwrap();
            let mv = pos.parse_uci_move(uci).unwrap();
            let mut child = pos.clone();
            child.make_move(mv);
            let c = Changes::between(&pos, &child);
            assert_eq!((c.n_added, c.n_removed), (added, removed), "{fen} {uci}");
        }
    }
}
