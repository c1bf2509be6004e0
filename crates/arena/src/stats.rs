//! What a match's results say about the difference in strength: score, Elo with a 95% interval
//! in the logistic and the normalized model, and the likelihood of superiority.
//!
//! Results are counts of outcomes whose scores are spaced evenly from 0 to 1: `[L, D, W]` for
//! single games (trinomial) or `[LL, LD, DD+WL, WD, WW]` for game pairs (pentanomial), always from
//! the first engine's side. The pentanomial is the one to use when openings are played in pairs:
//! the two games of a pair share an opening, so they are not independent, and treating them as
//! such overstates the variance.

// ANCHOR: elo
/// The 97.5% quantile of the standard normal law: a 95% interval is ±1.96 standard errors.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value, `800 / ln 10` (Van den Bergh, "Normalized Elo"): with it a
/// normalized Elo difference matches the logistic one for a match without draws near 50%.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The logistic Elo difference that gives an expected score `score`. Scores of 0 and 1 would give
/// infinities, so the score is kept within 0.1% of them, as fishtest does.
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a side that is `elo` logistic Elo stronger.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}
// ANCHOR_END: elo

/// A discrete distribution: (score, probability) pairs, scores ascending.
pub type Pdf = Vec<(f64, f64)>;

/// The mean and variance of a distribution.
pub fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let variance = pdf.iter().map(|(a, p)| p * (a - mean) * (a - mean)).sum();
    (mean, variance)
}

/// The empirical distribution of `counts` and the number of samples. An outcome never seen is
/// counted as 0.001 of a sample (fishtest's `regularize`): the maximum-likelihood fits behind the
/// LLR need every outcome to have some probability, and a perfect score needs a finite variance.
pub fn counts_to_pdf(counts: &[u64]) -> (f64, Pdf) {
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = regularized.iter().sum();
    let step = (counts.len().max(2) - 1) as f64;
    let pdf = regularized
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64 / step, c / n))
        .collect();
    (n, pdf)
}

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Half the width: what is written as `value ± error`.
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// What a set of results says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean score per game, 0 to 1.
    pub score: f64,
    pub elo: Interval,
    pub nelo: Interval,
    /// Likelihood of superiority: the probability that the first engine is the stronger.
    pub los: f64,
}

