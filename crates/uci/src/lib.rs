//! cb2026's UCI session as a library: the `cb2026` binary drives it from stdin on its own search
//! thread, and the browser build (`crates/web`) drives the same session synchronously inside a
//! Web Worker, so both speak one protocol from one copy of the code.

mod command;
mod genfens;
mod go;
pub mod input;
mod options;
pub mod output;
mod report;
mod session;
mod tree;

pub use session::Session;
