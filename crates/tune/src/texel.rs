//! `tune texel`: fits every weight of the hand-crafted evaluation to game results.
//!
//! Each position's features are computed once with [`engine::eval::trace`] and kept sparsely:
//! for each feature whose count differs between the colours, the feature's index and the
//! difference (White's count minus Black's), packed in a `u32`; plus the position's phase and
//! endgame scale, and the game's result `r` (1, ½ or 0 for White). The evaluation is then linear
//! in the weights:
//!
//! ```text
//! mg = Σ coef_i · w_i.mg      eg = Σ coef_i · w_i.eg
//! e  = (mg · phase + eg · (24 − phase) · scale / 128) / 24      (White's view, no rounding)
//! ```
//!
//! which is the engine's [`engine::eval::blend`] without its integer divisions (the scale is the
//! one the engine chose with the starting weights: it only depends on the sign of the endgame
//! score). The tuner minimises the mean squared error `E = mean (r − σ(K·e))²` with
//! `σ(s) = 1 / (1 + 10^(−s/400))`:
//!
//! 1. `K` first, by golden-section search with the starting weights (it fixes the scale of the
//!    evaluation, the centipawn, so the weights stay comparable with the search's margins);
//! 2. then all `2 · FEATURE_COUNT` numbers (middlegame and endgame of each feature) by Adam on the
//!    full batch: each epoch computes the exact gradient over every position, in parallel chunks
//!    (rayon), and takes one step; it stops after `epochs` epochs or when the error has not
//!    improved for `patience` epochs;
//! 3. the best weights seen, rounded, are written as Rust source in the format of
//!    `crates/engine/src/eval/tuned.rs`, which the evaluation `include!`s.

use crate::format::{self, RECORD_SIZE, Record};
use chess::Position;
use engine::eval::weights::{FEATURE_COUNT, FEATURES, WEIGHTS};
use engine::eval::{MAX_PHASE, SCALE_NORMAL, trace};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The training positions, feature counts stored sparsely (see the module documentation).
#[derive(Default)]
pub struct Dataset {
    /// `feature | (coefficient as u16) << 16` for each nonzero coefficient, position by position.
    entries: Vec<u32>,
    /// Where each position's entries start; one more element than there are positions.
    starts: Vec<usize>,
    /// `phase / 24`: the middlegame share.
    mg_share: Vec<f32>,
    /// `(24 − phase) · scale / 128 / 24`: the endgame share.
    eg_share: Vec<f32>,
    /// The game's result for White: 1, 0.5 or 0.
    target: Vec<f32>,
}

/// One position, traced: its entries, shares and target.
struct Traced {
    entries: Vec<u32>,
    mg_share: f32,
    eg_share: f32,
    target: f32,
}

fn pack(feature: usize, coefficient: i32) -> u32 {
    let c = coefficient.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    feature as u32 | (c as u16 as u32) << 16
}

#[inline(always)]
fn unpack(entry: u32) -> (usize, f64) {
    (
        (entry & 0xffff) as usize,
        (entry >> 16) as u16 as i16 as f64,
    )
}

// ANCHOR: trace_position
fn trace_position(pos: &Position, target: f64) -> Traced {
    let t = trace(pos);
    let entries = t
        .counts
        .counts
        .iter()
        .enumerate()
        .filter(|(_, [w, b])| w != b)
        .map(|(f, [w, b])| pack(f, w - b))
        .collect();
    let phase = t.phase.clamp(0, MAX_PHASE) as f64;
    Traced {
        entries,
        mg_share: (phase / MAX_PHASE as f64) as f32,
        eg_share: ((MAX_PHASE as f64 - phase) * t.scale as f64
            / SCALE_NORMAL as f64
            / MAX_PHASE as f64) as f32,
        target: target as f32,
    }
}
// ANCHOR_END: trace_position

