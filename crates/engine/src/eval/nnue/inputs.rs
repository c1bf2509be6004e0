//! The network's inputs: one per (perspective, piece colour, piece kind, square), 768 for each
//! side's view of the board. A side sees the board from its own end: Black's view flips the ranks,
//! so "our pawn on e2" is the same input for both sides, and one set of weights serves both.
//!
//! A net may also read its inputs through a [`Layout`] that depends on where the viewing side's
//! own king stands:
//!
//! - *king buckets*: the king's square chooses one of `K` copies of the 768 inputs, so that the
//!   first layer can learn that a knight on f6 means one thing next to a castled king and another
//!   beside a king in the centre. The inputs number `K × 768`; a position still has the same ~30
//!   active ones, so the accumulator costs no more to update.
//! - *horizontal mirroring*: when the king stands on files e-h the view also flips the files, so
//!   the king is always on files a-d. The weights learnt for a king on g1 serve for a king on b1,
//!   which halves the buckets the data must fill.
//!
//! A king move that changes its side's bucket or half of the board changes every input of that
//! side's view, which is then rebuilt (see the accumulator's refresh cache); the other side's view
//! is updated as after any move.

use chess::{Color, PieceType, Position};

/// Inputs for one perspective in one king bucket: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The most king buckets a layout may have: `32 × 768` inputs still fit the `u16` indices.
pub const MAX_KING_BUCKETS: usize = 32;

// ANCHOR: layout
/// How a net reads the board: the king bucket of each square the viewing side's king may stand on
/// (as that side sees the board, after mirroring), and whether the view mirrors the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The bucket of each king square, `0..buckets`: a1 = 0 .. h8 = 63 from the viewing side's end.
    /// With mirroring, only files a-d are read (files e-h must still name a bucket that exists).
    pub bucket_of: [u8; 64],
    /// The number of king buckets, 1 to [`MAX_KING_BUCKETS`].
    pub buckets: usize,
    /// Whether a king on files e-h flips its view's files.
    pub mirrored: bool,
}

/// One side's view of a position: where its inputs start, and how its squares are turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    /// XOR-ed into a square: 56 flips the ranks (Black's view), 7 the files (mirroring).
    flip: u8,
    /// The first input of the king's bucket.
    base: u16,
}

impl View {
    /// The input for `piece_color`'s `kind` on square `sq` (0 = a1 .. 63 = h8) in this view.
    #[inline(always)]
    pub fn index(self, piece_color: Color, kind: PieceType, sq: usize) -> usize {
        let theirs = piece_color != self.perspective;
        self.base as usize
            + (theirs as usize) * 384
            + (kind as usize) * 64
            + (sq ^ self.flip as usize)
    }

    /// The bucket and the mirroring together: the view's inputs are all rebuilt when they change.
    #[inline(always)]
    pub fn key(self) -> (u16, u8) {
        (self.base, self.flip & 7)
    }
}

impl Layout {
    /// The plain 768 inputs: one bucket, no mirroring (every net before format 4).
    pub const PLAIN: Layout = Layout {
        bucket_of: [0; 64],
        buckets: 1,
        mirrored: false,
    };

    /// Inputs for one perspective: `buckets × 768`.
    pub const fn inputs(&self) -> usize {
        self.buckets * INPUTS
    }

    /// `perspective`'s view when its king stands on `king` (0 = a1 .. 63 = h8).
    #[inline(always)]
    pub fn view(&self, perspective: Color, king: usize) -> View {
        let ranks = if perspective == Color::White { 0 } else { 56 };
        let relative = (king & 63) ^ ranks;
        let files = if self.mirrored && relative & 7 >= 4 {
            7
        } else {
            0
        };
        let bucket = self.bucket_of[relative ^ files] as usize;
        debug_assert!(
            bucket < MAX_KING_BUCKETS,
            "a layout that is_valid() refuses"
        );
        View {
            perspective,
            flip: (ranks | files) as u8,
            base: (bucket * INPUTS) as u16,
        }
    }

