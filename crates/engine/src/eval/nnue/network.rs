//! The network and its file. cb2026's network is a perspective network `(768 → N) × 2 → 1`: each
//! side's 768 inputs (see [`super::inputs`]) feed the same first layer of N neurons, giving two
//! accumulators; the side to move's comes first, the opponent's second, both go through the
//! activation, and one output neuron weighs all 2N of them. The output neuron may come in
//! *buckets*: B sets of output weights and biases, of which a position uses the one for its
//! number of pieces ([`output_bucket`]), so that the net can weigh its features differently in
//! the opening and in an endgame at the cost of no more than B × 2N weights. The inputs may come
//! in *king buckets* too, mirrored or not ([`Layout`]): K copies of the 768, of which each side's
//! view uses the one its king's square chooses.
//!
//! The trainer works in floats (`train::FloatNetwork`); the engine in integers ([`Network`]), as
//! every NNUE engine does: the first layer's weights and biases scaled by [`QA`] to `i16`, the output
//! weights by [`QB`] to `i16` (they must fit in 8 bits, see [`Network::validate`]), the output
//! bias by `QA × QB` to `i32`. The output, times [`SCALE`], is the score in centipawns.
//!
//! # The file (little-endian)
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | `CB26NNUE` |
//! | 8..12 | format version, 1 |
//! | 12..16 | N, the neurons of the first layer (a multiple of 16, at most 2048) |
//! | 16..20 | activation: 0 SCReLU (`clamp(x, 0, 1)²`), 1 CReLU (`clamp(x, 0, 1)`) |
//! | 20..24, 24..28, 28..32 | QA, QB, SCALE (must be 255, 64, 400) |
//! | 32..40 | FNV-1a 64 hash of everything after byte 64 |
//! | 40..44 | D, the length of the description (version 2; version 1 files have none) |
//! | 44..48 | B, the output buckets, 1 to 8 (version 3; earlier files have one) |
//! | 48..52 | K, the king buckets of the inputs, 1 to 32 (version 4; earlier files have one) |
//! | 52..56 | 1 if the inputs are mirrored (version 4), else 0 |
//! | 56..64 | zero |
//! | 64..128 | version 4 only: the king bucket of each square, one byte each (see [`Layout`]) |
//! | then | the description: D bytes of UTF-8 (how the net was made: the trainer's command, its data, the epoch), zero-padded to a multiple of 64 bytes so that the weights stay aligned |
//! | then | first-layer weights, `i16`, input-major (`K × 768 × N`); first-layer biases (`N`); output weights (`B × 2N`, bucket by bucket, each ours then theirs); output biases, `i32` (`B`) |
//!
//! A net with the plain inputs (one king bucket, no mirroring) is written as version 3, so the
//! nets made before version 4 existed are written back byte for byte.

use super::inputs::{INPUTS, Layout, MAX_KING_BUCKETS};

/// The first layer's quantisation: a float weight `w` is stored as `round(w × QA)`.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 64;
/// The network's output times this is centipawns.
pub const SCALE: i32 = 400;

/// The largest float weight that quantises safely: an `i16` accumulator holds 32 inputs and a
/// bias at this size, and an output weight stays within 8 bits (`1.98 × 64 < 127`), so the
/// SIMD code's 16-bit products cannot overflow.
pub const WEIGHT_LIMIT: f32 = 1.98;

const MAGIC: &[u8; 8] = b"CB26NNUE";
const VERSION: u32 = 4;
/// The version a net with the plain inputs is written in.
const PLAIN_VERSION: u32 = 3;
/// Files without output buckets (version 2) or a description (version 1), written before they
/// existed, are still read.
const FIRST_VERSION: u32 = 1;
/// The first version with a description.
const DESCRIBED: u32 = 2;
/// The first version with output buckets.
const OUTPUT_BUCKETED: u32 = 3;
/// The first version with king buckets and mirroring, and the bucket map after the header.
const KING_BUCKETED: u32 = 4;
/// The bucket map's room after the header (version 4).
const MAP: usize = 64;
/// The most output buckets a file may declare.
pub const MAX_OUTPUT_BUCKETS: usize = 8;

