//! The sequential probability ratio test: after each game pair, decide between H0 (the change is
//! worth `elo0`) and H1 (it is worth `elo1`), or play on.
//!
//! This is the generalized SPRT that fishtest runs (`LLRcalc.py` in official-stockfish/fishtest):
//! the log-likelihood ratio compares the two best fits of the observed pentanomial distribution
//! under the constraints "the strength difference is elo0" and "it is elo1". In the normalized
//! model (the default, fishtest's and OpenBench's) the constraint is on the t-value
//! `(mean - 1/2) / sd`; in the logistic model on the mean score. The maths is Michel Van den
//! Bergh's: "Normalized Elo: a practical guide" (section 4) and "Maximum likelihood estimation for
//! multinomial distributions with given expectation" (proposition 1.1), both on cantate.be/Fishtest.

use crate::stats::{NELO_PER_T, Pdf, counts_to_pdf, elo_to_score, mean_variance};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    Normalized,
    Logistic,
}

/// The test's design: the two hypotheses and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The probability of accepting H1 when H0 is true (a false positive).
    pub alpha: f64,
    /// The probability of accepting H0 when H1 is true (a false negative).
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    H0,
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

// ANCHOR: bounds
impl Sprt {
    /// Below this LLR, H0 is accepted: `ln(beta / (1 - alpha))`, -2.94 for 5%/5%.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Above this LLR, H1 is accepted: `ln((1 - beta) / alpha)`, 2.94 for 5%/5%.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn llr(&self, counts: &[u64]) -> f64 {
        match self.model {
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, counts),
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, counts),
        }
    }

    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        if llr >= self.upper_bound() {
            Some(Verdict::H1)
        } else if llr <= self.lower_bound() {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}
// ANCHOR_END: bounds

// ANCHOR: llr
/// The LLR of normalized Elo `nelo1` against `nelo0` for trinomial or pentanomial `counts`
/// (fishtest's `LLR_normalized`). A pair's t-value is `sqrt(2)` times a game's, since a pair's
/// score averages two games.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[u64]) -> f64 {
    let per_sample = if counts.len() == 5 { 2f64.sqrt() } else { 1.0 };
    let [t0, t1] = [nelo0, nelo1].map(|nelo| nelo / NELO_PER_T * per_sample);
    llr_with(counts, |pdf| {
        Some((mle_t_value(pdf, 0.5, t0)?, mle_t_value(pdf, 0.5, t1)?))
    })
}

/// The LLR of logistic Elo `elo1` against `elo0` (fishtest's `LLR_logistic`).
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    let [s0, s1] = [elo0, elo1].map(elo_to_score);
    llr_with(counts, |pdf| Some((mle_mean(pdf, s0)?, mle_mean(pdf, s1)?)))
}

/// `N` times the expected log ratio of the two fitted distributions under the observed one. Zero
/// without results, or when a fit does not exist (an observed distribution so lopsided that no
/// distribution on its outcomes has the asked t-value).
fn llr_with(counts: &[u64], fit: impl Fn(&[(f64, f64)]) -> Option<(Pdf, Pdf)>) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let (n, pdf) = counts_to_pdf(counts);
    let Some((h0, h1)) = fit(&pdf) else {
        return 0.0;
    };
    let per_sample: f64 = pdf
        .iter()
        .zip(h0.iter().zip(&h1))
        .map(|((_, p), ((_, p0), (_, p1)))| p * (p1.ln() - p0.ln()))
        .sum();
    n * per_sample
}
// ANCHOR_END: llr

/// The closed-form approximation of the normalized LLR (section 4.2 of "Normalized Elo: a
/// practical guide"; fishtest's `LLR_normalized_alt`). Not used for decisions: the tests compare
/// it with the exact value, which it should follow closely near zero Elo.
pub fn llr_normalized_approx(nelo0: f64, nelo1: f64, counts: &[u64]) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let (n, pdf) = counts_to_pdf(counts);
    let (mean, variance) = mean_variance(&pdf);
    let games_per_sample = if counts.len() == 5 { 2.0 } else { 1.0 };
    let nt = (mean - 0.5) / (games_per_sample * variance).sqrt();
    let [nt0, nt1] = [nelo0, nelo1].map(|nelo| nelo / NELO_PER_T);
    n * games_per_sample / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
}

// ANCHOR: mle
/// The distribution closest (in likelihood) to `observed` whose mean is `s`: each probability is
/// rescaled by `1 / (1 + x (a_i - s))`, with `x` the root of the secular equation.
fn mle_mean(observed: &[(f64, f64)], s: f64) -> Option<Pdf> {
    let shifted: Pdf = observed.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(
        observed
            .iter()
            .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
            .collect(),
    )
}

