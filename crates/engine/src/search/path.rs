//! The line from the root to the node being searched: making a move on it, taking it back, and
//! the moves before a node that the continuation histories read.

use super::Worker;
use crate::eval::Evaluator;
use crate::history::PieceTo;
use crate::movepick::{OrderingContext, quiet_score};
use chess::{Move, Position};

impl<E: Evaluator> Worker<E> {
    /// Makes `mv` on a copy of `pos`, telling the evaluation and the repetition history.
    #[inline]
    pub(crate) fn play(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let mut child = pos.clone();
        child.make_move(mv);
        self.enter(pos, mv, &child, ply);
        child
    }

    /// Records that the search goes from `pos` to `child` by `mv`: the move for the histories,
    /// the evaluation's update, the position for repetitions. Undone by [`Worker::unplay`].
    #[inline]
    pub(crate) fn enter(&mut self, pos: &Position, mv: Move, child: &Position, ply: usize) {
        // The child's first act is to probe the table: start fetching its bucket now.
        if self.techniques.tt {
            self.tt.prefetch(child.hash());
        }
        self.stack[ply].moved = pos
            .piece_at(mv.from())
            .map(|piece| PieceTo { piece, to: mv.to() });
        self.evaluator.push(pos, Some(mv), child, ply);
        self.keys.push(pos.hash());
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.moved(ply, Some(mv));
        }
    }

    /// Undoes what [`Worker::play`] recorded (the position itself is just dropped).
    #[inline]
    pub(crate) fn unplay(&mut self) {
        self.keys.pop();
    }

    /// The moves one and two plies before `ply`, for the continuation histories.
    #[inline]
    pub(crate) fn previous(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.stack[p].moved),
            ply.checked_sub(2).and_then(|p| self.stack[p].moved),
        ]
    }

    /// What the move picker reads at the node at `ply`, whose moves one and two plies back are
    /// `previous`.
    #[inline]
    pub(crate) fn ordering(
        &self,
        ply: usize,
        previous: [Option<PieceTo>; 2],
    ) -> OrderingContext<'_> {
        OrderingContext {
            histories: &self.histories,
            techniques: &self.techniques,
            previous,
            params: &self.params,
            ply,
        }
    }

    /// A quiet move's history scores, as the move picker adds them up (the low-ply history, which
    /// the picker adds near the root, left out: `quiet_score` reads no ply).
    pub(crate) fn quiet_history(
        &self,
        pos: &Position,
        mv: Move,
        previous: &[Option<PieceTo>; 2],
    ) -> i32 {
        quiet_score(pos, mv, &self.ordering(usize::MAX, *previous))
    }
}
