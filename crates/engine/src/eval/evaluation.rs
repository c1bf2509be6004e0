//! The engine's evaluation: the network, or the hand-crafted evaluation when the `nnue` switch is
//! off, or, with `hce` off too, the material and piece-square tables of stages 6 to 15. All stay
//! ready, so `set nnue on|off` takes effect at the next search.
//!
//! The choice is made once per search ([`Evaluator::configure`]) and then read by every
//! `evaluate`, `push` and `reset` as one test of `use_nnue`, which never changes during the
//! search. That test costs nothing worth a second, monomorphised copy of the search: counted by
//! cachegrind (`valgrind --tool=cachegrind --branch-sim=yes cb2026 bench 8`, 613,530 nodes,
//! 5 December 2026), this build ran 3,186,385,256 instructions and a build with the three tests
//! removed (always the network) 3,182,536,805: 0.12% more, about 6 instructions a node, and its
//! branches added no mispredictions (16.97 million simulated against 17.21 million without them:
//! the simulator's noise is larger than the tests' cost).

use super::nnue::{Network, NnueEvaluator};
use super::{EvalTrace, Evaluator, HceEvaluator, PstEvaluator};
use crate::techniques::Techniques;
use chess::{Move, Position};
use std::sync::Arc;

pub struct Evaluation {
    hce: HceEvaluator,
    nnue: NnueEvaluator,
    use_nnue: bool,
    /// Without the network: the hand-crafted evaluation, or (false) the first one's tables.
    use_hce: bool,
}

impl Evaluation {
    /// With the given network; which evaluation runs follows the techniques' `nnue` switch.
    pub fn new(net: Arc<Network>) -> Evaluation {
        Evaluation {
            hce: HceEvaluator::default(),
            nnue: NnueEvaluator::new(net),
            use_nnue: Techniques::default().nnue,
            use_hce: Techniques::default().hce,
        }
    }

    /// With the network built into the engine.
    pub fn embedded() -> Evaluation {
        Evaluation::new(super::nnue::embedded())
    }

    pub fn network(&self) -> &Arc<Network> {
        self.nnue.network()
    }

    pub fn uses_nnue(&self) -> bool {
        self.use_nnue
    }
}

impl Evaluator for Evaluation {
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.use_nnue {
            self.nnue.evaluate(pos, ply)
        } else if self.use_hce {
            self.hce.evaluate(pos, ply)
        } else {
            PstEvaluator.evaluate(pos, ply)
        }
    }

    /// The hand-written evaluation term by term: the one chapter 16 built, or the first one's
    /// when `hce` is off (the network has no terms).
    fn trace(&mut self, pos: &Position) -> EvalTrace {
        if self.use_hce {
            self.hce.trace(pos)
        } else {
            PstEvaluator.trace(pos)
        }
    }

    fn reset(&mut self, root: &Position) {
        if self.use_nnue {
            self.nnue.reset(root);
        }
    }

    #[inline]
    fn push(&mut self, parent: &Position, _mv: Option<Move>, child: &Position, ply: usize) {
        // The network finds what a move changed by comparing the two positions.
        if self.use_nnue {
            self.nnue.push(parent, child, ply);
        }
    }

    fn configure(&mut self, techniques: &Techniques) {
        self.use_nnue = techniques.nnue;
        self.use_hce = techniques.hce;
    }
}