/// The distribution closest to `observed` whose t-value `(mean - reference) / sd` is `t`. The
/// constraint depends on the distribution's own mean and sd, so the fit is iterated from the
/// uniform distribution until it stops moving (fishtest's `MLE_t_value`).
fn mle_t_value(observed: &[(f64, f64)], reference: f64, t: f64) -> Option<Pdf> {
    let uniform = 1.0 / observed.len() as f64;
    let mut fit: Pdf = observed.iter().map(|&(a, _)| (a, uniform)).collect();
    for _ in 0..100 {
        let (mean, variance) = mean_variance(&fit);
        let sd = variance.sqrt();
        let shifted: Pdf = observed
            .iter()
            .map(|&(a, p)| {
                let z = (mean - a) / sd;
                (a - reference - t * sd * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted)?;
        let next: Pdf = observed
            .iter()
            .zip(&shifted)
            .map(|(&(a, p), &(b, _))| (a, p / (1.0 + x * b)))
            .collect();
        let change = next
            .iter()
            .zip(&fit)
            .map(|((_, p), (_, q))| (p - q).abs())
            .fold(0.0, f64::max);
        fit = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(fit)
}

/// Solves `sum p_i a_i / (1 + x a_i) = 0` for `x`. The left side falls from +inf to -inf between
/// its poles `-1 / max a` and `-1 / min a`, so bisection always finds the one root; there is none
/// unless the `a_i` take both signs.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let min = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let max = pdf
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum() };
    let (mut low, mut high) = (-1.0 / max, -1.0 / min);
    // 200 halvings take any starting width below the spacing of doubles.
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(0.5 * (low + high))
}
// ANCHOR_END: mle

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    const SPRT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };

    #[test]
    fn bounds_by_hand() {
        // ln(0.05 / 0.95) = -ln 19 = -2.944438979...
        assert!(close(SPRT.lower_bound(), -(19f64.ln()), 1e-12));
        assert!(close(SPRT.upper_bound(), 2.944_438_979_166_44, 1e-12));
        assert_eq!(SPRT.verdict(3.0), Some(Verdict::H1));
        assert_eq!(SPRT.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(SPRT.verdict(0.5), None);
    }

    // Reference values: official-stockfish/fishtest, server/fishtest/stats/LLRcalc.py
    // (`LLR_normalized`, `LLR_logistic`, `LLR_normalized_alt`), run in Python 3.11 with scipy's
    // `brentq` replaced by 300 bisection steps and `MLE_t_value` iterated to a change below 1e-14.
    // The first two pentanomials are the examples at the end of fishtest's `stat_util.py`.
    const FISHTEST: [([u64; 5], f64, f64, f64, f64, f64); 5] = [
        // counts, elo0, elo1, normalized LLR, closed-form approximation, logistic LLR
        (
            [10789, 19328, 33806, 19402, 10543],
            0.0,
            5.0,
            -26.838_448_639_804,
            -26.836_615_036_510,
            -38.514_408_473_405,
        ),
        (
            [39, 2226, 31451, 2412, 40],
            0.764,
            3.439,
            2.162_940_869_585,
            2.162_843_458_458,
            -27.865_237_341_031,
        ),
        (
            [100, 1000, 2000, 1100, 120],
            0.0,
            5.0,
            2.536_409_437_266,
            2.537_349_251_051,
            3.249_482_485_968,
        ),
        (
            [20, 300, 700, 250, 10],
            0.0,
            5.0,
            -2.237_000_513_797,
            -2.231_519_799_669,
            -4.866_438_529_015,
        ),
        // An unseen outcome (LL) is regularized to 0.001 of a pair.
        (
            [0, 3, 10, 5, 1],
            0.0,
            5.0,
            0.104_438_461_112,
            0.098_767_847_388,
            0.189_762_757_405,
        ),
    ];

    #[test]
    fn pentanomial_llr_matches_fishtest() {
        for (counts, elo0, elo1, normalized, approx, logistic) in FISHTEST {
            let got = llr_normalized(elo0, elo1, &counts);
            assert!(
                close(got, normalized, 1e-7),
                "{counts:?}: {got} vs {normalized}"
            );
            let got = llr_normalized_approx(elo0, elo1, &counts);
            assert!(close(got, approx, 1e-7), "{counts:?}: {got} vs {approx}");
            let got = llr_logistic(elo0, elo1, &counts);
            assert!(
                close(got, logistic, 1e-7),
                "{counts:?}: {got} vs {logistic}"
            );
        }
    }

    #[test]
    fn trinomial_llr_matches_fishtest() {
        // [L, D, W] = [1500, 4000, 1600], elo0 = 0, elo1 = 5; same reference as above.
        let counts = [1500, 4000, 1600];
        assert!(close(
            llr_normalized(0.0, 5.0, &counts),
            1.442_814_551_458_87,
            1e-7
        ));
        assert!(close(
            llr_logistic(0.0, 5.0, &counts),
            1.612_423_107_851_819,
            1e-7
        ));
    }

    #[test]
    fn llr_basic_properties() {
        assert_eq!(SPRT.llr(&[0, 0, 0, 0, 0]), 0.0);
        // Swapping the hypotheses negates the LLR.
        let counts = [30, 200, 500, 220, 35];
        let forward = llr_normalized(0.0, 5.0, &counts);
        assert!(close(llr_normalized(5.0, 0.0, &counts), -forward, 1e-9));
        // A result right between the hypotheses favours neither much; a clear win favours H1.
        assert!(SPRT.llr(&[10, 100, 300, 120, 15]) > 0.0);
        assert!(SPRT.llr(&[15, 120, 300, 100, 10]) < 0.0);
        // More of the same evidence moves the LLR further.
        let big = counts.map(|c| c * 4);
        assert!(llr_normalized(0.0, 5.0, &big) > forward);
    }

    #[test]
    fn fitted_distribution_has_the_asked_t_value() {
        let (_, pdf) = counts_to_pdf(&[30, 200, 500, 220, 35]);
        let fit = mle_t_value(&pdf, 0.5, 0.05).unwrap();
        let (mean, variance) = mean_variance(&fit);
        assert!(close((mean - 0.5) / variance.sqrt(), 0.05, 1e-9));
        assert!(close(fit.iter().map(|(_, p)| p).sum::<f64>(), 1.0, 1e-9));
        let fit = mle_mean(&pdf, 0.52).unwrap();
        assert!(close(mean_variance(&fit).0, 0.52, 1e-9));
    }
}
