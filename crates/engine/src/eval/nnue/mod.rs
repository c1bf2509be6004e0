//! NNUE: an efficiently updatable neural network, cb2026's own, trained by `train` on cb2026's
//! self-play games.
//!
//! - [`inputs`]: the 768 inputs of each side's view (times the king buckets of a bucketed
//!   net, mirrored or not), and what a move changes;
//! - [`network`]: the network in integers, as the engine evaluates with it, and its file;
//! - [`accumulator`]: the first layer's sums, ply by ply, updated lazily, and the refresh
//!   cache a king's change of bucket rebuilds its side's sums from;
//! - [`simd`]: the update and output loops, plain and vectorised (AVX2, AVX-512, NEON, SIMD128);
//! - [`evaluator`]: all of it as the search's evaluation;
//! - [`embedded`]: the network built into the binary.

pub mod accumulator;
mod embedded;
pub mod evaluator;
pub mod inputs;
pub mod network;
pub mod simd;

pub use embedded::{EMBEDDED_NET, embedded};
pub use evaluator::{NnueEvaluator, PieceValues, piece_values};
pub use network::{Activation, NetError, Network};
pub use simd::Simd;
