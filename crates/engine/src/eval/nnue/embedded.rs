//! The network built into the engine, so that `cargo run --release` plays with it on a machine
//! with no files and no network. `EvalFile` loads another in its place.

use super::network::{Network, header_is_valid};
use std::sync::{Arc, OnceLock};

/// The net file, as `train` wrote it (see `nets/README.md` for how it was made).
pub static EMBEDDED_NET: &[u8] = include_bytes!("../../../nets/default.nnue");

// A damaged or mismatched file fails the build, not the first search.
const _: () = assert!(
    header_is_valid(EMBEDDED_NET),
    "nets/default.nnue is not a cb2026 network of this format version"
);

/// The embedded network, parsed once and shared by every search.
pub fn embedded() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| match Network::from_bytes(EMBEDDED_NET) {
        Ok(net) => Arc::new(net),
        // The header was checked at build time; the checksum and the weights' limits are
        // checked by a unit test, so this cannot be reached from a tested build.
        Err(e) => panic!("the embedded network is damaged: {e}"),
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_reads() {
        assert!(Network::from_bytes(EMBEDDED_NET).is_ok());
    }
}
