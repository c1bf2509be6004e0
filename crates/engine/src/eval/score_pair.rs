//! `S`: a middlegame and an endgame value packed into one integer, so that every evaluation term
//! adds both with a single addition.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

// ANCHOR: packed
/// A (middlegame, endgame) pair: the endgame value in the low 16 bits, the middlegame value in
/// the high 16 bits, so that `S(a, b) + S(c, d) == S(a + c, b + d)` is one integer addition.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct S(i32);

impl S {
    pub const ZERO: S = S(0);

    #[inline]
    pub const fn new(mg: i32, eg: i32) -> S {
        S((mg << 16).wrapping_add(eg))
    }

    /// The middlegame half. Adding 0x8000 first undoes the borrow a negative endgame half took.
    #[inline]
    pub const fn mg(self) -> i32 {
        (self.0.wrapping_add(0x8000)) >> 16
    }

    #[inline]
    pub const fn eg(self) -> i32 {
        self.0 as i16 as i32
    }
}
// ANCHOR_END: packed

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0.wrapping_sub(o.0))
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0.wrapping_mul(k))
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl std::fmt::Debug for S {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_survive_arithmetic() {
        for (a, b) in [
            (0, 0),
            (5, -7),
            (-300, 12),
            (-1, -1),
            (1000, -2000),
            (-12000, 11000),
        ] {
            let s = S::new(a, b);
            assert_eq!((s.mg(), s.eg()), (a, b));
            let t = S::new(b / 2, a / 3);
            assert_eq!(((s + t).mg(), (s + t).eg()), (a + b / 2, b + a / 3));
            assert_eq!(((s - t).mg(), (s - t).eg()), (a - b / 2, b - a / 3));
            assert_eq!(((-s).mg(), (-s).eg()), (-a, -b));
        }
        let s = S::new(-3, 5) * 7;
        assert_eq!((s.mg(), s.eg()), (-21, 35));
    }
}