// ANCHOR: output_bucket
/// The output bucket of a position with `pieces` pieces (kings included) in a net of `buckets`:
/// the range 2..=32 cut into `buckets` equal slices, the fewest pieces in bucket 0.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let per_bucket = 32usize.div_ceil(buckets);
    (pieces.saturating_sub(2) / per_bucket).min(buckets - 1)
}
// ANCHOR_END: output_bucket
/// The longest description a file may carry.
pub const MAX_DESCRIPTION: usize = 16 * 1024;
const HEADER: usize = 64;
/// The widest first layer a file may declare.
pub const MAX_HIDDEN: usize = 2048;

/// The activation between the layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Squared clipped ReLU: `clamp(x, 0, 1)²`.
    SCReLU = 0,
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CReLU = 1,
}

impl Activation {
    pub fn name(self) -> &'static str {
        match self {
            Activation::SCReLU => "SCReLU",
            Activation::CReLU => "CReLU",
        }
    }

    /// The float activation, as the trainer applies it.
    #[inline(always)]
    pub fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::SCReLU => c * c,
            Activation::CReLU => c,
        }
    }

    /// Its derivative.
    #[inline(always)]
    pub fn derivative(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            0.0
        } else {
            match self {
                Activation::SCReLU => 2.0 * x,
                Activation::CReLU => 1.0,
            }
        }
    }
}

// ANCHOR: finish
/// From the output layer's sum to centipawns: SCReLU's sum is in units of `QA² × QB`, CReLU's of
/// `QA × QB`; the bias is in `QA × QB`.
#[inline(always)]
pub fn finish(sum: i32, activation: Activation, b2: i32) -> i32 {
    let sum = match activation {
        Activation::SCReLU => sum / QA,
        Activation::CReLU => sum,
    };
    ((sum as i64 + b2 as i64) * SCALE as i64 / (QA * QB) as i64) as i32
}
// ANCHOR_END: finish

/// The integer network the engine evaluates with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// How the net was made (the trainer's command, data and epoch); empty if unknown.
    pub description: String,
    pub hidden: usize,
    pub activation: Activation,
    /// How the inputs are read: king buckets and mirroring.
    pub layout: Layout,
    /// `layout.inputs() × hidden`, input-major.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// The output buckets, 1 to [`MAX_OUTPUT_BUCKETS`]: for each, the side to move's
    /// accumulator's weights, then the opponent's.
    pub buckets: usize,
    /// `buckets × 2 × hidden`.
    pub w2: Vec<i16>,
    pub b2: Vec<i32>,
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// The size of a version 4 file for a first layer of `hidden` neurons, `king_buckets` copies of
/// the inputs, `buckets` output buckets and a description of `description` bytes.
pub const fn file_size(
    hidden: usize,
    king_buckets: usize,
    buckets: usize,
    description: usize,
) -> usize {
    sized(KING_BUCKETED, hidden, king_buckets, buckets, description)
}

/// The size of a file of `version`.
const fn sized(
    version: u32,
    hidden: usize,
    king_buckets: usize,
    buckets: usize,
    description: usize,
) -> usize {
    HEADER
        + if version >= KING_BUCKETED { MAP } else { 0 }
        + padded(description)
        + 2 * (king_buckets * INPUTS * hidden + hidden + buckets * 2 * hidden)
        + 4 * buckets
}

const fn header_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The description's length a header declares (version 1 files have none). `bytes` holds at
/// least the header.
const fn declared_description(bytes: &[u8]) -> usize {
    if header_u32(bytes, 8) >= DESCRIBED {
        header_u32(bytes, 40) as usize
    } else {
        0
    }
}

/// The output buckets a header declares (files before version 3 have one).
const fn declared_buckets(bytes: &[u8]) -> usize {
    if header_u32(bytes, 8) >= OUTPUT_BUCKETED {
        header_u32(bytes, 44) as usize
    } else {
        1
    }
}

