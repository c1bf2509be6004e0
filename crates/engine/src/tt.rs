//! The transposition table: a large hash table of search results, shared by all search threads.
//!
//! Each entry is two 64-bit atomics: the data, and the position's key XORed with the data. A
//! reader accepts an entry only if the two agree with the key it looks for, so an entry torn by
//! two threads writing at once is simply not found (Hyatt and Mann's lockless hashing). Relaxed
//! atomics make this free of undefined behaviour at the cost of nothing on x86.

use chess::Move;
use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

// ANCHOR: tt_entry
/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper,
    /// The true score is at least this (a move reached beta).
    Lower,
    /// The true score.
    Exact,
}

/// One search result, as read back from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Option<Move>,
    /// Adjusted for mate distance from this node (see `score_to_tt`).
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position was once on a principal variation.
    pub tt_pv: bool,
}
// ANCHOR_END: tt_entry

// ANCHOR: pack
// Data word layout: move 16 bits, score 16, static eval 16, depth 8, bound 2, tt_pv 1, age 5.
const AGE_BITS: u32 = 5;
const AGE_CYCLE: u8 = 1 << AGE_BITS;

fn pack(entry: &TtEntry, age: u8) -> u64 {
    let mv = entry.mv.map_or(0, Move::to_bits) as u64;
    let score = entry.score as i16 as u16 as u64;
    let eval = entry.static_eval as i16 as u16 as u64;
    let depth = entry.depth.clamp(0, 255) as u64;
    let bound = match entry.bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    mv | score << 16
        | eval << 32
        | depth << 48
        | bound << 56
        | (entry.tt_pv as u64) << 58
        | (age as u64) << 59
}

/// `None` for an empty slot (bound bits 0).
fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        0 => return None,
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let entry = TtEntry {
        mv: Move::from_bits(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        static_eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32,
        bound,
        tt_pv: (data >> 58) & 1 == 1,
    };
    Some((entry, (data >> 59) as u8))
}
// ANCHOR_END: pack

// ANCHOR: bucket
#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const SLOTS: usize = 4;

/// Four slots in one 64-byte cache line: a probe touches one line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

pub struct TranspositionTable {
    buckets: BucketMemory,
    /// Increases by one per search, so entries from old searches can be told apart and replaced.
    age: AtomicU8,
    /// A search has begun since the table was made or cleared: it may hold entries.
    used: AtomicBool,
}
// ANCHOR_END: bucket

/// The buckets, in zeroed memory that the system hands out lazily.
///
/// The allocator's zeroed allocation is what makes a large table cheap: for a big block it maps
/// fresh pages, which the kernel zeroes only when they are first touched, so `setoption name
/// Hash value 4096` answers at once instead of writing 4 GiB first. But Rust's allocator gives
/// that lazy path only to blocks aligned to at most 16 bytes; a 64-byte-aligned `Box<[Bucket]>`
/// is allocated and then zeroed by a memset (13 s for 4 GiB here). So the block is allocated
/// with 16-byte alignment and one bucket more, and the buckets start at its first 64-byte
/// boundary.
struct BucketMemory {
    raw: NonNull<u8>,
    layout: Layout,
    buckets: NonNull<Bucket>,
    count: usize,
}

// SAFETY: the memory is owned by this value alone, and a Bucket holds only atomics, so sharing
// and sending it between threads is as safe as for `Box<[Bucket]>`.
unsafe impl Send for BucketMemory {}
// SAFETY: as above: shared access only goes through atomics.
unsafe impl Sync for BucketMemory {}

