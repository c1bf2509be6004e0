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

    use crate::eval::nnue::NnueEvaluator;
    use chess::Position;

    #[test]
    fn the_embedded_net_reads_back_exactly() {
        let net = Network::from_bytes(EMBEDDED_NET).unwrap();
        // Every weight and the description as the file has them: written again, they give
        // the file byte for byte.
        assert_eq!(net.to_bytes(), EMBEDDED_NET);
        assert!(
            net.description.starts_with("cb2026 train"),
            "{}",
            net.description
        );
        // The shape nets/README.md gives for the current net.
        let readme = include_str!("../../../nets/README.md");
        let current = readme
            .lines()
            .find(|l| l.starts_with("## The current net"))
            .unwrap();
        let shape = format!("768 → {}×2", net.hidden);
        assert!(current.contains(&shape), "{current}: not {shape}");
        assert!(current.contains(net.activation.name()), "{current}");
        // And its inputs' layout, where it is not the plain one ("mirrored", "4 king buckets").
        let layout = net.layout.describe();
        assert!(current.contains(&layout), "{current}: not {layout}");
    }

    #[test]
    fn the_embedded_net_knows_a_queen_from_nothing() {
        let mut eval = NnueEvaluator::new(embedded());
        let mut score = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            eval.reset(&pos);
            eval.evaluate(&pos, 0)
        };
        let start = score(chess::STARTPOS);
        assert!(start.abs() < 100, "the start position: {start}");
        // Black without its queen, with White and then Black to move.
        let up = score("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let down = score("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(
            up > 500 && down < -500,
            "a queen up: {up}, a queen down: {down}"
        );
    }
}
