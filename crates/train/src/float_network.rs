//! The network in floats, as the trainer learns it, and its quantisation into the integer
//! network the engine evaluates with ([`engine::eval::nnue::Network`], whose module describes the
//! shape and the file).

use engine::eval::nnue::inputs::{INPUTS, Layout};
use engine::eval::nnue::network::{MAX_OUTPUT_BUCKETS, QA, QB, WEIGHT_LIMIT, output_bucket};
use engine::eval::nnue::{Activation, Network};

/// The network in floats: what the trainer learns.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    pub activation: Activation,
    /// How the inputs are read: king buckets and mirroring.
    pub layout: Layout,
    /// `rows() × hidden`, input-major: input `i`'s weights are `w1[i * hidden..(i + 1) * hidden]`.
    pub w1: Vec<f32>,
    /// Whether `w1` ends with the factoriser: [`INPUTS`] rows after the buckets' that every king
    /// bucket shares. Input `f` of bucket `b` then weighs `w1[b·768 + f] + w1[K·768 + f]`: the
    /// shared row learns from every position, whatever bucket its king is in, and each bucket's
    /// own row only what differs there. The engine's net has no such rows: [`Self::quantise`]
    /// adds them into each bucket's, which gives the same network.
    pub factorised: bool,
    pub b1: Vec<f32>,
    /// The output buckets, 1 to [`MAX_OUTPUT_BUCKETS`].
    pub buckets: usize,
    /// `buckets × 2 × hidden`: for each bucket, the side to move's accumulator's weights, then
    /// the opponent's.
    pub w2: Vec<f32>,
    /// One output bias per bucket.
    pub b2: Vec<f32>,
}

impl FloatNetwork {
    /// All weights zero; with the factoriser's rows when `factorised`.
    pub fn zeros(
        hidden: usize,
        activation: Activation,
        buckets: usize,
        layout: Layout,
        factorised: bool,
    ) -> FloatNetwork {
        assert!((1..=MAX_OUTPUT_BUCKETS).contains(&buckets) && layout.is_valid());
        FloatNetwork {
            hidden,
            activation,
            layout,
            w1: vec![0.0; rows(&layout, factorised) * hidden],
            factorised,
            b1: vec![0.0; hidden],
            buckets,
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
        }
    }

    /// The rows of `w1`: the layout's inputs, and the factoriser's.
    pub fn rows(&self) -> usize {
        rows(&self.layout, self.factorised)
    }

    /// The factoriser's shared row of input `i` (any bucket's): the rows after the buckets'.
    #[inline(always)]
    pub fn shared_row(&self, i: usize) -> usize {
        self.layout.inputs() + i % INPUTS
    }

    /// The first layer's sum for one perspective's active inputs (the layout's indices; with
    /// the factoriser each also adds its shared row).
    pub fn accumulate(&self, inputs: &[usize], out: &mut [f32]) {
        out.copy_from_slice(&self.b1);
        for &i in inputs {
            let mut add = |r: usize| {
                let row = &self.w1[r * self.hidden..(r + 1) * self.hidden];
                for (o, w) in out.iter_mut().zip(row) {
                    *o += w;
                }
            };
            add(i);
            if self.factorised {
                add(self.shared_row(i));
            }
        }
    }

    /// The same network without the factoriser: its shared rows added into every bucket's.
    pub fn merged(&self) -> FloatNetwork {
        if !self.factorised {
            return self.clone();
        }
        let h = self.hidden;
        let (own, shared) = self.w1.split_at(self.layout.inputs() * h);
        let mut w1 = own.to_vec();
        for bucket in w1.chunks_exact_mut(INPUTS * h) {
            for (w, s) in bucket.iter_mut().zip(shared) {
                *w += s;
            }
        }
        FloatNetwork {
            w1,
            factorised: false,
            ..self.clone()
        }
    }

    /// The output (times [`SCALE`](engine::eval::nnue::network::SCALE) it is centipawns for the side to move), given the side to
    /// move's and the opponent's active inputs.
    /// The output bucket is chosen by the number of pieces, which is the number of inputs.
    pub fn forward(&self, ours: &[usize], theirs: &[usize]) -> f32 {
        let mut us = vec![0.0; self.hidden];
        let mut them = vec![0.0; self.hidden];
        self.accumulate(ours, &mut us);
        self.accumulate(theirs, &mut them);
        let bucket = output_bucket(ours.len(), self.buckets);
        let w2 = &self.w2[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden];
        let mut out = self.b2[bucket];
        for i in 0..self.hidden {
            out += self.activation.apply(us[i]) * w2[i];
            out += self.activation.apply(them[i]) * w2[self.hidden + i];
        }
        out
    }

    /// The integer network: the factoriser merged, every weight clipped to ±[`WEIGHT_LIMIT`]
    /// and rounded.
    pub fn quantise(&self) -> Network {
        if self.factorised {
            return self.merged().quantise();
        }
        let q = |w: f32, scale: i32| -> i16 {
            (w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT) * scale as f32).round() as i16
        };
        Network {
            description: String::new(),
            hidden: self.hidden,
            activation: self.activation,
            layout: self.layout,
            w1: self.w1.iter().map(|&w| q(w, QA)).collect(),
            b1: self.b1.iter().map(|&w| q(w, QA)).collect(),
            buckets: self.buckets,
            w2: self.w2.iter().map(|&w| q(w, QB)).collect(),
            b2: self
                .b2
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}

/// The rows of the first layer for a layout, with or without the factoriser's.
pub fn rows(layout: &Layout, factorised: bool) -> usize {
    layout.inputs() + if factorised { INPUTS } else { 0 }
}