    /// Whether the view depends on the king's square.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        self.buckets == 1 && !self.mirrored
    }

    /// `perspective`'s view of `pos`.
    #[inline(always)]
    pub fn view_of(&self, pos: &Position, perspective: Color) -> View {
        if self.is_plain() {
            return self.view(perspective, 0);
        }
        let king = pos
            .pieces(PieceType::King, perspective)
            .into_iter()
            .next()
            .map_or(0, |s| s.index());
        self.view(perspective, king)
    }

    /// A layout of the given shape: one of the named bucket maps below, mirrored or not.
    ///
    /// # Errors
    /// A number of buckets without a map.
    pub fn named(buckets: usize, mirrored: bool) -> Result<Layout, String> {
        let ranks: [[u8; 4]; 8] = match buckets {
            1 => [[0; 4]; 8],
            // The king at home (its first rank) or out of it.
            2 => [
                [0; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4], [1; 4],
            ],
            // At home on the wing or in the centre, on the second rank, further out.
            4 => [
                [0, 0, 1, 1],
                [2; 4],
                [3; 4],
                [3; 4],
                [3; 4],
                [3; 4],
                [3; 4],
                [3; 4],
            ],
            // The first rank square by square, the second in halves, then the third and fourth
            // ranks, then the rest.
            8 => [
                [0, 1, 2, 3],
                [4, 4, 5, 5],
                [6; 4],
                [6; 4],
                [7; 4],
                [7; 4],
                [7; 4],
                [7; 4],
            ],
            b => return Err(format!("{b} king buckets: the layouts are 1, 2, 4 and 8")),
        };
        let mut bucket_of = [0; 64];
        for (sq, b) in bucket_of.iter_mut().enumerate() {
            let (rank, file) = (sq / 8, sq % 8);
            // Files e-h take their mirror's bucket: the same as a-d's whether or not the view
            // mirrors, so an unmirrored layout is symmetric too.
            *b = ranks[rank][file.min(7 - file)];
        }
        Ok(Layout {
            bucket_of,
            buckets,
            mirrored,
        })
    }

    /// Whether the map names only buckets that exist.
    pub fn is_valid(&self) -> bool {
        (1..=MAX_KING_BUCKETS).contains(&self.buckets)
            && self.bucket_of.iter().all(|&b| (b as usize) < self.buckets)
    }

    /// In words, for `eval` and the trainer: "4 king buckets, mirrored"; empty for the plain layout.
    pub fn describe(&self) -> String {
        match (self.buckets, self.mirrored) {
            (1, false) => String::new(),
            (1, true) => "mirrored".to_string(),
            (b, false) => format!("{b} king buckets"),
            (b, true) => format!("{b} king buckets, mirrored"),
        }
    }
}
// ANCHOR_END: layout

/// The input for `piece_color`'s `kind` on square `sq` (0 = a1 .. 63 = h8) as `perspective` sees it
/// in the plain layout.
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
pub fn for_each_active(pos: &Position, layout: &Layout, mut visit: impl FnMut(usize, usize)) {
    let views = [
        layout.view_of(pos, Color::White),
        layout.view_of(pos, Color::Black),
    ];
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            for sq in pos.pieces(kind, color) {
                let s = sq.index();
                visit(
                    views[0].index(color, kind, s),
                    views[1].index(color, kind, s),
                );
            }
        }
    }
}

/// At most this many inputs change for one side on one move (castling: two off, two on).
pub const MAX_CHANGES: usize = 4;

/// The inputs a move switched on and off, for both perspectives (`[white view, black view]`).
/// A view whose king changed bucket or half of the board is marked instead: all its inputs change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: [[u16; MAX_CHANGES]; 2],
    pub removed: [[u16; MAX_CHANGES]; 2],
    pub n_added: u8,
    pub n_removed: u8,
    /// `[white view, black view]`: the view must be rebuilt, not updated.
    pub rebuild: [bool; 2],
}

