//! The accumulator stack: the first layer's sums for every ply of the line being searched, kept
//! up to date move by move instead of recomputed. A move changes two to four of the 32 or so
//! active inputs, so a child's accumulator is its parent's plus a few rows: the "efficiently
//! updatable" of NNUE.
//!
//! The update is lazy. Making a move only writes down what changed ([`Changes`]); the sums are
//! brought up to date when the position is evaluated, walking up from the nearest ply that is
//! current. Nodes that end before they evaluate (a table cutoff, a draw, a mate-distance cut) cost
//! no update at all. In a net with king buckets a king move that changes its bucket rebuilds its
//! own side's view (see [`RefreshCache`]) while the other side's is updated as usual, so where
//! the two sides differ the walk goes side by side.

use super::inputs::{Changes, View, for_each_active};
use super::network::Network;
use super::simd::{self, Simd};
use chess::{Color, PieceType, Position};

/// One ply's entry.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// What the move into this ply changed.
    changes: Changes,
    /// `[white view, black view]`: the sums are current for the position with this hash.
    computed: [bool; 2],
    /// The hash of the position this ply holds: an evaluation of another position (a caller
    /// that did not say where it went) is caught and answered from scratch.
    key: u64,
}

// ANCHOR: refresh_cache
/// The refresh cache ("Finny tables", after the engine that first kept them): for each side and
/// each of its king's buckets and halves of the board, the sums of the last position that side
/// was rebuilt in with its king there, and that position's pieces. A view is rebuilt from the
/// cached sums by adding and taking away only the pieces that differ, a handful after a king
/// move, where a rebuild from the bias would add all ~30.
struct RefreshCache {
    hidden: usize,
    /// Per slot: the sums, `hidden` each.
    sums: Vec<i16>,
    /// Per slot: the pieces the sums hold, by colour and kind.
    boards: Vec<[[u64; 6]; 2]>,
    /// Slots per side: the king buckets times the two halves.
    per_side: usize,
}

impl RefreshCache {
    fn new(net: &Network) -> RefreshCache {
        let per_side = net.layout.buckets * 2;
        let mut sums = Vec::with_capacity(2 * per_side * net.hidden);
        for _ in 0..2 * per_side {
            sums.extend_from_slice(&net.b1);
        }
        RefreshCache {
            hidden: net.hidden,
            sums,
            boards: vec![[[0; 6]; 2]; 2 * per_side],
            per_side,
        }
    }

    fn slot(&self, side: Color, view: View) -> usize {
        let (base, mirror) = view.key();
        side.index() * self.per_side
            + base as usize / super::inputs::INPUTS * 2
            + (mirror != 0) as usize
    }

    /// Sets `out` to `side`'s sums for `pos`, from the cached ones of its slot.
    fn rebuild(&mut self, net: &Network, simd: Simd, pos: &Position, side: Color, out: &mut [i16]) {
        let view = net.layout.view_of(pos, side);
        let slot = self.slot(side, view);
        // At most one change per square each way.
        let mut added = [0u16; 64];
        let mut removed = [0u16; 64];
        let (mut n_added, mut n_removed) = (0, 0);
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let now = pos.pieces(kind, color).0;
                let was = &mut self.boards[slot][color.index()][kind.index()];
                for (bits, list, n) in [
                    (now & !*was, &mut added, &mut n_added),
                    (*was & !now, &mut removed, &mut n_removed),
                ] {
                    let mut bits = bits;
                    while bits != 0 {
                        let sq = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        list[*n] = view.index(color, kind, sq) as u16;
                        *n += 1;
                    }
                }
                *was = now;
            }
        }
        let cached = &mut self.sums[slot * self.hidden..(slot + 1) * self.hidden];
        simd::update(
            simd,
            out,
            cached,
            &net.w1,
            &added[..n_added],
            &removed[..n_removed],
        );
        cached.copy_from_slice(out);
    }
}
// ANCHOR_END: refresh_cache

/// The stack, for one network and one search thread.
pub struct AccumulatorStack {
    hidden: usize,
    /// `plies × 2 × hidden` sums: per ply White's view, then Black's.
    sums: Vec<i16>,
    entries: Vec<Entry>,
    simd: Simd,
    cache: RefreshCache,
    /// Evaluations answered from scratch because the stack did not hold the position.
    pub refreshes: u64,
    /// Views rebuilt through the refresh cache after their king changed bucket or half.
    pub rebuilds: u64,
}

