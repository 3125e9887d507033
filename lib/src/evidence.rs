//! The one minimum-evidence rule every finding obeys: a claim compares medians, and a
//! median from one or two trials has no interval worth the name (n=1 covers 0%, n=2 50%).
//! Below the rule a finding says "too few trials (n=...)" and claims nothing.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::stats::Summary;

/// Trials a side needs for a claim: with 5 the order-statistic interval (min..max) covers
/// 93.75%, the first count above [`MIN_COVERAGE`].
pub const MIN_TRIALS: usize = 5;
/// Coverage of the median interval that is enough on its own.
pub const MIN_COVERAGE: f64 = 0.90;

/// True when `summary` holds enough trials for a claim: at least [`MIN_TRIALS`], or a
/// median interval covering at least [`MIN_COVERAGE`].
pub fn sufficient(summary: &Summary) -> bool {
    summary.samples >= MIN_TRIALS || summary.median_coverage >= MIN_COVERAGE
}

/// The side with the fewest trials, when any side of a comparison falls below the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooFewTrials {
    pub samples: usize,
}

impl fmt::Display for TooFewTrials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "too few trials (n={}; a claim needs at least {MIN_TRIALS} per case)", self.samples)
    }
}

/// `Err` naming the smallest side when any of `sides` is not [`sufficient`].
pub fn check<'a>(sides: impl IntoIterator<Item = &'a Summary>) -> Result<(), TooFewTrials> {
    let short = sides.into_iter().filter(|side| !sufficient(side)).map(|side| side.samples).min();
    short.map_or(Ok(()), |samples| Err(TooFewTrials { samples }))
}

/// What one case's claim stands on, for the page beside the claim: trials run and planned,
/// the interval's coverage, and whether the time budget cut the trials.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub trials: usize,
    pub trials_planned: usize,
    /// Coverage of the median interval (0..1).
    pub coverage: f64,
    /// The time budget ran out before every planned trial ran.
    pub budget_cut: bool,
    /// The trials meet the minimum-evidence rule.
    pub sufficient: bool,
}

impl Evidence {
    pub fn of(summary: &Summary, trials_planned: u64) -> Self {
        let trials_planned = usize::try_from(trials_planned).unwrap_or(usize::MAX).max(summary.samples);
        Self {
            trials: summary.samples,
            trials_planned,
            coverage: summary.median_coverage,
            budget_cut: summary.samples < trials_planned,
            sufficient: sufficient(summary),
        }
    }

    /// "9 trials, interval covers 96%", "3 of 9 trials (time budget spent), interval covers
    /// 75%, too few for a claim".
    pub fn describe(&self) -> String {
        let trials = if self.budget_cut {
            format!("{} of {} trials (time budget spent)", self.trials, self.trials_planned)
        } else {
            format!("{} trials", self.trials)
        };
        let verdict = if self.sufficient { "" } else { ", too few for a claim" };
        format!("{trials}, interval covers {:.0}%{verdict}", self.coverage * 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary_of(count: usize) -> Summary {
        let samples: Vec<f64> = (0..count).map(|i| 10.0 + i as f64).collect();
        Summary::of(&samples).unwrap()
    }

    #[test]
    fn the_guard_fires_at_one_and_two_trials_and_not_at_nine() {
        assert_eq!(check([&summary_of(1)]), Err(TooFewTrials { samples: 1 }));
        assert_eq!(check([&summary_of(9), &summary_of(2)]), Err(TooFewTrials { samples: 2 }));
        assert_eq!(check([&summary_of(9), &summary_of(9)]), Ok(()));
        assert_eq!(check([&summary_of(4), &summary_of(5)]), Err(TooFewTrials { samples: 4 }));
        assert!(TooFewTrials { samples: 2 }.to_string().starts_with("too few trials (n=2"));
    }

    #[test]
    fn evidence_says_when_the_budget_cut_trials() {
        let cut = Evidence::of(&summary_of(2), 9);
        assert!(cut.budget_cut && !cut.sufficient);
        assert_eq!(cut.describe(), "2 of 9 trials (time budget spent), interval covers 50%, too few for a claim");
        let whole = Evidence::of(&summary_of(9), 9);
        assert!(!whole.budget_cut && whole.sufficient);
        assert_eq!(whole.describe(), "9 trials, interval covers 96%");
    }
}
