//! A small seeded random number generator (SplitMix64): the same seed gives the same sequence on
//! every machine and build, which a library's default generator does not promise. The Zobrist
//! keys, arena's opening order and the tuner's self-play all draw from it.

/// SplitMix64's finaliser: a good hash of one word.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64's step.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The next number of the sequence whose state is `state` (usable in `const` code).
#[inline]
pub const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    mix(*state)
}

/// A seed for item `index` of a run seeded with `seed`.
pub fn derive(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index.wrapping_add(0x632b_e59b_d9b4_e019)))
}

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        splitmix(&mut self.0)
    }

    /// A number in `0..n` (n > 0), by multiply-shift; its bias is below 2^-32 for any n that
    /// fits in 32 bits.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `+1` or `-1`, evenly.
    pub fn sign(&mut self) -> i32 {
        if self.next_u64() >> 63 == 0 { 1 } else { -1 }
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_and_ranges() {
        // SplitMix64's first output for seed 0 (Vigna's reference implementation).
        assert_eq!(Rng::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        let mut rng = Rng::new(5);
        for _ in 0..1000 {
            assert!(rng.below(7) < 7);
            assert!((0.0..1.0).contains(&rng.unit()));
            assert!(rng.sign().abs() == 1);
        }
        assert_ne!(derive(1, 0), derive(1, 1));
        assert_ne!(derive(1, 0), derive(2, 0));
        let mut a: Vec<u32> = (0..100).collect();
        let mut b = a.clone();
        Rng::new(7).shuffle(&mut a);
        Rng::new(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<u32>>());
        assert_ne!(a, sorted);
    }
}