/// The starting point: the engine's current weights, as `[mg0, eg0, mg1, eg1, ...]`.
pub fn current_weights() -> Vec<f64> {
    WEIGHTS
        .iter()
        .flat_map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

// ANCHOR: sigmoid
/// The loss and the sigmoid.
#[inline(always)]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}
// ANCHOR_END: sigmoid

impl Dataset {
    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Memory used by the traced positions, in bytes.
    pub fn memory(&self) -> usize {
        self.entries.len() * 4 + self.starts.len() * 8 + self.target.len() * 12
    }

    fn push(&mut self, t: Traced) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.entries.extend_from_slice(&t.entries);
        self.starts.push(self.entries.len());
        self.mg_share.push(t.mg_share);
        self.eg_share.push(t.eg_share);
        self.target.push(t.target);
    }

    /// Positions with White's result (1, 0.5, 0), traced in parallel.
    pub fn from_positions(positions: &[(Position, f64)]) -> Dataset {
        let traced: Vec<Traced> = positions
            .par_iter()
            .map(|(p, r)| trace_position(p, *r))
            .collect();
        let mut d = Dataset::default();
        for t in traced {
            d.push(t);
        }
        d
    }

    /// Adds the records of a batch (decoded and traced in parallel); returns how many records
    /// could not be decoded.
    fn add_records(&mut self, records: &[Record]) -> usize {
        let traced: Vec<Option<Traced>> = records
            .par_iter()
            .map(|r| {
                format::decode(r)
                    .ok()
                    .map(|s| trace_position(&s.position, s.result.white_points()))
            })
            .collect();
        let mut bad = 0;
        for t in traced {
            match t {
                Some(t) => self.push(t),
                None => bad += 1,
            }
        }
        bad
    }

    /// Reads data files (see [`crate::format`]), at most `limit` positions in all.
    pub fn load(paths: &[PathBuf], limit: Option<usize>, quiet: bool) -> Result<Dataset, String> {
        let mut d = Dataset::default();
        let mut batch = Vec::new();
        let limit = limit.unwrap_or(usize::MAX);
        let start = Instant::now();
        for path in paths {
            let mut reader =
                format::Reader::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut bad = 0;
            while d.len() < limit {
                let want = (limit - d.len()).min(1 << 16);
                let n = reader
                    .read_batch(&mut batch, want)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if n == 0 {
                    break;
                }
                let before = d.len();
                bad += d.add_records(&batch);
                if !quiet && d.len() >> 20 != before >> 20 {
                    eprintln!(
                        "{} positions traced ({:.1} s)",
                        d.len(),
                        start.elapsed().as_secs_f64()
                    );
                }
            }
            if bad > 0 {
                eprintln!(
                    "{}: {bad} records skipped (not a legal position)",
                    path.display()
                );
            }
            if reader.torn_tail > 0 {
                eprintln!(
                    "{}: incomplete last record ({} of {RECORD_SIZE} bytes) ignored",
                    path.display(),
                    reader.torn_tail
                );
            }
            if !quiet {
                eprintln!(
                    "loaded {}: {} positions so far ({:.1} s)",
                    path.display(),
                    d.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        Ok(d)
    }

    // ANCHOR: tuner_eval
    /// Position `i`'s evaluation with `weights` (`[mg0, eg0, ...]`), from White's view.
    #[inline]
    pub fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &entry in &self.entries[self.starts[i]..self.starts[i + 1]] {
            let (f, c) = unpack(entry);
            mg += c * weights[2 * f];
            eg += c * weights[2 * f + 1];
        }
        mg * self.mg_share[i] as f64 + eg * self.eg_share[i] as f64
    }
    // ANCHOR_END: tuner_eval

    /// Position ranges for the parallel passes: enough to keep every thread busy, few enough
    /// that each chunk's gradient vector is cheap.
    fn chunks(&self) -> Vec<std::ops::Range<usize>> {
        let n = self.len();
        let size = (n / (rayon::current_num_threads() * 16)).max(2048);
        (0..n).step_by(size).map(|s| s..(s + size).min(n)).collect()
    }

    /// The mean squared error for `k` and `weights`.
    pub fn loss(&self, weights: &[f64], k: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sums: Vec<f64> = self
            .chunks()
            .into_par_iter()
            .map(|range| {
                range
                    .map(|i| (self.target[i] as f64 - sigmoid(k, self.eval(i, weights))).powi(2))
                    .sum()
            })
            .collect();
        sums.iter().sum::<f64>() / self.len() as f64
    }

    // ANCHOR: gradient
    /// The mean squared error and its gradient with respect to every weight.
    pub fn gradient(&self, weights: &[f64], k: f64) -> (f64, Vec<f64>) {
        let n = self.len().max(1) as f64;
        let dsig = k * std::f64::consts::LN_10 / 400.0;
        let parts: Vec<(f64, Vec<f64>)> = self
            .chunks()
            .into_par_iter()
            .map(|range| {
                let mut grad = vec![0.0; weights.len()];
                let mut loss = 0.0;
                for i in range {
                    let s = sigmoid(k, self.eval(i, weights));
                    let err = self.target[i] as f64 - s;
                    loss += err * err;
                    // dE/de for this position (the mean's 1/n applied at the end).
                    let de = -2.0 * err * s * (1.0 - s) * dsig;
                    let gm = de * self.mg_share[i] as f64;
                    let ge = de * self.eg_share[i] as f64;
                    for &entry in &self.entries[self.starts[i]..self.starts[i + 1]] {
                        let (f, c) = unpack(entry);
                        grad[2 * f] += c * gm;
                        grad[2 * f + 1] += c * ge;
                    }
                }
                (loss, grad)
            })
            .collect();
        let mut grad = vec![0.0; weights.len()];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        grad.iter_mut().for_each(|g| *g /= n);
        (loss / n, grad)
    }
    // ANCHOR_END: gradient

    // ANCHOR: fit_k
    /// The `K` that minimises the error with `weights` (golden-section search on [0.01, 10]).
    pub fn fit_k(&self, weights: &[f64]) -> f64 {
        let evals: Vec<f64> = (0..self.len())
            .into_par_iter()
            .map(|i| self.eval(i, weights))
            .collect();
        let loss = |k: f64| {
            evals
                .par_iter()
                .zip(self.target.par_iter())
                .map(|(&e, &r)| (r as f64 - sigmoid(k, e)).powi(2))
                .sum::<f64>()
        };
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (0.01f64, 10.0f64);
        let mut c = b - ratio * (b - a);
        let mut d = a + ratio * (b - a);
        let (mut lc, mut ld) = (loss(c), loss(d));
        while b - a > 1e-6 {
            if lc < ld {
                b = d;
                d = c;
                ld = lc;
                c = b - ratio * (b - a);
                lc = loss(c);
            } else {
                a = c;
                c = d;
                lc = ld;
                d = a + ratio * (b - a);
                ld = loss(d);
            }
        }
        (a + b) / 2.0
    }
    // ANCHOR_END: fit_k
}

/// The tuner's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    /// Stop when the error has not improved (by more than 1e-10) for this many epochs.
    pub patience: usize,
    /// Print the error every this many epochs (0: never).
    pub print_every: usize,
    /// A fixed K instead of fitting it.
    pub k: Option<f64>,
    /// Blocks of the table (names from `FEATURES`) whose weights stay as they are.
    pub freeze: Vec<String>,
    /// Ridge penalty `l2 · Σ (w − w_start)²` added to the error: a weight that few positions
    /// inform stays near its starting value (0: none).
    pub l2: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 1000,
            lr: 1.0,
            beta1: 0.9,
            beta2: 0.999,
            patience: 100,
            print_every: 10,
            k: None,
            freeze: Vec::new(),
            l2: 0.0,
        }
    }
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub k: f64,
    pub initial_loss: f64,
    /// The error of the best weights, unrounded.
    pub best_loss: f64,
    /// The error of the best weights rounded to integers (what the engine gets).
    pub rounded_loss: f64,
    pub epochs: usize,
    /// The best weights, rounded: (mg, eg) per feature.
    pub weights: Vec<(i32, i32)>,
    pub seconds: f64,
}

