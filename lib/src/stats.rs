//! Statistics over repeated trials: robust centre and spread, an interval for the median,
//! and Tukey outlier labels. Outliers are labelled, never dropped: on a shared machine an
//! outlier is information about the machine.

use serde::{Deserialize, Serialize};

mod outlier;
pub use outlier::{Outlier, OutlierCounts};

/// Summary of one group of samples (e.g. the trials of one stride).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub samples: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub q1: f64,
    pub q3: f64,
    pub iqr: f64,
    /// Distribution-free interval for the median from order statistics.
    pub median_low: f64,
    pub median_high: f64,
    /// The interval's actual coverage (order statistics give discrete levels; with five
    /// samples the best available is min..max at 93.75%).
    pub median_coverage: f64,
    /// Coefficient of variation: sample standard deviation / mean.
    pub cv: f64,
    /// How many samples fall past Tukey's fences (labelled, still counted in every figure).
    pub outliers: OutlierCounts,
}

/// Spread above which a group of trials is flagged as noisy.
pub const HIGH_VARIATION_CV: f64 = 0.10;

impl Summary {
    /// Summarises `samples`; `None` when there are none (or any is not finite).
    pub fn of(samples: &[f64]) -> Option<Self> {
        if samples.is_empty() || samples.iter().any(|value| !value.is_finite()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let q1 = quantile(&sorted, 0.25);
        let q3 = quantile(&sorted, 0.75);
        let (low_index, high_index, coverage) = median_interval_ranks(sorted.len());
        Some(Self {
            samples: sorted.len(),
            median: quantile(&sorted, 0.5),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            q1,
            q3,
            iqr: q3 - q1,
            median_low: sorted[low_index],
            median_high: sorted[high_index],
            median_coverage: coverage,
            cv: coefficient_of_variation(&sorted),
            outliers: OutlierCounts::of(&sorted, q1, q3),
        })
    }

    /// True when the trials spread more than [`HIGH_VARIATION_CV`].
    pub fn is_noisy(&self) -> bool {
        self.cv > HIGH_VARIATION_CV
    }

    /// True when the two median intervals share any value: the data cannot tell them apart.
    pub fn overlaps(&self, other: &Summary) -> bool {
        self.median_low <= other.median_high && other.median_low <= self.median_high
    }
}

/// Linear-interpolation quantile (type 7, as R and numpy default) of sorted data.
pub fn quantile(sorted: &[f64], probability: f64) -> f64 {
    assert!(!sorted.is_empty(), "quantile of no samples");
    let position = probability.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let fraction = position - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * fraction
}

fn coefficient_of_variation(samples: &[f64]) -> f64 {
    if samples.len() < 2 {
        return 0.0;
    }
    let count = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / count;
    if mean == 0.0 {
        return 0.0;
    }
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (count - 1.0);
    variance.sqrt() / mean.abs()
}

/// Zero-based ranks (low, high) of the order statistics bounding a ~95% interval for the
/// median, and the interval's exact coverage. The number of samples below the median is
/// Binomial(n, 1/2); we take the widest symmetric pair whose coverage is still >= 95%,
/// falling back to min..max when even that covers less (n <= 5).
///
/// One pass over the binomial's lower tail, each term from the one before in log space (so
/// 2^-n never has to be formed): O(n) for n samples.
fn median_interval_ranks(count: usize) -> (usize, usize, f64) {
    let mut log_probability = -(count as f64) * std::f64::consts::LN_2;
    let mut tail = log_probability.exp();
    let mut best = (0, count - 1, (1.0 - 2.0 * tail).max(0.0));
    for lower in 1..count / 2 {
        // P(B = k) = P(B = k - 1) x (n - k + 1) / k.
        log_probability += ((count - lower + 1) as f64).ln() - (lower as f64).ln();
        tail += log_probability.exp();
        let coverage = (1.0 - 2.0 * tail).max(0.0);
        if coverage < 0.95 {
            break;
        }
        best = (lower, count - 1 - lower, coverage);
    }
    best
}

/// Ratio of two summarised quantities with a conservative interval: the ratio of the
/// interval ends (low/high .. high/low). An interval that contains 1 means no difference
/// can be claimed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Ratio {
    pub fn between(numerator: &Summary, denominator: &Summary) -> Self {
        Self {
            value: numerator.median / denominator.median,
            low: numerator.median_low / denominator.median_high,
            high: numerator.median_high / denominator.median_low,
        }
    }

    /// True when the whole interval lies above 1 (numerator reliably larger).
    pub fn clearly_above_one(&self) -> bool {
        self.low > 1.0
    }

