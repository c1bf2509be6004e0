//! What the search tells its counters and the search-tree explorer's recorder. While no tree is
//! recorded, `tree` is `None` and each hook costs one well-predicted test of that field.

use super::Worker;
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::tree::{Kind, Via};
use chess::Move;

impl<E: Evaluator> Worker<E> {
    #[inline(always)]
    pub(crate) fn note(&mut self, note: Note) {
        self.counters.add(note);
    }

    // ANCHOR: note_node
    /// Counts an event that decides the node being searched (a cutoff, a pruning, a draw) or marks
    /// it (internal iterative reduction); a recorded tree takes it as the node's outcome or flag.
    /// Only these few counters tell the recorder: the others stay as cheap as before.
    #[inline(always)]
    pub(crate) fn note_node(&mut self, note: Note) {
        self.counters.add(note);
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.note(note);
        }
    }
    // ANCHOR_END: note_node

    /// Counts a move skipped by a pruning technique; a recorded tree keeps it as a stub.
    #[inline(always)]
    pub(crate) fn note_pruned(&mut self, note: Note, mv: Move) {
        self.counters.add(note);
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.pruned(note, mv);
        }
    }

    /// Tells a recorded tree how the next child is searched (a reduction, a re-search...).
    #[inline(always)]
    pub(crate) fn tree_via(&mut self, via: Via) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.via(via);
        }
    }

    /// A node starts: a recorded tree opens a record for it.
    #[inline(always)]
    pub(crate) fn tree_enter(&mut self, kind: Kind, ply: usize, depth: i32, alpha: i32, beta: i32) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.enter(kind, ply, depth, alpha, beta);
        }
    }

    /// The node ends with `score`.
    #[inline(always)]
    pub(crate) fn tree_exit(&mut self, score: i32) {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.exit(score, self.aborted);
        }
    }
}
