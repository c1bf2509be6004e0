//! The training loop: epochs of shuffled batches, each batch split over the cores.
//!
//! A batch is cut into chunks of [`CHUNK`] positions (the last may be shorter). Each chunk's
//! gradient goes into its own buffer, the chunks run in parallel on rayon's threads, and the
//! buffers are summed chunk by chunk in a fixed order before the optimiser's step. Nothing
//! depends on which thread ran which chunk or on how many threads there are, so a run is
//! determined by its data, its options and its seed: the same weights on 1 thread or 16.

use crate::FloatNetwork;
use crate::config::Config;
use crate::data::{Dataset, Sample};
use crate::gradient::{self, Isa, Work};
use crate::model;
use crate::optimiser::{self, Moments, Step};
use rayon::prelude::*;
use std::time::Instant;

/// Positions per chunk of a batch: big enough that a chunk's gradient buffer (one per chunk) is
/// cheap to clear and sum next to the work of filling it, small enough that a batch gives every
/// core several chunks.
pub const CHUNK: usize = 1024;

/// One epoch's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochStats {
    /// From 1.
    pub epoch: u32,
    pub lr: f32,
    /// The mean loss of the epoch's training positions, each as the network stood when it was
    /// trained on.
    pub train_loss: f64,
    /// The mean loss of the held-out positions after the epoch (none without any).
    pub validation_loss: Option<f64>,
    /// The whole epoch: training and validation.
    pub seconds: f64,
    /// The training steps alone.
    pub train_seconds: f64,
    pub positions: u64,
}

impl EpochStats {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.train_seconds.max(1e-9)
    }
}

/// Everything a run has learnt so far: what a checkpoint stores besides the configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub net: FloatNetwork,
    pub m: Moments,
    pub v: Moments,
    /// Epochs completed.
    pub epoch: u32,
    /// Optimiser steps taken.
    pub step: u64,
    /// The shuffling generator's state (SplitMix64).
    pub rng: u64,
    pub history: Vec<EpochStats>,
}

impl State {
    /// A new run's state: random weights and a shuffling generator, both from the seed.
    pub fn new(config: &Config) -> State {
        let seed = config.seed;
        let rows = crate::float_network::rows(&config.layout(), config.factorise);
        State {
            net: model::random(
                config.hidden,
                config.activation,
                config.output_buckets,
                config.layout(),
                config.factorise,
                chess::rng::derive(seed, 1),
            ),
            m: Moments::zeros(rows, config.hidden, config.output_buckets),
            v: Moments::zeros(rows, config.hidden, config.output_buckets),
            epoch: 0,
            step: 0,
            rng: chess::rng::derive(seed, 2),
            history: Vec::new(),
        }
    }
}

/// A number in `0..n` from a SplitMix64 state (multiply-shift, as `chess::rng` does).
fn below(state: &mut u64, n: usize) -> usize {
    ((chess::rng::splitmix(state) as u128 * n as u128) >> 64) as usize
}

pub struct Trainer {
    pub config: Config,
    pub state: State,
    pub isa: Isa,
    /// One per chunk of a batch.
    works: Vec<Work>,
}

impl Trainer {
    pub fn new(config: Config, state: State) -> Trainer {
        Trainer {
            config,
            state,
            isa: Isa::detect(),
            works: Vec::new(),
        }
    }

