//! A small seeded random number generator (SplitMix64), so that a seed means the same thing on
//! every machine and build.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A number in `0..n` (n > 0), by multiply-shift.
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
}

/// SplitMix64's finaliser: a good hash of one word, used to derive independent seeds.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed for item `index` of a run seeded with `seed`.
pub fn derive(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index.wrapping_add(0x632b_e59b_d9b4_e019)))
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
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(rng.sign().abs() == 1);
        }
        assert_ne!(derive(1, 0), derive(1, 1));
        assert_ne!(derive(1, 0), derive(2, 0));
    }
}