// ANCHOR: estimate
/// Elo, normalized Elo and LOS from trinomial or pentanomial counts; `None` without results.
///
/// The interval is the normal approximation around the mean score, `mean ± 1.96 sd / sqrt(N)`,
/// mapped through the Elo formula, as fishtest's `get_elo` computes it. Normalized Elo divides the
/// score's excess over 50% by the per-game standard deviation (for pairs, `sqrt(2)` times the
/// pair's), which makes it a t-value per game: how hard the difference is to detect.
pub fn estimate(counts: &[u64]) -> Option<Estimate> {
    if counts.len() < 2 || counts.iter().sum::<u64>() == 0 {
        return None;
    }
    let (n, pdf) = counts_to_pdf(counts);
    let (mean, variance) = mean_variance(&pdf);
    let games_per_sample = ((counts.len() - 1) / 2).max(1) as f64;
    let se = (variance / n).sqrt();
    let sigma_per_game = (variance * games_per_sample).sqrt();
    let (low, high) = (mean - Z_95 * se, mean + Z_95 * se);
    let nelo = |s: f64| (s - 0.5) / sigma_per_game * NELO_PER_T;
    Some(Estimate {
        score: mean,
        elo: Interval {
            value: score_to_elo(mean),
            low: score_to_elo(low),
            high: score_to_elo(high),
        },
        nelo: Interval {
            value: nelo(mean),
            low: nelo(low),
            high: nelo(high),
        },
        los: normal_cdf((mean - 0.5) / se),
    })
}
// ANCHOR_END: estimate

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, with a fractional error below 1.2e-7 everywhere (the
/// Chebyshev fit of Numerical Recipes, `erfcc`); plenty for a percentage printed with one decimal.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_from_score_by_hand() {
        // 75% is odds of 3:1, so 400 log10(3) = 190.848...; 50% is 0; the formula is odd.
        assert!(close(score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-12));
        assert!(close(score_to_elo(0.75), 190.848_501_887_865, 1e-9));
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!(close(score_to_elo(0.25), -score_to_elo(0.75), 1e-12));
        // Odds of 10:1 are exactly 400 Elo.
        assert!(close(score_to_elo(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-12));
        // A perfect score is clamped to 99.9% (fishtest's epsilon) instead of infinity.
        assert!(close(score_to_elo(1.0), 400.0 * 999f64.log10(), 1e-9));
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 10 losses, 20 draws, 30 wins out of 60 games:
        //   mean = (20 * 0.5 + 30) / 60 = 2/3
        //   var  = (10 (2/3)^2 + 20 (1/6)^2 + 30 (1/3)^2) / 60 = (25/6) / 30 = 5/36
        //   se   = sqrt(5/36 / 60) = 0.048112522...
        let e = estimate(&[10, 20, 30]).unwrap();
        let mean = 2.0 / 3.0;
        let se = (5.0f64 / 36.0 / 60.0).sqrt();
        assert!(close(se, 0.048_112_522_432_469, 1e-12));
        assert!(close(e.score, mean, 1e-12));
        assert!(close(e.elo.value, 400.0 * 2f64.log10(), 1e-9)); // odds 2:1 = 120.41 Elo
        assert!(close(e.elo.low, score_to_elo(mean - 1.959_964 * se), 1e-3));
        assert!(close(e.elo.high, score_to_elo(mean + 1.959_964 * se), 1e-3));
        // mean ± 1.96 se = 0.572368 and 0.760965; -400 log10(1/s - 1) of those, on a calculator:
        assert!(close(e.elo.low, 50.642, 0.001), "{}", e.elo.low);
        assert!(close(e.elo.high, 201.162, 0.001), "{}", e.elo.high);
        // Normalized Elo: (2/3 - 1/2) / sqrt(5/36) * 800 / ln 10 = 155.378...
        assert!(close(
            e.nelo.value,
            (1.0 / 6.0) / (5.0f64 / 36.0).sqrt() * NELO_PER_T,
            1e-9
        ));
        assert!(close(e.nelo.value, 155.378, 1e-3), "{}", e.nelo.value);
        // LOS = Phi((2/3 - 1/2) / se) = Phi(3.4641) = 0.99973
        assert!(close(e.los, 0.999_734, 1e-5), "{}", e.los);
    }

    #[test]
    fn pentanomial_interval_by_hand() {
        // 1 LL, 2 LD, 4 DD/WL, 2 WD, 1 WW: symmetric, so the mean is exactly 1/2 and Elo 0.
        //   var per pair = (2 (1/2)^2 + 4 (1/4)^2) / 10 = 0.075; per game, twice that.
        let e = estimate(&[1, 2, 4, 2, 1]).unwrap();
        assert!(close(e.score, 0.5, 1e-12));
        assert!(close(e.elo.value, 0.0, 1e-9));
        let se = (0.075f64 / 10.0).sqrt();
        assert!(close(e.elo.high, score_to_elo(0.5 + Z_95 * se), 1e-9));
        assert!(close(e.elo.high, -e.elo.low, 1e-9));
        // The normalized interval: ±1.96 se / sqrt(2 var) * 800 / ln 10 = ±1.96 / sqrt(20) * 347.4
        assert!(close(e.nelo.high, Z_95 / 20f64.sqrt() * NELO_PER_T, 1e-9));
        assert!(close(e.los, 0.5, 1e-7));
    }

    #[test]
    fn pairs_are_narrower_than_games_when_they_correlate() {
        // The same 20 games seen as 10 pairs where every pair is one win and one loss (the
        // opening decides) are better evidence of equality than 10 wins and 10 losses apart.
        let games = estimate(&[10, 0, 10]).unwrap();
        let pairs = estimate(&[0, 0, 10, 0, 0]).unwrap();
        assert!(pairs.elo.error() < games.elo.error());
    }

    #[test]
    fn normal_cdf_known_values() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(Z_95), 0.975, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_254, 1e-7));
        assert!(close(normal_cdf(3.0), 0.998_650_102, 1e-7));
    }

    #[test]
    fn no_results_no_estimate() {
        assert_eq!(estimate(&[0, 0, 0]), None);
        assert_eq!(estimate(&[]), None);
    }
}