    /// True when the whole interval lies below 1.
    pub fn clearly_below_one(&self) -> bool {
        self.high < 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_odd_sample() {
        let summary = Summary::of(&[5.0, 1.0, 3.0, 2.0, 4.0]).unwrap();
        assert_eq!(summary.samples, 5);
        assert_eq!(summary.median, 3.0);
        assert_eq!((summary.min, summary.max), (1.0, 5.0));
        assert_eq!((summary.q1, summary.q3, summary.iqr), (2.0, 4.0, 2.0));
        // Five samples: the best order-statistic interval is min..max at 1 - 2/32.
        assert_eq!((summary.median_low, summary.median_high), (1.0, 5.0));
        assert!((summary.median_coverage - 0.9375).abs() < 1e-12);
        // mean 3, sample sd sqrt(2.5)
        assert!((summary.cv - 2.5f64.sqrt() / 3.0).abs() < 1e-12);
    }

    #[test]
    fn median_of_even_sample_interpolates() {
        let summary = Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(summary.median, 2.5);
        assert_eq!(summary.q1, 1.75);
        assert_eq!(summary.q3, 3.25);
    }

    #[test]
    fn median_interval_narrows_with_more_samples() {
        let samples: Vec<f64> = (1..=20).map(f64::from).collect();
        let summary = Summary::of(&samples).unwrap();
        // n = 20: ranks 5 and 14 (zero-based) give 95.86% coverage, the tightest >= 95%.
        assert_eq!((summary.median_low, summary.median_high), (6.0, 15.0));
        assert!(summary.median_coverage >= 0.95 && summary.median_coverage < 0.96);
    }

    #[test]
    fn single_sample_has_zero_spread() {
        let summary = Summary::of(&[7.0]).unwrap();
        assert_eq!((summary.median, summary.iqr, summary.cv), (7.0, 0.0, 0.0));
        assert_eq!((summary.median_low, summary.median_high), (7.0, 7.0));
    }

    #[test]
    fn empty_or_non_finite_samples_have_no_summary() {
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn noisy_flag_follows_cv() {
        assert!(!Summary::of(&[100.0, 101.0, 99.0]).unwrap().is_noisy());
        assert!(Summary::of(&[100.0, 150.0, 60.0]).unwrap().is_noisy());
    }

    #[test]
    fn ratio_interval_and_overlap() {
        let slow = Summary::of(&[40.0, 41.0, 42.0, 43.0, 44.0]).unwrap();
        let fast = Summary::of(&[10.0, 11.0, 12.0, 13.0, 14.0]).unwrap();
        let ratio = Ratio::between(&slow, &fast);
        assert!((ratio.value - 42.0 / 12.0).abs() < 1e-12);
        assert!((ratio.low - 40.0 / 14.0).abs() < 1e-12);
        assert!(ratio.clearly_above_one());
        assert!(!slow.overlaps(&fast));
        let close = Summary::of(&[12.0, 13.0, 14.0, 15.0, 16.0]).unwrap();
        assert!(fast.overlaps(&close));
        assert!(!Ratio::between(&close, &fast).clearly_above_one());
    }

    /// The interval as first written (O(n^3)): the reference the one-pass version must match.
    fn cubic_median_interval_ranks(count: usize) -> (usize, usize, f64) {
        let binomial_half = |successes: usize| {
            let log_choose: f64 = (0..successes).map(|i| ((count - i) as f64).ln() - ((i + 1) as f64).ln()).sum();
            (log_choose - count as f64 * std::f64::consts::LN_2).exp()
        };
        let coverage_between = |lower: usize| (1.0 - 2.0 * (0..=lower).map(binomial_half).sum::<f64>()).max(0.0);
        let mut best = (0, count - 1, coverage_between(0));
        for lower in 1..count / 2 {
            let coverage = coverage_between(lower);
            if coverage < 0.95 {
                break;
            }
            best = (lower, count - 1 - lower, coverage);
        }
        best
    }

    #[test]
    fn one_pass_interval_equals_the_cubic_one_on_small_samples() {
        for count in 1..=200 {
            let (low, high, coverage) = median_interval_ranks(count);
            let (old_low, old_high, old_coverage) = cubic_median_interval_ranks(count);
            assert_eq!((low, high), (old_low, old_high), "n = {count}");
            assert!((coverage - old_coverage).abs() < 1e-9, "n = {count}: {coverage} vs {old_coverage}");
        }
    }

    #[test]
    fn twenty_thousand_samples_get_a_95_percent_interval() {
        let samples: Vec<f64> = (0..20_000).map(f64::from).collect();
        let summary = Summary::of(&samples).unwrap();
        assert!(summary.median_coverage >= 0.95 && summary.median_coverage < 0.96, "{}", summary.median_coverage);
        assert!(summary.median_low < summary.median && summary.median < summary.median_high);
    }
}
