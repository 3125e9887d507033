//! Tukey's outlier labels, as criterion reports them: labelled and counted, never dropped
//! (on a shared machine an outlier is information about the machine).

use serde::{Deserialize, Serialize};

use super::Summary;

/// Tukey's label for one sample relative to its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outlier {
    None,
    MildLow,
    MildHigh,
    SevereLow,
    SevereHigh,
}

impl Outlier {
    /// Labels `value` against fences at 1.5 (mild) and 3 (severe) interquartile ranges.
    pub fn classify(value: f64, summary: &Summary) -> Self {
        Self::against(value, summary.q1, summary.q3)
    }

    fn against(value: f64, q1: f64, q3: f64) -> Self {
        let iqr = q3 - q1;
        let fence = |k: f64| (q1 - k * iqr, q3 + k * iqr);
        let (severe_low, severe_high) = fence(3.0);
        let (mild_low, mild_high) = fence(1.5);
        if value < severe_low {
            Self::SevereLow
        } else if value > severe_high {
            Self::SevereHigh
        } else if value < mild_low {
            Self::MildLow
        } else if value > mild_high {
            Self::MildHigh
        } else {
            Self::None
        }
    }

    pub fn is_outlier(self) -> bool {
        self != Self::None
    }
}

/// How many samples of a group each Tukey label got (the outliers criterion reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlierCounts {
    pub mild_low: usize,
    pub mild_high: usize,
    pub severe_low: usize,
    pub severe_high: usize,
}

impl OutlierCounts {
    pub(super) fn of(samples: &[f64], q1: f64, q3: f64) -> Self {
        let mut counts = Self::default();
        for &value in samples {
            match Outlier::against(value, q1, q3) {
                Outlier::None => {}
                Outlier::MildLow => counts.mild_low += 1,
                Outlier::MildHigh => counts.mild_high += 1,
                Outlier::SevereLow => counts.severe_low += 1,
                Outlier::SevereHigh => counts.severe_high += 1,
            }
        }
        counts
    }

    pub fn total(&self) -> usize {
        self.mild_low + self.mild_high + self.severe_low + self.severe_high
    }

    /// "none", or "2 of 9 (1 mild high, 1 severe high)" for a table cell.
    pub fn describe(&self, samples: usize) -> String {
        if self.total() == 0 {
            return "none".into();
        }
        let parts: Vec<String> = [
            (self.mild_low, "mild low"),
            (self.mild_high, "mild high"),
            (self.severe_low, "severe low"),
            (self.severe_high, "severe high"),
        ]
        .iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, label)| format!("{count} {label}"))
        .collect();
        format!("{} of {samples} ({})", self.total(), parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tukey_labels_outliers_without_dropping_them() {
        let samples = [10.0, 11.0, 12.0, 13.0, 14.0, 100.0];
        let summary = Summary::of(&samples).unwrap();
        let labels: Vec<Outlier> = samples.iter().map(|&x| Outlier::classify(x, &summary)).collect();
        assert_eq!(labels.len(), samples.len());
        assert_eq!(labels[5], Outlier::SevereHigh);
        assert!(labels[..5].iter().all(|label| !label.is_outlier()));
        // q1 = 11.25, q3 = 13.75, iqr = 2.5: 18 is past the mild fence (17.5), not the severe one (21.25).
        assert_eq!(Outlier::classify(18.0, &summary), Outlier::MildHigh);
        assert_eq!(Outlier::classify(2.0, &summary), Outlier::SevereLow);
        assert_eq!(summary.outliers, OutlierCounts { severe_high: 1, ..OutlierCounts::default() });
        assert_eq!(summary.outliers.describe(6), "1 of 6 (1 severe high)");
        assert_eq!(Summary::of(&samples[..5]).unwrap().outliers.describe(5), "none");
    }
}
