//! Square sets the pawn and piece terms need, computed at compile time.

use chess::{Bitboard, Color, File, Rank, Square};

const fn file_bits(file: usize) -> u64 {
    0x0101_0101_0101_0101 << file
}

const fn build_adjacent() -> [Bitboard; 8] {
    let mut t = [Bitboard(0); 8];
    let mut f = 0;
    while f < 8 {
        let mut bits = 0;
        if f > 0 {
            bits |= file_bits(f - 1);
        }
        if f < 7 {
            bits |= file_bits(f + 1);
        }
        t[f] = Bitboard(bits);
        f += 1;
    }
    t
}

/// The squares strictly in front of `sq` (for `color`), on the files given by `files(file)`.
const fn build_span(adjacent_too: bool, same_file: bool) -> [[Bitboard; 64]; 2] {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let mut files = 0u64;
        if same_file {
            files |= file_bits(file);
        }
        if adjacent_too {
            if file > 0 {
                files |= file_bits(file - 1);
            }
            if file < 7 {
                files |= file_bits(file + 1);
            }
        }
        // Ranks above (White) or below (Black).
        let above = if rank < 7 {
            !0u64 << (8 * (rank + 1))
        } else {
            0
        };
        let below = if rank > 0 {
            !0u64 >> (8 * (8 - rank))
        } else {
            0
        };
        t[0][sq] = Bitboard(files & above);
        t[1][sq] = Bitboard(files & below);
        sq += 1;
    }
    t
}

static ADJACENT_FILES: [Bitboard; 8] = build_adjacent();
static FORWARD: [[Bitboard; 64]; 2] = build_span(false, true);
static PASSED_SPAN: [[Bitboard; 64]; 2] = build_span(true, true);
static ATTACK_SPAN: [[Bitboard; 64]; 2] = build_span(true, false);

#[inline]
pub fn file(f: File) -> Bitboard {
    Bitboard::file(f)
}

/// The files beside `f`.
#[inline]
pub fn adjacent_files(f: File) -> Bitboard {
    ADJACENT_FILES[f.index()]
}

/// The squares in front of `sq` on its file, as `color` sees "in front".
#[inline]
pub fn forward(color: Color, sq: Square) -> Bitboard {
    FORWARD[color.index()][sq.index()]
}

/// The squares in front of `sq` on its file and the two beside: where an enemy pawn stops a
/// passed pawn.
#[inline]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    PASSED_SPAN[color.index()][sq.index()]
}

/// The squares in front of `sq` on the files beside it: where enemy pawns that could one day
/// attack the square stand.
#[inline]
pub fn attack_span(color: Color, sq: Square) -> Bitboard {
    ATTACK_SPAN[color.index()][sq.index()]
}

/// The rank as `color` sees it (0 = its first rank).
#[inline]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// The square as `color` sees it (a1 = its own queen's rook corner).
#[inline]
pub fn relative_square(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// Ranks 2 to 4 from `color`'s side, files c to f: where space counts.
pub fn space_area(color: Color) -> Bitboard {
    let center = Bitboard::file(File::C)
        | Bitboard::file(File::D)
        | Bitboard::file(File::E)
        | Bitboard::file(File::F);
    let ranks = match color {
        Color::White => {
            Bitboard::rank(Rank::R2) | Bitboard::rank(Rank::R3) | Bitboard::rank(Rank::R4)
        }
        Color::Black => {
            Bitboard::rank(Rank::R7) | Bitboard::rank(Rank::R6) | Bitboard::rank(Rank::R5)
        }
    };
    center & ranks
}

/// Ranks 4 to 6 from `color`'s side: where outposts are.
pub fn outpost_ranks(color: Color) -> Bitboard {
    match color {
        Color::White => {
            Bitboard::rank(Rank::R4) | Bitboard::rank(Rank::R5) | Bitboard::rank(Rank::R6)
        }
        Color::Black => {
            Bitboard::rank(Rank::R5) | Bitboard::rank(Rank::R4) | Bitboard::rank(Rank::R3)
        }
    }
}

/// King distance (Chebyshev) between two squares.
#[inline]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(forward(Color::White, e4).popcount(), 4);
        assert_eq!(forward(Color::Black, e4).popcount(), 3);
        assert_eq!(passed_span(Color::White, e4).popcount(), 12);
        assert_eq!(attack_span(Color::Black, e4).popcount(), 6);
        let a2 = Square::parse("a2").unwrap();
        assert_eq!(passed_span(Color::White, a2).popcount(), 12);
        assert_eq!(relative_rank(Color::Black, a2), 6);
    }
}