impl Changes {
    // ANCHOR: changes_between
    /// What changed between `parent` and `child`, found by comparing their piece sets: a few
    /// bitboard operations, and right for every kind of move (castling in Chess960, en passant,
    /// promotion) without a case for each. A null move changes nothing.
    #[inline]
    pub fn between(parent: &Position, child: &Position, layout: &Layout) -> Changes {
        let mut c = Changes::default();
        let views = [
            layout.view_of(child, Color::White),
            layout.view_of(child, Color::Black),
        ];
        if !layout.is_plain() {
            for (v, color) in [Color::White, Color::Black].into_iter().enumerate() {
                c.rebuild[v] = layout.view_of(parent, color).key() != views[v].key();
            }
        }
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let before = parent.pieces(kind, color).0;
                let after = child.pieces(kind, color).0;
                let diff = before ^ after;
                if diff == 0 {
                    continue;
                }
                record(
                    &mut c.added,
                    &mut c.n_added,
                    diff & after,
                    &views,
                    color,
                    kind,
                );
                record(
                    &mut c.removed,
                    &mut c.n_removed,
                    diff & before,
                    &views,
                    color,
                    kind,
                );
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
    views: &[View; 2],
    color: Color,
    kind: PieceType,
) {
    while squares != 0 {
        let s = squares.trailing_zeros() as usize;
        squares &= squares - 1;
        let n = *count as usize;
        if n < MAX_CHANGES {
            list[0][n] = views[0].index(color, kind, s) as u16;
            list[1][n] = views[1].index(color, kind, s) as u16;
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
            let c = Changes::between(&pos, &child, &Layout::PLAIN);
            assert_eq!(c.rebuild, [false, false]);
            assert_eq!((c.n_added, c.n_removed), (added, removed), "{fen} {uci}");
        }
    }

    /// A position and its mirror image across the d/e line: in a mirrored layout each side's
    /// inputs are the same set, since the view puts its king on files a-d either way.
    #[test]
    fn a_mirrored_layout_sees_a_position_and_its_mirror_image_alike() {
        let layout = Layout::named(4, true).unwrap();
        let mirror = |fen: &str| -> String {
            let mut parts: Vec<String> = fen.split(' ').map(str::to_string).collect();
            parts[0] = parts[0]
                .split('/')
                .map(|rank| {
                    let mut cells = String::new();
                    for c in rank.chars() {
                        match c.to_digit(10) {
                            Some(n) => (0..n).for_each(|_| cells.push('1')),
                            None => cells.push(c),
                        }
                    }
                    // Back to FEN: runs of empty squares as one digit.
                    let mut out = String::new();
                    let mut empty = 0;
                    for c in cells.chars().rev() {
                        if c == '1' {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(c);
                        }
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    out
                })
                .collect::<Vec<_>>()
                .join("/");
            parts[2] = "-".into();
            parts.join(" ")
        };
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w - - 0 1",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 1",
        ] {
            let inputs = |fen: &str| {
                let pos = Position::from_fen_with(fen, CastlingMode::Standard).unwrap();
                let (mut w, mut b) = (Vec::new(), Vec::new());
                for_each_active(&pos, &layout, |x, y| {
                    w.push(x);
                    b.push(y);
                });
                w.sort_unstable();
                b.sort_unstable();
                (w, b)
            };
            assert_eq!(inputs(fen), inputs(&mirror(fen)), "{fen}");
        }
        // Without mirroring the two differ.
        let plain = Layout::named(4, false).unwrap();
        let pos = Position::from_fen_with("6k1/8/8/8/8/8/8/1K6 w - - 0 1", CastlingMode::Standard)
            .unwrap();
        let twin = Position::from_fen_with("1k6/8/8/8/8/8/8/6K1 w - - 0 1", CastlingMode::Standard)
            .unwrap();
        let first = |p: &Position| {
            let mut v = Vec::new();
            for_each_active(p, &plain, |w, _| v.push(w));
            v.sort_unstable();
            v
        };
        assert_ne!(first(&pos), first(&twin));
    }

    #[test]
    fn the_named_layouts_put_the_king_where_they_say() {
        let four = Layout::named(4, true).unwrap();
        assert!(four.is_valid());
        // White's king on g1 is mirrored to b1: bucket 0; on d1: bucket 1; on e2 (d2): 2.
        assert_eq!(four.view(Color::White, 6).key(), (0, 7));
        assert_eq!(four.view(Color::White, 3).key(), (768, 0));
        assert_eq!(four.view(Color::White, 12).key(), (2 * 768, 7));
        // Black's king on e8 is its e1, mirrored to d1: bucket 1; on a5 (its a4): bucket 3.
        assert_eq!(four.view(Color::Black, 60).key(), (768, 7));
        assert_eq!(four.view(Color::Black, 32).key(), (3 * 768, 0));
        assert!(Layout::named(3, true).is_err());
        let eight = Layout::named(8, false).unwrap();
        assert_eq!(eight.inputs(), 8 * 768);
        assert_eq!(
            (0..64).filter(|&s| eight.bucket_of[s] == 7).count(),
            32,
            "ranks 5-8"
        );
        assert_eq!(eight.describe(), "8 king buckets");
        assert_eq!(Layout::PLAIN.describe(), "");
        // The plain layout's views are the plain indices.
        for sq in 0..64 {
            for pc in [Color::White, Color::Black] {
                for v in [Color::White, Color::Black] {
                    assert_eq!(
                        Layout::PLAIN.view(v, 4).index(pc, PieceType::Knight, sq),
                        index(v, pc, PieceType::Knight, sq)
                    );
                }
            }
        }
    }

    /// A king move across the d/e line or out of its bucket rebuilds its own side's view only.
    #[test]
    fn a_king_changing_bucket_rebuilds_its_view() {
        let layout = Layout::named(4, true).unwrap();
        let cases = [
            // d1 to e1: the other half of the board.
            ("4k3/8/8/8/8/8/8/3K4 w - - 0 1", "d1e1", [true, false]),
            // b1 to a1: the same bucket and half.
            ("4k3/8/8/8/8/8/8/1K6 w - - 0 1", "b1a1", [false, false]),
            // e8 to e7: Black leaves its first rank.
            ("4k3/8/8/8/8/8/8/1K6 b - - 0 1", "e8e7", [false, true]),
            // Castling short takes the king from e1 (mirrored: d1, the centre's bucket) to g1
            // (b1, the wing's).
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "e1g1",
                [true, false],
            ),
            // g1 to h1: mirrored both times, the wing's bucket both times.
            ("4k3/8/8/8/8/8/8/6K1 w - - 0 1", "g1h1", [false, false]),
        ];
        for (fen, uci, rebuild) in cases {
            let pos = Position::from_fen_with(fen, CastlingMode::Standard).unwrap();
            let mv = pos.parse_uci_move(uci).unwrap();
            let mut child = pos.clone();
            child.make_move(mv);
            let c = Changes::between(&pos, &child, &layout);
            assert_eq!(c.rebuild, rebuild, "{fen} {uci}");
        }
    }
}
