//! Which squares a piece attacks: tables for the leapers, magic bitboards for the sliders, and
//! the geometry (squares between two squares, the line through them) that pins and checks need.

use crate::bitboard::Bitboard;
use crate::piece::{Color, PieceType};
use crate::square::Square;

// ANCHOR: magic_struct
/// A slider's lookup for one square: `((occupied & mask) * magic) >> shift` is the index of its
/// attack set in the square's part of [`SLIDER_ATTACKS`], which starts at `offset`.
pub(crate) struct Magic {
    pub(crate) mask: u64,
    pub(crate) magic: u64,
    pub(crate) shift: u32,
    pub(crate) offset: u32,
}

// The magics and the shared attack table, found by build.rs (see magic_search.rs).
include!(concat!(env!("OUT_DIR"), "/magics.rs"));
// ANCHOR_END: magic_struct

// ANCHOR: slider_lookup
#[inline(always)]
fn slider_attacks(magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & magic.mask).wrapping_mul(magic.magic) >> magic.shift) as usize;
    SLIDER_ATTACKS[magic.offset as usize + index]
}

/// The squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_attacks(&BISHOP_MAGICS[sq.index()], occupied)
}

/// The squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_attacks(&ROOK_MAGICS[sq.index()], occupied)
}
// ANCHOR_END: slider_lookup

#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

// ANCHOR: leaper_tables
/// The squares reached from each square by the given (file, rank) steps.
const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::from_index_unchecked(sq as u8).offset(steps[i].0, steps[i].1)
            {
                bits |= 1 << to.index();
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING_ATTACKS: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];
// ANCHOR_END: leaper_tables

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT_ATTACKS[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_ATTACKS[sq.index()]
}

/// The squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}

/// The squares a piece of this type attacks from `sq`. Empty for pawns, whose attacks depend on
/// their colour: use [`pawn_attacks`] for them.
#[inline]
pub fn piece_attacks(piece_type: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece_type {
        PieceType::Pawn => Bitboard::EMPTY,
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occupied),
        PieceType::Rook => rook_attacks(sq, occupied),
        PieceType::Queen => queen_attacks(sq, occupied),
        PieceType::King => king_attacks(sq),
    }
}

/// For every pair of squares on a common rank, file or diagonal: the squares strictly between
/// them (`BETWEEN`) and the whole line through both, edge to edge (`LINE`). Empty otherwise.
struct Geometry {
    between: [[Bitboard; 64]; 64],
    line: [[Bitboard; 64]; 64],
}

const fn geometry() -> Geometry {
    const DIRECTIONS: [(i8, i8); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut g = Geometry {
        between: [[Bitboard::EMPTY; 64]; 64],
        line: [[Bitboard::EMPTY; 64]; 64],
    };
    let mut a = 0;
    while a < 64 {
        let from = Square::from_index_unchecked(a as u8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            // The full line through `from` in this direction, both ways.
            let mut full = 1u64 << a;
            let mut cur = from.offset(df, dr);
            while let Some(s) = cur {
                full |= 1 << s.index();
                cur = s.offset(df, dr);
            }
            cur = from.offset(-df, -dr);
            while let Some(s) = cur {
                full |= 1 << s.index();
                cur = s.offset(-df, -dr);
            }
            // Walk one way, recording what lies between `from` and each square reached.
            let mut between = 0u64;
            cur = from.offset(df, dr);
            while let Some(s) = cur {
                g.between[a][s.index()] = Bitboard(between);
                g.line[a][s.index()] = Bitboard(full);
                between |= 1 << s.index();
                cur = s.offset(df, dr);
            }
            d += 1;
        }
        a += 1;
    }
    g
}

// ANCHOR: between_line
static GEOMETRY: Geometry = geometry();

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    GEOMETRY.between[a.index()][b.index()]
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or empty if there is none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    GEOMETRY.line[a.index()][b.index()]
}
// ANCHOR_END: between_line

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic_search::{
        BISHOP_DIRECTIONS, ROOK_DIRECTIONS, Rng, find_magic, relevant_occupancy, slow_attacks,
    };

    #[test]
    fn tables_have_one_slot_per_occupancy_subset() {
        let slots: usize = (0..64u8)
            .flat_map(|sq| {
                [
                    relevant_occupancy(sq, &ROOK_DIRECTIONS),
                    relevant_occupancy(sq, &BISHOP_DIRECTIONS),
                ]
            })
            .map(|mask| 1usize << mask.count_ones())
            .sum();
        assert_eq!(slots, SLIDER_ATTACKS.len());
        assert_eq!(slots, 107_648);
        // A fresh search gives a working magic too: its table answers every subset correctly.
        let found = find_magic(27, &ROOK_DIRECTIONS, &mut Rng(99));
        let mut subset = 0u64;
        loop {
            let index = (subset.wrapping_mul(found.magic) >> found.shift) as usize;
            assert_eq!(
                found.table[index],
                slow_attacks(27, subset, &ROOK_DIRECTIONS)
            );
            subset = subset.wrapping_sub(found.mask) & found.mask;
            if subset == 0 {
                break;
            }
        }
    }

    #[test]
    fn magic_lookups_match_the_slow_walk() {
        let mut rng = Rng(12345);
        for sq in Square::all() {
            for _ in 0..2000 {
                let occupied = rng.next() & rng.next();
                let bb = Bitboard(occupied);
                let i = sq.index() as u8;
                assert_eq!(
                    rook_attacks(sq, bb).0,
                    slow_attacks(i, occupied, &ROOK_DIRECTIONS)
                );
                assert_eq!(
                    bishop_attacks(sq, bb).0,
                    slow_attacks(i, occupied, &BISHOP_DIRECTIONS)
                );
            }
        }
    }

    #[test]
    fn leapers_and_geometry() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(knight_attacks(sq("a1")).popcount(), 2);
        assert_eq!(knight_attacks(sq("d4")).popcount(), 8);
        assert_eq!(king_attacks(sq("h8")).popcount(), 3);
        assert_eq!(
            pawn_attacks(Color::White, sq("e4")),
            Bitboard::from(sq("d5")) | sq("f5").into()
        );
        assert_eq!(
            pawn_attacks(Color::Black, sq("a5")),
            Bitboard::from(sq("b4"))
        );
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from(sq("b2")) | sq("c3").into()
        );
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("b2"), sq("c3")).popcount(), 8);
        assert!(line(sq("e1"), sq("e8")).contains(sq("e4")));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
    }
}