/// The king buckets a header declares (files before version 4 have one).
const fn declared_king_buckets(bytes: &[u8]) -> usize {
    if header_u32(bytes, 8) >= KING_BUCKETED {
        header_u32(bytes, 48) as usize
    } else {
        1
    }
}

/// A description's room in the file: rounded up to whole 64-byte lines.
const fn padded(description: usize) -> usize {
    description.div_ceil(64) * 64
}

/// The header checks that need no parsing, for the embedded net's compile-time check: the magic,
/// the version and a length that fits the declared width.
pub const fn header_is_valid(bytes: &[u8]) -> bool {
    if bytes.len() < HEADER {
        return false;
    }
    let mut i = 0;
    while i < 8 {
        if bytes[i] != MAGIC[i] {
            return false;
        }
        i += 1;
    }
    let version = header_u32(bytes, 8);
    let hidden = header_u32(bytes, 12) as usize;
    let description = declared_description(bytes);
    let buckets = declared_buckets(bytes);
    let king_buckets = declared_king_buckets(bytes);
    version >= FIRST_VERSION
        && version <= VERSION
        && hidden > 0
        && hidden.is_multiple_of(16)
        && hidden <= MAX_HIDDEN
        && description <= MAX_DESCRIPTION
        && buckets >= 1
        && buckets <= MAX_OUTPUT_BUCKETS
        && king_buckets >= 1
        && king_buckets <= MAX_KING_BUCKETS
        && bytes.len() == sized(version, hidden, king_buckets, buckets, description)
}

