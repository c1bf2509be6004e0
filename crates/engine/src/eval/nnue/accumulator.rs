//! The accumulator stack: the first layer's sums for every ply of the line being searched, kept
//! up to date move by move instead of recomputed. A move changes two to four of the 32 or so
//! active inputs, so a child's accumulator is its parent's plus a few rows: the "efficiently
//! updatable" of NNUE.
//!
//! The update is lazy. Making a move only writes down what changed ([`Changes`]); the sums are
//! brought up to date when the position is evaluated, walking up from the nearest ply that is
//! current. Nodes that end before they evaluate (a table cutoff, a draw, a mate-distance cut) cost
//! no update at all.

use super::inputs::{Changes, for_each_active};
use super::network::Network;
use super::simd::{self, Simd};
use chess::{Color, Position};

/// One ply's entry.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// What the move into this ply changed.
    changes: Changes,
    /// The sums are current for the position with this hash.
    computed: bool,
    /// The hash of the position this ply holds: an evaluation of another position (a caller
    /// that did not say where it went) is caught and answered from scratch.
    key: u64,
}

/// The stack, for one network and one search thread.
pub struct AccumulatorStack {
    hidden: usize,
    /// `plies × 2 × hidden` sums: per ply White's view, then Black's.
    sums: Vec<i16>,
    entries: Vec<Entry>,
    simd: Simd,
    /// Evaluations answered from scratch because the stack did not hold the position.
    pub refreshes: u64,
}

impl AccumulatorStack {
    pub fn new(hidden: usize, plies: usize, simd: Simd) -> AccumulatorStack {
        AccumulatorStack {
            hidden,
            sums: vec![0; plies * 2 * hidden],
            entries: vec![Entry::default(); plies],
            simd,
            refreshes: 0,
        }
    }

    pub fn simd(&self) -> Simd {
        self.simd
    }

    fn range(&self, ply: usize, view: Color) -> std::ops::Range<usize> {
        let start = (ply * 2 + view.index()) * self.hidden;
        start..start + self.hidden
    }

    /// Recomputes `ply`'s sums from the position.
    pub fn refresh(&mut self, net: &Network, pos: &Position, ply: usize) {
        let n = self.hidden;
        let mut white = [0u16; 32];
        let mut black = [0u16; 32];
        let mut count = 0;
        for_each_active(pos, |w, b| {
            if count < 32 {
                white[count] = w as u16;
                black[count] = b as u16;
            }
            count += 1;
        });
        let count = count.min(32);
        for (view, inputs) in [
            (Color::White, &white[..count]),
            (Color::Black, &black[..count]),
        ] {
            let r = self.range(ply, view);
            // The bias is the starting point; every active input is added to it.
            let out = &mut self.sums[r];
            simd::update(self.simd, out, &net.b1, &net.w1, inputs, &[]);
        }
        debug_assert_eq!(n, net.hidden);
        self.entries[ply] = Entry {
            changes: Changes::default(),
            computed: true,
            key: pos.hash(),
        };
    }

    /// Starts a search at `root` (ply 0).
    pub fn reset(&mut self, net: &Network, root: &Position) {
        for e in &mut self.entries {
            e.computed = false;
        }
        self.refresh(net, root, 0);
    }

    // ANCHOR: push
    /// Notes the move from `parent` at `ply` to `child` at `ply + 1` (a null move too).
    #[inline]
    pub fn push(&mut self, net: &Network, parent: &Position, child: &Position, ply: usize) {
        let next = ply + 1;
        if next >= self.entries.len() {
            return;
        }
        let changes = Changes::between(parent, child);
        if changes.overflowed() {
            // Not a parent and child: start afresh.
            self.refresh(net, child, next);
            return;
        }
        self.entries[next] = Entry {
            changes,
            computed: false,
            key: child.hash(),
        };
    }
    // ANCHOR_END: push

    // ANCHOR: current
    /// Brings `ply`'s sums up to date for `pos` and returns them: the side to move's view, then
    /// the opponent's.
    pub fn current(&mut self, net: &Network, pos: &Position, ply: usize) -> (&[i16], &[i16]) {
        if ply >= self.entries.len() || self.entries[ply].key != pos.hash() {
            // The stack does not hold this position: compute it in the last entry.
            self.refreshes += 1;
            let last = self.entries.len() - 1;
            self.refresh(net, pos, last);
            self.entries[last].key = 0;
            return self.views(last, pos.side_to_move());
        }
        let mut from = ply;
        while !self.entries[from].computed {
            if from == 0 {
                // Nothing current below: only when no search reset the stack.
                self.refreshes += 1;
                self.refresh(net, pos, ply);
                return self.views(ply, pos.side_to_move());
            }
            from -= 1;
        }
        for p in from + 1..=ply {
            let c = self.entries[p].changes;
            for view in [Color::White, Color::Black] {
                let v = view.index();
                let parent = self.range(p - 1, view);
                let start = self.range(p, view).start;
                let (below, above) = self.sums.split_at_mut(start);
                let input = &below[parent];
                let out = &mut above[..self.hidden];
                simd::update(
                    self.simd,
                    out,
                    input,
                    &net.w1,
                    &c.added[v][..c.n_added as usize],
                    &c.removed[v][..c.n_removed as usize],
                );
            }
            self.entries[p].computed = true;
        }
        self.views(ply, pos.side_to_move())
    }
    // ANCHOR_END: current

    fn views(&self, ply: usize, us: Color) -> (&[i16], &[i16]) {
        (
            &self.sums[self.range(ply, us)],
            &self.sums[self.range(ply, !us)],
        )
    }
}
