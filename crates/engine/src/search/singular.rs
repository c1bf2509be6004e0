//! Singular extensions (chapter 15): the search that tests whether the hash move is the only good
//! move. What its score means (an extension, a double or negative one, a multi-cut) is decided
//! in the node function's block, where the switches are.

use super::Worker;
use super::node::{NodeArgs, NonPv};
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::pv::Pv;
use crate::tree::Via;
use chess::{Move, Position};

impl<E: Evaluator> Worker<E> {
    // ANCHOR: singular_search
    /// The test of the hash move `mv` at the node `args` describes: the node searched again
    /// without it, at about half the depth, with a null window at `singular_beta`. Its score is
    /// what the node function's singular extension block judges the hash move by.
    // Rare (depth 8 and more, the hash move only): kept out of the node function's code.
    #[inline(never)]
    pub(crate) fn singular_search(
        &mut self,
        pos: &Position,
        mv: Move,
        args: NodeArgs,
        singular_beta: i32,
    ) -> i32 {
        let depth = (args.depth - 1) * self.params.se_depth_percent / 100;
        self.note(Note::SingularSearch);
        self.stack[args.ply].excluded = Some(mv);
        let mut scratch = Pv::new();
        self.tree_via(Via::Singular);
        let without = NodeArgs {
            depth,
            alpha: singular_beta - 1,
            beta: singular_beta,
            ..args
        };
        let score = self.node::<NonPv>(pos, without, &mut scratch);
        self.stack[args.ply].excluded = None;
        score
    }
    // ANCHOR_END: singular_search
}