impl Network {
    /// The net in its file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        // A description too long for the format is cut at a character boundary.
        let mut cut = self.description.len().min(MAX_DESCRIPTION);
        while !self.description.is_char_boundary(cut) {
            cut -= 1;
        }
        let description = &self.description.as_bytes()[..cut];
        let version = if self.layout == Layout::PLAIN {
            PLAIN_VERSION
        } else {
            VERSION
        };
        let size = sized(version, self.hidden, self.layout.buckets, self.buckets, cut);
        let mut payload = Vec::with_capacity(size - HEADER);
        if version >= KING_BUCKETED {
            payload.extend_from_slice(&self.layout.bucket_of);
        }
        payload.extend_from_slice(description);
        payload.resize(payload.len() + padded(cut) - cut, 0);
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(MAGIC);
        for v in [
            version,
            self.hidden as u32,
            self.activation as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&(cut as u32).to_le_bytes());
        out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        if version >= KING_BUCKETED {
            out.extend_from_slice(&(self.layout.buckets as u32).to_le_bytes());
            out.extend_from_slice(&(self.layout.mirrored as u32).to_le_bytes());
        }
        out.resize(HEADER, 0);
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a net file, checking everything a bad file could get wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let err = |s: String| Err(NetError(s));
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return err("not a cb2026 network (no CB26NNUE header)".into());
        }
        let version = u32_at(bytes, 8);
        if !(FIRST_VERSION..=VERSION).contains(&version) {
            return err(format!(
                "network format version {version}, expected {FIRST_VERSION} to {VERSION}"
            ));
        }
        let description_len = declared_description(bytes);
        if description_len > MAX_DESCRIPTION {
            return err(format!(
                "a description of {description_len} bytes (at most {MAX_DESCRIPTION})"
            ));
        }
        let buckets = declared_buckets(bytes);
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return err(format!(
                "{buckets} output buckets (must be 1 to {MAX_OUTPUT_BUCKETS})"
            ));
        }
        let king_buckets = declared_king_buckets(bytes);
        if !(1..=MAX_KING_BUCKETS).contains(&king_buckets) {
            return err(format!(
                "{king_buckets} king buckets (must be 1 to {MAX_KING_BUCKETS})"
            ));
        }
        let mirrored = match (version >= KING_BUCKETED).then(|| u32_at(bytes, 52)) {
            None | Some(0) => false,
            Some(1) => true,
            Some(m) => return err(format!("a mirroring flag of {m} (must be 0 or 1)")),
        };
        let hidden = u32_at(bytes, 12) as usize;
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
            return err(format!(
                "a first layer of {hidden} neurons (must be a multiple of 16 up to {MAX_HIDDEN})"
            ));
        }
        let activation = match u32_at(bytes, 16) {
            0 => Activation::SCReLU,
            1 => Activation::CReLU,
            a => return err(format!("unknown activation {a}")),
        };
        let scales = (u32_at(bytes, 20), u32_at(bytes, 24), u32_at(bytes, 28));
        if scales != (QA as u32, QB as u32, SCALE as u32) {
            return err(format!("scales {scales:?}, expected ({QA}, {QB}, {SCALE})"));
        }
        let size = sized(version, hidden, king_buckets, buckets, description_len);
        if bytes.len() != size {
            return err(format!(
                "{} bytes, but a net of {hidden} neurons, {king_buckets} king buckets and {buckets} output buckets with a description of {description_len} bytes has {size}",
                bytes.len(),
            ));
        }
        let mut hash = [0; 8];
        hash.copy_from_slice(&bytes[32..40]);
        if u64::from_le_bytes(hash) != fnv1a(&bytes[HEADER..]) {
            return err("checksum mismatch: the file is damaged".into());
        }
        let mut layout = Layout::PLAIN;
        let mut at = HEADER;
        if version >= KING_BUCKETED {
            layout.bucket_of.copy_from_slice(&bytes[at..at + MAP]);
            layout.buckets = king_buckets;
            layout.mirrored = mirrored;
            at += MAP;
            if !layout.is_valid() {
                return err(format!(
                    "the king bucket map names a bucket beyond its {king_buckets}"
                ));
            }
        }
        let Ok(description) = std::str::from_utf8(&bytes[at..at + description_len]) else {
            return err("the description is not UTF-8".into());
        };
        let payload = &bytes[at + padded(description_len)..];
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let w1 = take(layout.inputs() * hidden);
        let b1 = take(hidden);
        let w2 = take(buckets * 2 * hidden);
        let b2 = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let net = Network {
            description: description.to_string(),
            hidden,
            activation,
            layout,
            w1,
            b1,
            buckets,
            w2,
            b2,
        };
        net.validate()?;
        Ok(net)
    }

    /// The score in centipawns for the side to move, computed from scratch without SIMD: the
    /// reference the incremental, vectorised evaluation is tested against, and what the trainer
    /// compares its float network with.
    pub fn evaluate_inputs(&self, ours: &[usize], theirs: &[usize]) -> i32 {
        let n = self.hidden;
        let mut acc = vec![0i16; 2 * n];
        for (side, inputs) in [ours, theirs].into_iter().enumerate() {
            let a = &mut acc[side * n..(side + 1) * n];
            a.copy_from_slice(&self.b1);
            for &i in inputs {
                for (x, w) in a.iter_mut().zip(&self.w1[i * n..(i + 1) * n]) {
                    *x = x.wrapping_add(*w);
                }
            }
        }
        self.output(&acc[..n], &acc[n..], ours.len())
    }

    /// Its shape in words: "256 neurons, SCReLU", and the king and output buckets if there are
    /// several.
    pub fn shape(&self) -> String {
        let mut s = format!("{} neurons, {}", self.hidden, self.activation.name());
        let inputs = self.layout.describe();
        if !inputs.is_empty() {
            s.push_str(&format!(", {inputs}"));
        }
        if self.buckets > 1 {
            s.push_str(&format!(", {} output buckets", self.buckets));
        }
        s
    }

    /// The output weights (`2N`, ours then theirs) and bias of a position with `pieces` pieces.
    #[inline(always)]
    pub fn output_layer(&self, pieces: usize) -> (&[i16], i32) {
        let bucket = output_bucket(pieces, self.buckets);
        let n2 = 2 * self.hidden;
        (&self.w2[bucket * n2..(bucket + 1) * n2], self.b2[bucket])
    }

    /// The output layer on two accumulators (the side to move's first) of a position with
    /// `pieces` pieces, in centipawns.
    pub fn output(&self, us: &[i16], them: &[i16], pieces: usize) -> i32 {
        let n = self.hidden;
        let (w2, b2) = self.output_layer(pieces);
        let mut sum: i32 = 0;
        for (side, acc) in [us, them].into_iter().enumerate() {
            for (&x, &w) in acc.iter().zip(&w2[side * n..(side + 1) * n]) {
                let v = (x as i32).clamp(0, QA);
                let term = match self.activation {
                    Activation::SCReLU => (v * w as i32) * v,
                    Activation::CReLU => v * w as i32,
                };
                sum = sum.wrapping_add(term);
            }
        }
        finish(sum, self.activation, b2)
    }

    /// The limits the SIMD code relies on: output weights within 8 bits, so that a clipped
    /// activation (≤ 255) times a weight fits in 16 bits.
    pub fn validate(&self) -> Result<(), NetError> {
        let n = self.hidden;
        let shaped = self.layout.is_valid()
            && (1..=MAX_OUTPUT_BUCKETS).contains(&self.buckets)
            && self.w1.len() == self.layout.inputs() * n
            && self.b1.len() == n
            && self.w2.len() == self.buckets * 2 * n
            && self.b2.len() == self.buckets;
        if !shaped {
            return Err(NetError(format!(
                "the weights do not fit the shape ({})",
                self.shape()
            )));
        }
        if let Some(w) = self.w2.iter().find(|w| w.unsigned_abs() > 127) {
            return Err(NetError(format!(
                "an output weight of {w} (at most ±127 are allowed)"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::rng::Rng;

    /// A network with random weights, as rounded from floats of the sizes a trained one has.
    fn random_net(hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut f = || (rng.next_u64() % 2001) as f32 / 1000.0 - 1.0;
        let mut q = |scale: f32, unit: i32| (f() * scale * unit as f32).round();
        Network {
            description: String::new(),
            hidden,
            activation: Activation::SCReLU,
            layout: Layout::PLAIN,
            w1: (0..INPUTS * hidden).map(|_| q(0.2, QA) as i16).collect(),
            b1: (0..hidden).map(|_| q(0.2, QA) as i16).collect(),
            buckets,
            w2: (0..buckets * 2 * hidden)
                .map(|_| q(1.0, QB) as i16)
                .collect(),
            b2: (0..buckets).map(|_| q(0.1, QA * QB) as i32).collect(),
        }
    }

    #[test]
    fn a_net_survives_its_file_and_a_damaged_file_is_refused() {
        let mut net = random_net(32, 1, 7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), sized(PLAIN_VERSION, 32, 1, 1, 0));
        assert!(header_is_valid(&bytes));
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));

        // A description travels with the net, and the weights stay 64-byte aligned after it.
        net.description = "train --data a.games --hidden 32 (epoch 3) é".to_string();
        let described = net.to_bytes();
        assert_eq!(
            described.len(),
            sized(PLAIN_VERSION, 32, 1, 1, net.description.len())
        );
        assert_eq!(
            described.len(),
            bytes.len() + 64,
            "one 64-byte line of description"
        );
        assert!(header_is_valid(&described));
        assert_eq!(Network::from_bytes(&described), Ok(net.clone()));
        let mut garbled = described.clone();
        garbled[64] = 0xff;
        let e = Network::from_bytes(&garbled).unwrap_err();
        assert!(e.0.contains("checksum"), "{e}");
        // The same with a checksum that fits: the description must still be UTF-8.
        let hash = fnv1a(&garbled[HEADER..]);
        garbled[32..40].copy_from_slice(&hash.to_le_bytes());
        let e = Network::from_bytes(&garbled).unwrap_err();
        assert!(e.0.contains("UTF-8"), "{e}");
        // A version 1 file (no description) and a version 2 file (no output buckets) still
        // read: the same bytes, with no description and one bucket.
        for version in [1, 2] {
            let mut old = bytes.clone();
            old[8] = version;
            old[44] = 0;
            let old = Network::from_bytes(&old).unwrap();
            assert_eq!((old.description.as_str(), &old.w1), ("", &net.w1));
        }

        let short = &bytes[..bytes.len() - 1];
        assert!(Network::from_bytes(short).is_err());
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        let e = Network::from_bytes(&flipped).unwrap_err();
        assert!(e.0.contains("checksum"), "{e}");
        assert!(Network::from_bytes(b"hello").is_err());
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(Network::from_bytes(&version).is_err());
        for buckets in [0, 9] {
            let mut wrong = bytes.clone();
            wrong[44] = buckets;
            assert!(!header_is_valid(&wrong));
            let e = Network::from_bytes(&wrong).unwrap_err();
            assert!(e.0.contains("output buckets"), "{e}");
        }
    }

    /// Eight buckets: the file keeps them, and each position's output is its bucket's.
    #[test]
    fn output_buckets_follow_the_number_of_pieces() {
        assert_eq!(
            (2..=32).map(|p| output_bucket(p, 8)).collect::<Vec<_>>(),
            [
                0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6,
                7, 7, 7
            ]
        );
        assert!((2..=32).all(|p| output_bucket(p, 1) == 0));
        let net = random_net(32, 8, 11);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), sized(PLAIN_VERSION, 32, 1, 8, 0));
        assert!(header_is_valid(&bytes));
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        // The same inputs scored with the weights of one bucket or another: a net whose
        // buckets differ gives different scores for 3 pieces and for 31.
        let few: Vec<usize> = vec![4, 400, 767];
        let many: Vec<usize> = (0..31).map(|i| i * 24).collect();
        let mut one = net.clone();
        one.buckets = 1;
        one.w2.truncate(2 * 32);
        one.b2.truncate(1);
        assert_eq!(
            net.evaluate_inputs(&few, &few),
            one.evaluate_inputs(&few, &few)
        );
        assert_ne!(
            net.evaluate_inputs(&many, &many),
            one.evaluate_inputs(&many, &many)
        );
        let mut last = net.clone();
        last.buckets = 1;
        last.w2 = net.w2[7 * 64..].to_vec();
        last.b2 = vec![net.b2[7]];
        assert_eq!(
            net.evaluate_inputs(&many, &many),
            last.evaluate_inputs(&many, &many)
        );
    }

    /// King buckets and mirroring: the file says so (version 4, with the bucket map), reads
    /// back exactly, and a wrong map or flag is refused.
    #[test]
    fn a_king_bucketed_net_survives_its_file() {
        let mut net = random_net(32, 2, 5);
        net.layout = Layout::named(4, true).unwrap();
        let extra: Vec<i16> = (0..3 * INPUTS * 32).map(|i| (i % 97) as i16 - 48).collect();
        net.w1.extend(extra);
        net.description = "four king buckets".into();
        assert!(net.validate().is_ok());
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_size(32, 4, 2, net.description.len()));
        assert_eq!(u32_at(&bytes, 8), 4);
        assert!(header_is_valid(&bytes));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(
            back.shape(),
            "32 neurons, SCReLU, 4 king buckets, mirrored, 2 output buckets"
        );
        let rehash = |mut b: Vec<u8>| {
            let h = fnv1a(&b[HEADER..]);
            b[32..40].copy_from_slice(&h.to_le_bytes());
            b
        };
        let mut map = bytes.clone();
        map[HEADER + 10] = 4;
        let e = Network::from_bytes(&rehash(map)).unwrap_err();
        assert!(e.0.contains("bucket map"), "{e}");
        let mut flag = bytes.clone();
        flag[52] = 2;
        let e = Network::from_bytes(&flag).unwrap_err();
        assert!(e.0.contains("mirroring"), "{e}");
        let mut many = bytes.clone();
        many[48] = 33;
        assert!(!header_is_valid(&many));
        assert!(
            Network::from_bytes(&many)
                .unwrap_err()
                .0
                .contains("king buckets")
        );
        // A net whose first layer does not fit its layout is refused before use.
        let mut short = net.clone();
        short.w1.truncate(INPUTS * 32);
        assert!(short.validate().is_err());
    }
}