/// A mask over `[mg0, eg0, ...]`: true for the numbers that may change.
pub fn trainable(freeze: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = vec![true; 2 * FEATURE_COUNT];
    for name in freeze {
        let info = FEATURES
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "--freeze: no block called '{name}' (the blocks: {})",
                    FEATURES
                        .iter()
                        .map(|f| f.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        mask[2 * info.start..2 * (info.start + info.len)].fill(false);
    }
    Ok(mask)
}

/// Rounds weights to what `S::new` can hold.
pub fn round(weights: &[f64]) -> Vec<(i32, i32)> {
    let r = |x: f64| x.round().clamp(-30_000.0, 30_000.0) as i32;
    weights.chunks(2).map(|p| (r(p[0]), r(p[1]))).collect()
}

/// Fits K, then the weights, starting from `start` (`[mg0, eg0, ...]`).
pub fn tune(
    data: &Dataset,
    start: &[f64],
    settings: &Settings,
    log: &mut dyn FnMut(&str),
) -> Result<Outcome, String> {
    if data.is_empty() {
        return Err("no positions to tune on".into());
    }
    let began = Instant::now();
    let mask = trainable(&settings.freeze)?;
    let k = match settings.k {
        Some(k) => k,
        None => {
            let k = data.fit_k(start);
            log(&format!("K = {k:.6} (fitted with the starting weights)"));
            k
        }
    };
    let mut w = start.to_vec();
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    // ANCHOR: ridge
    // The ridge penalty pulls each weight back towards where it started. A weight that many
    // positions inform moves anyway, since their gradient outweighs the pull; one that only a
    // handful of positions touch (a queen with 27 safe squares) stays close to its start instead
    // of fitting those few games' results.
    let penalty = |w: &[f64]| -> f64 {
        (0..w.len())
            .filter(|&i| mask[i])
            .map(|i| (w[i] - start[i]).powi(2))
            .sum::<f64>()
            * settings.l2
    };
    // ANCHOR_END: ridge
    let initial_loss = data.loss(&w, k);
    log(&format!("epoch 0: error {initial_loss:.8}"));
    // The best weights are those with the least error plus penalty (the objective).
    let (mut best_objective, mut best_loss, mut best_w) = (initial_loss, initial_loss, w.clone());
    let mut since_best = 0;
    let mut epochs = 0;
    let (b1, b2, eps) = (settings.beta1, settings.beta2, 1e-8);
    // ANCHOR: adam
    for epoch in 1..=settings.epochs {
        let epoch_start = Instant::now();
        let (loss, mut grad) = data.gradient(&w, k);
        for i in 0..w.len() {
            grad[i] += 2.0 * settings.l2 * (w[i] - start[i]);
        }
        // `loss` is the error of `w` before this step.
        let objective = loss + penalty(&w);
        if objective < best_objective - 1e-10 {
            since_best = 0;
        } else {
            since_best += 1;
        }
        if objective < best_objective {
            (best_objective, best_loss) = (objective, loss);
            best_w.clone_from(&w);
        }
        if settings.patience > 0 && since_best >= settings.patience {
            log(&format!(
                "epoch {epoch}: no improvement for {} epochs, stopping",
                settings.patience
            ));
            break;
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..w.len() {
            if !mask[i] {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            w[i] -= settings.lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        epochs = epoch;
        if settings.print_every > 0 && epoch % settings.print_every == 0 {
            log(&format!(
                "epoch {epoch}: error {loss:.8} ({:.3} s/epoch)",
                epoch_start.elapsed().as_secs_f64()
            ));
        }
    }
    // ANCHOR_END: adam
    let last = data.loss(&w, k);
    if last + penalty(&w) < best_objective {
        best_loss = last;
        best_w = w;
    }
    let weights = round(&best_w);
    let rounded: Vec<f64> = weights
        .iter()
        .flat_map(|&(a, b)| [a as f64, b as f64])
        .collect();
    let rounded_loss = data.loss(&rounded, k);
    log(&format!(
        "done: error {initial_loss:.8} -> {best_loss:.8} ({rounded_loss:.8} rounded) after {epochs} epochs, {:.1} s",
        began.elapsed().as_secs_f64()
    ));
    Ok(Outcome {
        k,
        initial_loss,
        best_loss,
        rounded_loss,
        epochs,
        weights,
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// Wraps `text` into `// ` comment lines of at most 100 columns.
fn comment(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("//");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 100 && line.len() > 2 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The weights as the source of `tuned.rs`: a header comment (`about`, wrapped), then
/// `pub const WEIGHTS`, each block under a `// NAME` comment, four values a line.
pub fn render(weights: &[(i32, i32)], about: &str) -> String {
    assert_eq!(weights.len(), FEATURE_COUNT);
    let mut s = comment(about);
    s.push_str("\npub const WEIGHTS: [S; FEATURE_COUNT] = [\n");
    for info in FEATURES {
        s.push_str(&format!("    // {}\n", info.name));
        for row in weights[info.start..info.start + info.len].chunks(4) {
            let items: Vec<String> = row
                .iter()
                .map(|(mg, eg)| format!("S::new({mg}, {eg}),"))
                .collect();
            s.push_str("    ");
            s.push_str(&items.join(" "));
            s.push('\n');
        }
    }
    s.push_str("];\n");
    s
}

/// Writes `render`'s text to `path` (through a temporary file and a rename, so a reader never
/// sees half a file).
pub fn write(path: &Path, weights: &[(i32, i32)], about: &str) -> Result<(), String> {
    let text = render(weights, about);
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The header of a generated file.
pub fn about(command: &str, data: &Dataset, outcome: &Outcome) -> String {
    format!(
        "Generated by the tuner (`cargo run --release -p tune -- texel ...`); do not edit by hand: \
         rerun the tuner. Command: `{command}`. {} positions, K = {:.4}, mean squared error \
         {:.6} -> {:.6} after {} epochs.",
        data.len(),
        outcome.k,
        outcome.initial_loss,
        outcome.rounded_loss,
        outcome.epochs
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_sign_and_index() {
        for (f, c) in [(0, 1), (FEATURE_COUNT - 1, -1), (17, -300), (400, 32767)] {
            let (g, d) = unpack(pack(f, c));
            assert_eq!((g, d as i32), (f, c));
        }
    }

    #[test]
    fn comments_wrap_at_100_columns() {
        let text = comment(&"word ".repeat(80));
        assert!(text.lines().all(|l| l.len() <= 100 && l.starts_with("// ")));
        assert_eq!(text.split_whitespace().filter(|w| *w == "word").count(), 80);
    }
}
