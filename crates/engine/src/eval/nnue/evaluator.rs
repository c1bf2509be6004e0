//! The network as the search's evaluation: a network shared by every thread, and each thread's
//! own accumulator stack.

use super::accumulator::AccumulatorStack;
use super::inputs::for_each_active;
use super::network::{Network, finish};
use super::simd::{self, Simd};
use crate::score::{MATE_BOUND, MAX_PLY};
use chess::{Color, PieceType, Position};
use std::sync::Arc;

/// The evaluation never claims a mate: the network's score stays well inside the mate range.
const LIMIT: i32 = MATE_BOUND - 1000;

pub struct NnueEvaluator {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

impl NnueEvaluator {
    pub fn new(net: Arc<Network>) -> NnueEvaluator {
        NnueEvaluator::with_simd(net, Simd::detect())
    }

    /// With the given code path (the tests compare them).
    pub fn with_simd(net: Arc<Network>, simd: Simd) -> NnueEvaluator {
        // One entry per ply the search reaches, its children, and a spare for positions the
        // stack does not hold.
        let stack = AccumulatorStack::new(&net, MAX_PLY + 4, simd);
        NnueEvaluator { net, stack }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    pub fn simd(&self) -> Simd {
        self.stack.simd()
    }

    /// Evaluations that found the stack out of step with the position and started afresh (a
    /// search never causes one; a test checks it).
    pub fn refreshes(&self) -> u64 {
        self.stack.refreshes
    }

    /// Views rebuilt through the refresh cache because their king changed bucket or half of the
    /// board (none in a net without king buckets or mirroring).
    pub fn rebuilds(&self) -> u64 {
        self.stack.rebuilds
    }

    pub fn reset(&mut self, root: &Position) {
        self.stack.reset(&self.net, root);
    }

    #[inline]
    pub fn push(&mut self, parent: &Position, child: &Position, ply: usize) {
        self.stack.push(&self.net, parent, child, ply);
    }

    // ANCHOR: evaluate
    /// The score for the side to move of `pos`, the position at `ply` of the current line.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let simd = self.stack.simd();
        let net = &*self.net;
        let (us, them) = self.stack.current(net, pos, ply);
        let (w2, b2) = net.output_layer(pos.occupied().popcount() as usize);
        let sum = simd::output(simd, net.activation, us, them, w2);
        finish(sum, net.activation, b2).clamp(-LIMIT, LIMIT)
    }
    // ANCHOR_END: evaluate
}

/// What the network thinks of each piece: the score with the piece, minus the score without it,
/// from White's view (kings are not removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceValues {
    /// The network's score from White's view.
    pub white_score: i32,
    /// `(square index, the piece's worth)`.
    pub pieces: Vec<(usize, i32)>,
}

/// The network's score and each piece's worth to it, computed from scratch.
pub fn piece_values(net: &Network, pos: &Position) -> PieceValues {
    let us = pos.side_to_move();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for_each_active(pos, &net.layout, |w, b| {
        white.push(w);
        black.push(b);
    });
    let score = |white: &[usize], black: &[usize]| -> i32 {
        let cp = match us {
            Color::White => net.evaluate_inputs(white, black),
            Color::Black => net.evaluate_inputs(black, white),
        };
        cp * us.sign()
    };
    let white_score = score(&white, &black);
    let mut pieces = Vec::new();
    let views = [
        net.layout.view_of(pos, Color::White),
        net.layout.view_of(pos, Color::Black),
    ];
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            if kind == PieceType::King {
                continue;
            }
            for sq in pos.pieces(kind, color) {
                let s = sq.index();
                let wi = views[0].index(color, kind, s);
                let bi = views[1].index(color, kind, s);
                let w: Vec<usize> = white.iter().copied().filter(|&i| i != wi).collect();
                let b: Vec<usize> = black.iter().copied().filter(|&i| i != bi).collect();
                pieces.push((s, white_score - score(&w, &b)));
            }
        }
    }
    PieceValues {
        white_score,
        pieces,
    }
}

impl PieceValues {
    /// A board of the pieces' worth in pawns, as `eval` prints it.
    pub fn board(&self, pos: &Position) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            s.push_str("+-------+-------+-------+-------+-------+-------+-------+-------+\n|");
            for file in 0..8 {
                let sq = rank * 8 + file;
                let piece = chess::Square::from_index(sq as u8).and_then(|q| pos.piece_at(q));
                let c = piece.map_or(' ', |p| p.to_char());
                s.push_str(&format!("   {c}   |"));
            }
            s.push_str("\n|");
            for file in 0..8 {
                let sq = rank * 8 + file;
                match self.pieces.iter().find(|(q, _)| *q == sq) {
                    Some((_, v)) => s.push_str(&format!("{:^7.2}|", *v as f64 / 100.0)),
                    None => s.push_str("       |"),
                }
            }
            s.push('\n');
        }
        s.push_str("+-------+-------+-------+-------+-------+-------+-------+-------+\n");
        s
    }
}
