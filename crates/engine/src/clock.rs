//! The clock the search reads. Natively it is std's. On `wasm32-unknown-unknown` (the browser
//! build) std has no clock, and `Instant::now()` panics there, so the browser's is used through
//! `web-time`, which offers the same types and methods.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::{Instant, SystemTime, UNIX_EPOCH};
#[cfg(target_arch = "wasm32")]
pub use web_time::{Instant, SystemTime, UNIX_EPOCH};