impl BucketMemory {
    /// `count` (>= 1) zeroed buckets; `None` if the system won't give the memory.
    fn zeroed(count: usize) -> Option<BucketMemory> {
        let bytes = count.checked_add(1)?.checked_mul(size_of::<Bucket>())?;
        let layout = Layout::from_size_align(bytes, 16).ok()?;
        // A size the system can't provide fails here (null) and becomes an error message
        // instead of aborting the engine.
        // SAFETY: `layout` has a non-zero size (at least two buckets).
        let raw = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        // The distance to the first 64-byte boundary, from the address itself: always below 64
        // (`align_offset` may answer `usize::MAX` instead of a distance).
        let align = align_of::<Bucket>();
        let offset = (align - raw.as_ptr().addr() % align) % align;
        if offset + count * size_of::<Bucket>() > bytes {
            // Cannot happen (`offset` < 64 and one spare bucket is 64 bytes), but the buckets
            // must lie inside the block whatever the allocator returned.
            // SAFETY: `raw` was allocated just above with `layout`, and is not used again.
            unsafe { dealloc(raw.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset + count` buckets fit in the block (checked just above), so the
        // pointer stays inside the allocation.
        let first = unsafe { raw.add(offset) }.cast::<Bucket>();
        Some(BucketMemory {
            raw,
            layout,
            buckets: first,
            count,
        })
    }
}

impl std::ops::Deref for BucketMemory {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `buckets` is aligned for Bucket and `count` buckets lie inside the block (see
        // `zeroed`); zeroed bytes are valid buckets (all fields are atomics, for which zero is a
        // valid value); the block lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.count) }
    }
}

impl Drop for BucketMemory {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated by the global allocator with `layout`, and only once freed.
        unsafe { dealloc(self.raw.as_ptr(), self.layout) }
    }
}

impl TranspositionTable {
    /// A table of `mib` mebibytes (at least one bucket).
    ///
    /// # Panics
    /// If the memory can't be had; [`TranspositionTable::try_new`] reports that instead.
    pub fn new(mib: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mib) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    // ANCHOR: try_new
    /// A table of `mib` mebibytes, or an error if the system won't give that much memory.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let count = (mib.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1);
        let buckets = BucketMemory::zeroed(count)
            .ok_or_else(|| format!("can't allocate a hash table of {mib} MiB"))?;
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
            used: AtomicBool::new(false),
        })
    }
    // ANCHOR_END: try_new

    pub fn size_mib(&self) -> usize {
        (self.buckets.len() * size_of::<Bucket>()) >> 20
    }

    /// Empties the table in place. Not to be called during a search.
    pub fn clear(&self) {
        self.used.store(false, Ordering::Relaxed);
        self.zero_on_threads(1);
    }

    // ANCHOR: clear_on_threads
    /// Empties the table in place, `threads` slices at once (`ucinewgame`, `Clear Hash`). Clearing
    /// before the game, rather than allocating a fresh table, is what keeps the first searches
    /// fast: a fresh table's pages are only mapped when first written, and on this machine each
    /// first write of a 4 KiB page costs microseconds, so a search into a fresh 64 MiB table ran
    /// at a third of its speed and two threads, faulting together, slower still. Here every page
    /// is written before the clock starts. A table no search has used since it was made is
    /// already empty and is left as it is, so that `setoption name Hash value 4096` followed by
    /// `ucinewgame` still answers at once; its pages are written in its first game, the later
    /// games get them cleared. Where no thread can be started (WebAssembly), the caller's thread
    /// clears it all.
    pub fn clear_on_threads(&self, threads: usize) {
        if self.used.swap(false, Ordering::Relaxed) {
            self.zero_on_threads(threads);
        }
    }

    fn zero_on_threads(&self, threads: usize) {
        fn zero(buckets: &[Bucket]) {
            for slot in buckets.iter().flat_map(|b| b.slots.iter()) {
                slot.data.store(0, Ordering::Relaxed);
                slot.key_xor_data.store(0, Ordering::Relaxed);
            }
        }
        // A slice of at least a mebibyte: more threads than that would cost more to start.
        const SLICE_MIN: usize = (1 << 20) / size_of::<Bucket>();
        let threads = threads.clamp(1, self.buckets.len().div_ceil(SLICE_MIN));
        let slice = self.buckets.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let mut slices = self.buckets.chunks(slice);
            let first = slices.next().unwrap_or_default();
            for part in slices {
                let job = move || zero(part);
                if std::thread::Builder::new()
                    .spawn_scoped(scope, job)
                    .is_err()
                {
                    job();
                }
            }
            zero(first);
        });
        self.age.store(0, Ordering::Relaxed);
    }
    // ANCHOR_END: clear_on_threads

    // ANCHOR: new_search
    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.used.store(true, Ordering::Relaxed);
        let age = (self.age() + 1) % AGE_CYCLE;
        self.age.store(age, Ordering::Relaxed);
    }
    // ANCHOR_END: new_search

    #[inline]
    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    // ANCHOR: index
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }
    // ANCHOR_END: index

    // ANCHOR: prefetch
    /// Hints the processor to fetch the bucket for `key` (before making the move that leads there).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is only a hint and never faults; `ptr` points into `buckets`.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
    // ANCHOR_END: prefetch

    // ANCHOR: probe
    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(entry, _)| entry);
            }
        }
        None
    }
    // ANCHOR_END: probe

    // ANCHOR: store
    /// Stores a search result. The slot chosen is the one already holding this key, else an empty
    /// one, else the one whose entry is least worth keeping (shallow and old).
    pub fn store(&self, key: u64, entry: TtEntry) {
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        let mut old = None;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let Some((stored, age)) = unpack(data) else {
                if victim_worth > i32::MIN {
                    victim = slot;
                    victim_worth = i32::MIN;
                }
                continue;
            };
            if slot.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                victim = slot;
                old = Some(stored);
                break;
            }
            // An entry from an older search is worth less by 8 plies per search since.
            let staleness = (self.age().wrapping_sub(age) % AGE_CYCLE) as i32;
            let worth = stored.depth - 8 * staleness;
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        let mut entry = entry;
        if let Some(old) = old {
            // Keep the old move if the new result has none.
            if entry.mv.is_none() {
                entry.mv = old.mv;
            }
            // A shallower, non-exact result for the same position doesn't replace a deeper one.
            if entry.bound != Bound::Exact && entry.depth + 4 < old.depth {
                return;
            }
        }
        let data = pack(&entry, self.age());
        victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }
    // ANCHOR_END: store

    // ANCHOR: hashfull
    /// How full the table is, in permille, from the first thousand slots: entries of the current
    /// search only, as UCI's `hashfull` intends.
    pub fn hashfull(&self) -> usize {
        let buckets = (1000 / SLOTS).min(self.buckets.len());
        let used: usize = self.buckets[..buckets]
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter(|s| {
                unpack(s.data.load(Ordering::Relaxed)).is_some_and(|(_, age)| age == self.age())
            })
            .count();
        used * 1000 / (buckets * SLOTS)
    }
    // ANCHOR_END: hashfull
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Square;

    fn entry(depth: i32, score: i32) -> TtEntry {
        TtEntry {
            mv: Some(Move::normal(Square::E1, Square::E8)),
            score,
            static_eval: -17,
            depth,
            bound: Bound::Lower,
            tt_pv: true,
        }
    }

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, entry(7, -31_990));
        assert_eq!(tt.probe(42), Some(entry(7, -31_990)));
        assert_eq!(tt.probe(43), None);
        assert_eq!(size_of::<Bucket>(), 64);
    }

    #[test]
    fn the_buckets_are_aligned_zeroed_and_inside_their_block() {
        for count in [1, 2, 3, 17, 1000, 16_384] {
            let memory = BucketMemory::zeroed(count).unwrap();
            assert_eq!(memory.len(), count);
            let start = memory.raw.as_ptr().addr();
            let first = memory.as_ptr().addr();
            assert_eq!(first % 64, 0, "{count} buckets");
            assert!(first >= start && first - start < 64, "{count} buckets");
            let end = first + count * size_of::<Bucket>();
            assert!(end <= start + memory.layout.size(), "{count} buckets");
            // Zeroed, and writable from the first byte to the last.
            for bucket in [&memory[0], &memory[count - 1]] {
                for slot in &bucket.slots {
                    assert_eq!(slot.key_xor_data.load(Ordering::Relaxed), 0);
                    slot.data.store(u64::MAX, Ordering::Relaxed);
                }
            }
        }
    }

    #[test]
    fn clearing_on_threads_empties_every_slice() {
        // 4 MiB: up to four slices of a mebibyte.
        let tt = TranspositionTable::new(4);
        // Keys spread over the whole table, so that each thread's slice holds some of them.
        let keys: Vec<u64> = (1..=20_000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for threads in [1, 3, 7] {
            for &key in &keys {
                tt.store(key, entry(5, 1));
            }
            assert!(tt.hashfull() > 0);
            tt.new_search();
            tt.clear_on_threads(threads);
            assert!(
                keys.iter().all(|&key| tt.probe(key).is_none()),
                "{threads} threads"
            );
            assert_eq!((tt.hashfull(), tt.age()), (0, 0));
        }
    }

    #[test]
    fn pack_round_trips_every_field() {
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            let e = TtEntry {
                bound,
                mv: None,
                tt_pv: false,
                ..entry(255, 32_000)
            };
            assert_eq!(unpack(pack(&e, 31)), Some((e, 31)));
        }
    }

    #[test]
    fn full_bucket_replaces_the_least_worth_keeping() {
        let tt = TranspositionTable::new(0);
        assert_eq!(tt.buckets.len(), 1);
        for key in 1..=4u64 {
            tt.store(key, entry(10 + key as i32, 0));
        }
        tt.new_search();
        tt.store(5, entry(1, 0));
        // Key 1 had the shallowest entry: it went.
        assert_eq!(tt.probe(1), None);
        assert!(tt.probe(5).is_some() && tt.probe(4).is_some());
        assert_eq!(tt.hashfull(), 250);
    }

    #[test]
    fn same_key_keeps_deeper_entry_and_old_move() {
        let tt = TranspositionTable::new(1);
        tt.store(9, entry(20, 5));
        tt.store(
            9,
            TtEntry {
                mv: None,
                ..entry(2, 6)
            },
        );
        assert_eq!(tt.probe(9).map(|e| e.depth), Some(20));
        tt.store(
            9,
            TtEntry {
                mv: None,
                ..entry(18, 7)
            },
        );
        let e = tt.probe(9).unwrap();
        assert_eq!((e.depth, e.score, e.mv), (18, 7, entry(0, 0).mv));
    }
}
