//! The slow, obviously correct slider attacks, and the search for magic numbers built on them.
//!
//! This file is compiled twice: by `build.rs`, which finds the magics and writes the lookup tables
//! into the build directory, and by the crate's tests, which check the tables against it. It uses
//! plain `u64` and `u8` so that the build script needs nothing else from the crate.

/// Rook steps as (file, rank) deltas.
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop steps as (file, rank) deltas.
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares a slider on `sq` attacks, walking each direction until it leaves the board or
/// reaches an occupied square (which is attacked too).
pub fn slow_attacks(sq: u8, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in directions {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

// ANCHOR: relevant_occupancy
/// The squares whose occupancy can change a slider's attacks from `sq`: its empty-board rays
/// without the last square of each ray (a piece there blocks nothing further).
pub fn relevant_occupancy(sq: u8, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in directions {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
    }
    mask
}
// ANCHOR_END: relevant_occupancy

/// xorshift64*: a small deterministic generator, so the same magics come out of every build.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    // ANCHOR: sparse
    /// A candidate with few bits set: sparse numbers make good magics more often.
    pub fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
    // ANCHOR_END: sparse
}

/// A magic for one square: `(occupied & mask) * magic >> shift` indexes its attack table.
pub struct Found {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    /// The attack sets in index order.
    pub table: Vec<u64>,
}

// ANCHOR: find_magic
/// Tries random sparse numbers until one maps every occupancy subset of the mask to an index
/// whose slot is either unused or holds the same attack set (constructive collisions are fine).
pub fn find_magic(sq: u8, directions: &[(i8, i8); 4], rng: &mut Rng) -> Found {
    let mask = relevant_occupancy(sq, directions);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    // Every subset of the mask, by the carry-rippler trick, with its true attack set.
    let mut subsets = Vec::with_capacity(1 << bits);
    let mut subset = 0u64;
    loop {
        subsets.push((subset, slow_attacks(sq, subset, directions)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let ok = subsets.iter().all(|&(occupancy, attacks)| {
            let index = (occupancy.wrapping_mul(magic) >> shift) as usize;
            if used[index] != attempt {
                used[index] = attempt;
                table[index] = attacks;
                true
            } else {
                table[index] == attacks
            }
        });
        if ok {
            return Found {
                mask,
                magic,
                shift,
                table,
            };
        }
    }
}
// ANCHOR_END: find_magic
