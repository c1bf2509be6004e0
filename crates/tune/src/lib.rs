//! cb2026's tuning tools, behind the `tune` binary:
//!
//! - [`datagen`]: self-play games at a fixed node count, written as quiet positions labelled with
//!   the game's result, in the 32-byte records of [`format`], or whole games in the compact
//!   format of [`games`] (4 bytes a move: the network's training data);
//! - [`texel`]: the Texel tuner, which fits every weight of the hand-crafted evaluation to those
//!   results and writes them back as `crates/engine/src/eval/tuned.rs`;
//! - [`spsa`]: SPSA for the search's parameters, playing its games with `arena`.
//!
//! The recipe (also in the README's "Tuning" section):
//!
//! ```sh
//! cargo run --release -p tune -- datagen --out data/tune/selfplay.bin --positions 5000000
//! cargo run --release -p tune -- texel data/tune/selfplay.bin --out crates/engine/src/eval/tuned.rs
//! scripts/sprt.sh                                   # the new weights against HEAD
//! scripts/spsa.sh --params rfp_margin,razor_margin --iterations 2000 --pairs-per-iteration 8
//! ```

pub mod adjudication;
pub mod datagen;
pub mod files;
pub mod format;
pub mod games;
pub mod pgn;
pub mod spsa;
pub mod texel;
