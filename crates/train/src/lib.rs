//! cb2026's NNUE trainer: learns the engine's network (`engine::eval::nnue`) from self-play
//! positions, on the CPU, in plain Rust.
//!
//! - [`data`]: positions in 32 bytes each, read from `tune`'s `.games` files and 32-byte
//!   records, with games held out for validation;
//! - [`float_network`]: the network in floats, and its quantisation for the engine;
//! - [`loss`]: the target (a blend of the game's result and the search's score) and the loss;
//! - [`gradient`]: the forward and backward pass by hand, vectorised, over a chunk of a batch;
//! - [`optimiser`]: AdamW, lazy in the first layer's rows, clipping weights to what
//!   quantisation keeps;
//! - [`schedule`]: the learning rate's steps;
//! - [`trainer`]: epochs of shuffled batches over every core, deterministically;
//! - [`checkpoint`], [`plot`], [`progress`], [`run`]: the files a run writes and what it shows.
//!
//! ```sh
//! cargo run --release -p train -- --data /root/nnue/hce.games --out /root/nnue/run1 --epochs 30
//! cargo run --release -p train -- --out /root/nnue/run1 --resume --epochs 40
//! ```

pub mod checkpoint;
pub mod config;
pub mod data;
pub mod float_network;
pub mod gradient;
pub mod loss;
pub mod model;
pub mod optimiser;
pub mod plot;
pub mod progress;
pub mod run;
pub mod schedule;
pub mod trainer;

pub use config::Config;
pub use float_network::FloatNetwork;
pub use run::{RunOptions, Summary, resume, start};
