//! arena: cb2026's match runner. It plays UCI engines against each other (head to head or in a
//! gauntlet), keeps the clocks, applies the rules and adjudication, survives engines that crash,
//! hang or cheat, writes the games as PGN, and decides a change by SPRT.
//!
//! The binary is `src/main.rs`; the library exists so that the tests and the fake test engine
//! (`src/bin/arena-fake-engine.rs`) can use the same pieces.

pub mod adjudication;
pub mod cli;
pub mod clock;
pub mod config;
pub mod engine;
pub mod game;
pub mod log;
pub mod openings;
pub mod pgn;
pub mod progress;
pub mod report;
pub mod results;
pub mod resume;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod tournament;