impl AccumulatorStack {
    pub fn new(net: &Network, plies: usize, simd: Simd) -> AccumulatorStack {
        AccumulatorStack {
            hidden: net.hidden,
            sums: vec![0; plies * 2 * net.hidden],
            entries: vec![Entry::default(); plies],
            simd,
            cache: RefreshCache::new(net),
            refreshes: 0,
            rebuilds: 0,
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
        for_each_active(pos, &net.layout, |w, b| {
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
            computed: [true; 2],
            key: pos.hash(),
        };
    }

    /// Starts a search at `root` (ply 0).
    pub fn reset(&mut self, net: &Network, root: &Position) {
        for e in &mut self.entries {
            e.computed = [false; 2];
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
        let changes = Changes::between(parent, child, &net.layout);
        if changes.overflowed() {
            // Not a parent and child: start afresh.
            self.refresh(net, child, next);
            return;
        }
        self.entries[next] = Entry {
            changes,
            computed: [false; 2],
            key: child.hash(),
        };
    }
    // ANCHOR_END: push

    // ANCHOR: current
    /// Brings `ply`'s sums up to date for `pos` and returns them: the side to move's view, then
    /// the opponent's.
    pub fn current(&mut self, net: &Network, pos: &Position, ply: usize) -> (&[i16], &[i16]) {
        // The stack and its cache were made for this net's shape (the evaluator owns both).
        debug_assert!(net.hidden == self.hidden && net.layout.buckets * 2 == self.cache.per_side);
        if ply >= self.entries.len() || self.entries[ply].key != pos.hash() {
            // The stack does not hold this position: compute it in the last entry.
            self.refreshes += 1;
            let last = self.entries.len() - 1;
            self.refresh(net, pos, last);
            self.entries[last].key = 0;
            return self.views(last, pos.side_to_move());
        }
        // The usual case: walk down to the nearest ply where both sides' sums are current,
        // with no king changing bucket on the way, and update both sides ply by ply from there.
        let mut from = ply;
        loop {
            let e = &self.entries[from];
            if e.computed == [true; 2] {
                break;
            }
            if e.computed != [false; 2] || e.changes.rebuild != [false; 2] || from == 0 {
                return self.current_by_side(net, pos, ply);
            }
            from -= 1;
        }
        for p in from + 1..=ply {
            let c = self.entries[p].changes;
            for view in [Color::White, Color::Black] {
                self.update(net, p, view, &c);
            }
            self.entries[p].computed = [true; 2];
        }
        self.views(ply, pos.side_to_move())
    }
    // ANCHOR_END: current

    /// [`Self::current`] side by side, where the two sides differ: a king changed bucket (its
    /// side is rebuilt through the cache, the other updated as usual), or nothing current is
    /// left below (no search reset the stack).
    fn current_by_side(&mut self, net: &Network, pos: &Position, ply: usize) -> (&[i16], &[i16]) {
        let mut from_scratch = false;
        for view in [Color::White, Color::Black] {
            let v = view.index();
            // Down to the nearest ply whose sums are current, or to the move that changed this
            // side's king bucket, after which nothing below is of use.
            let mut from = ply;
            let rebuild = loop {
                let e = &self.entries[from];
                if e.computed[v] {
                    break false;
                }
                if e.changes.rebuild[v] {
                    self.rebuilds += 1;
                    break true;
                }
                if from == 0 {
                    from_scratch = true;
                    break true;
                }
                from -= 1;
            };
            if rebuild {
                let r = self.range(ply, view);
                self.cache
                    .rebuild(net, self.simd, pos, view, &mut self.sums[r]);
                self.entries[ply].computed[v] = true;
                continue;
            }
            for p in from + 1..=ply {
                let c = self.entries[p].changes;
                self.update(net, p, view, &c);
                self.entries[p].computed[v] = true;
            }
        }
        self.refreshes += from_scratch as u64;
        self.views(ply, pos.side_to_move())
    }

    /// `view`'s sums at ply `p` from those at `p - 1` and the changes of the move between.
    #[inline(always)]
    fn update(&mut self, net: &Network, p: usize, view: Color, c: &Changes) {
        let v = view.index();
        let parent = self.range(p - 1, view);
        let start = self.range(p, view).start;
        let (below, above) = self.sums.split_at_mut(start);
        simd::update(
            self.simd,
            &mut above[..self.hidden],
            &below[parent],
            &net.w1,
            &c.added[v][..c.n_added as usize],
            &c.removed[v][..c.n_removed as usize],
        );
    }

    fn views(&self, ply: usize, us: Color) -> (&[i16], &[i16]) {
        (
            &self.sums[self.range(ply, us)],
            &self.sums[self.range(ply, !us)],
        )
    }
}
