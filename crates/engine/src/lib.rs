//! cb2026's search and evaluation.

pub use chess;