    /// One epoch over `samples` in a fresh shuffled order, calling `progress(positions done,
    /// mean loss so far)` after each batch. Returns the epoch's mean loss and the seconds it
    /// took.
    pub fn train_epoch(
        &mut self,
        samples: &[Sample],
        lr: f32,
        progress: &mut dyn FnMut(u64, f64),
    ) -> (f64, f64) {
        let started = Instant::now();
        let n = samples.len();
        // Fisher-Yates from the identity each epoch: the order depends only on the generator's
        // state, which the checkpoint keeps.
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = below(&mut self.state.rng, i + 1);
            order.swap(i, j);
        }
        let mut total = 0.0;
        let mut done = 0u64;
        for batch in order.chunks(self.config.batch) {
            total += self.step(samples, batch, lr);
            done += batch.len() as u64;
            progress(done, total / done as f64);
        }
        (total / n.max(1) as f64, started.elapsed().as_secs_f64())
    }

    /// One optimiser step on the positions `samples[batch[..]]`; returns their loss sum.
    pub fn step(&mut self, samples: &[Sample], batch: &[u32], lr: f32) -> f64 {
        let h = self.config.hidden;
        let chunks = batch.len().div_ceil(CHUNK);
        while self.works.len() < chunks {
            let rows = self.state.net.rows();
            self.works
                .push(Work::new(h, self.config.output_buckets, rows));
        }
        let weight = 1.0 / batch.len() as f32;
        let (isa, obj, net) = (self.isa, self.config.objective(), &self.state.net);
        let losses: Vec<f64> = self.works[..chunks]
            .par_iter_mut()
            .zip(batch.par_chunks(CHUNK))
            .map(|(work, ids)| {
                work.grad.clear();
                gradient::accumulate_gradient(isa, net, &obj, samples, ids, weight, work)
            })
            .collect();
        self.state.step += 1;
        let step = Step::new(self.state.step, lr, self.config.weight_decay);
        apply(&mut self.state, &self.works[..chunks], &step);
        losses.iter().sum()
    }

    /// The mean loss of `samples` (none if there are none).
    pub fn mean_loss(&self, samples: &[Sample]) -> Option<f64> {
        if samples.is_empty() {
            return None;
        }
        let (isa, obj, net) = (self.isa, self.config.objective(), &self.state.net);
        let h = self.config.hidden;
        let ids: Vec<u32> = (0..samples.len() as u32).collect();
        let sums: Vec<f64> = ids
            .par_chunks(CHUNK)
            .map_init(
                || Work::forward_only(h),
                |work, ids| gradient::loss_sum(isa, net, &obj, samples, ids, work),
            )
            .collect();
        Some(sums.iter().sum::<f64>() / samples.len() as f64)
    }

    /// An epoch and the held-out loss after it, added to the history.
    pub fn epoch(&mut self, data: &Dataset, progress: &mut dyn FnMut(u64, f64)) -> EpochStats {
        let started = Instant::now();
        let lr = self.config.schedule().lr(self.state.epoch);
        let (train_loss, train_seconds) = self.train_epoch(&data.train, lr, progress);
        let validation_loss = self.mean_loss(&data.validation);
        self.state.epoch += 1;
        let stats = EpochStats {
            epoch: self.state.epoch,
            lr,
            train_loss,
            validation_loss,
            seconds: started.elapsed().as_secs_f64(),
            train_seconds,
            positions: data.train.len() as u64,
        };
        self.state.history.push(stats);
        stats
    }
}

/// Sums the chunks' gradients (in chunk order) and takes the optimiser's step: the first layer
/// row by row in parallel, skipping rows no chunk touched; the small layers in one piece.
fn apply(state: &mut State, works: &[Work], step: &Step) {
    let h = state.net.hidden;
    let grads: Vec<&gradient::Gradient> = works.iter().map(|w| &w.grad).collect();
    let touched = |r: usize| grads.iter().any(|g| g.is_touched(r));
    state
        .net
        .w1
        .par_chunks_mut(h)
        .zip(state.m.w1.par_chunks_mut(h))
        .zip(state.v.w1.par_chunks_mut(h))
        .enumerate()
        .for_each_init(
            || vec![0.0f32; h],
            |sum, (r, ((w, m), v))| {
                if !touched(r) {
                    return;
                }
                sum.fill(0.0);
                for g in grads.iter().filter(|g| g.is_touched(r)) {
                    for (s, d) in sum.iter_mut().zip(&g.w1[r * h..(r + 1) * h]) {
                        *s += d;
                    }
                }
                optimiser::update(w, sum, m, v, step, true);
            },
        );
    let sum_of = |part: fn(&gradient::Gradient) -> &[f32], len: usize| {
        let mut sum = vec![0.0f32; len];
        for g in &grads {
            for (s, d) in sum.iter_mut().zip(part(g)) {
                *s += d;
            }
        }
        sum
    };
    let b1 = sum_of(|g| &g.b1, h);
    let buckets = state.net.buckets;
    let w2 = sum_of(|g| &g.w2, buckets * 2 * h);
    let b2 = sum_of(|g| &g.b2, buckets);
    let (net, m, v) = (&mut state.net, &mut state.m, &mut state.v);
    optimiser::update(&mut net.b1, &b1, &mut m.b1, &mut v.b1, step, false);
    optimiser::update(&mut net.w2, &w2, &mut m.w2, &mut v.w2, step, true);
    optimiser::update(&mut net.b2, &b2, &mut m.b2, &mut v.b2, step, false);
}
