//! Win, draw and loss chances from a score: what `UCI_ShowWDL` reports. The model is fitted to
//! cb2026's own self-play games by `scripts/fit-wdl.py` (the book's chapter on the network's
//! data shows the fit): for the side to move with score `v` at move `m`,
//! `win = σ((v − a(m)) / b(m))` and `loss = σ((−v − a(m)) / b(m))`, the rest a draw, where
//! `a(m)` is the score that wins half the time and `b(m)` how fast the chance rises around it.

use crate::score::is_mate;

mod params {
    include!("wdl_params.rs");
}

fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The chances, in per mille, of a win, a draw and a loss for the side to move, with `score` in
/// centipawns from its view at `fullmove` (the move number). They add up to 1000. A mate score
/// is a certain win or loss.
// ANCHOR: wdl
pub fn wdl(score: i32, fullmove: u32) -> [u32; 3] {
    if is_mate(score) {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let m = fullmove.clamp(params::MOVES.0, params::MOVES.1) as f64;
    let x = m / 32.0;
    let a = cubic(&params::A, x);
    let b = cubic(&params::B, x).max(1.0);
    let v = score as f64;
    let win = (1000.0 * sigmoid((v - a) / b)).round() as u32;
    let loss = (1000.0 * sigmoid((-v - a) / b)).round() as u32;
    let loss = loss.min(1000 - win);
    [win, 1000 - win - loss, loss]
}
// ANCHOR_END: wdl

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_add_up_rise_with_the_score_and_mirror() {
        for fullmove in [1, 10, 30, 60, 100, 500] {
            let mut last_win = 0;
            for score in (-3000..=3000).step_by(25) {
                let [w, d, l] = wdl(score, fullmove);
                assert_eq!(w + d + l, 1000);
                assert!(
                    w >= last_win,
                    "win chance falls at {score}, move {fullmove}"
                );
                last_win = w;
                let [w2, d2, l2] = wdl(-score, fullmove);
                assert!(w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1 && d.abs_diff(d2) <= 2);
            }
        }
        // Level means mostly a draw or either side's win, never a sure thing.
        let [w, _, l] = wdl(0, 20);
        assert!(w < 500 && l < 500 && w.abs_diff(l) <= 1);
        // A rook up in the middlegame is nearly always a win.
        assert!(wdl(500, 25)[0] > 900);
        assert_eq!(wdl(crate::score::mate_in(3), 40), [1000, 0, 0]);
    }
}
