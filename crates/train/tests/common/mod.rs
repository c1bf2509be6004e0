//! Synthetic positions for the tests: two kings and random pieces, labelled by material.

#![allow(dead_code)]

use chess::rng::Rng;
use chess::{Color, PieceType};
use engine::eval::nnue::inputs::Layout;
use train::data::Sample;

/// The values the material test expects the network to learn the order of.
pub fn value(kind: PieceType) -> i32 {
    match kind {
        PieceType::Pawn => 100,
        PieceType::Knight | PieceType::Bishop => 300,
        PieceType::Rook => 500,
        PieceType::Queen => 900,
        PieceType::King => 0,
    }
}

/// A random square that is free (and off the first and last ranks for a pawn).
pub fn free_square(rng: &mut Rng, taken: &[(Color, PieceType, usize)], kind: PieceType) -> usize {
    loop {
        let sq = rng.below(64);
        let back_rank = !(8..56).contains(&sq);
        if !(kind == PieceType::Pawn && back_rank) && taken.iter().all(|p| p.2 != sq) {
            return sq;
        }
    }
}

/// Two kings and up to `max_extra` random pieces of either colour, with a random side to move.
pub fn random_pieces(rng: &mut Rng, max_extra: usize) -> (Vec<(Color, PieceType, usize)>, Color) {
    let mut pieces = Vec::new();
    for color in Color::ALL {
        let sq = free_square(rng, &pieces, PieceType::King);
        pieces.push((color, PieceType::King, sq));
    }
    let kinds = [
        PieceType::Pawn,
        PieceType::Pawn,
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ];
    for _ in 0..rng.below(max_extra + 1) {
        let kind = kinds[rng.below(kinds.len())];
        let color = Color::ALL[rng.below(2)];
        let sq = free_square(rng, &pieces, kind);
        pieces.push((color, kind, sq));
    }
    let stm = Color::ALL[rng.below(2)];
    (pieces, stm)
}

/// Material from `stm`'s view.
pub fn material(pieces: &[(Color, PieceType, usize)], stm: Color) -> i32 {
    pieces
        .iter()
        .map(|&(c, k, _)| if c == stm { value(k) } else { -value(k) })
        .sum()
}

/// `n` random positions scored by their material (a drawn result, which λ = 0 ignores).
pub fn material_samples(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let (pieces, stm) = random_pieces(&mut rng, 12);
            let score = material(&pieces, stm) as i16;
            Sample::new(&pieces, stm, score, 1).expect("at most 14 pieces on distinct squares")
        })
        .collect()
}

/// A sample's inputs in `layout` as the engine's functions take them.
pub fn inputs(s: &Sample, layout: &Layout) -> (Vec<usize>, Vec<usize>) {
    let i = s.inputs(layout);
    (
        i.ours[..i.len].iter().map(|&x| x as usize).collect(),
        i.theirs[..i.len].iter().map(|&x| x as usize).collect(),
    )
}

/// A folder of its own under the system's temporary folder, emptied.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cb2026-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}
