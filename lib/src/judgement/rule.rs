//! The rule for one figure: its interval against the article's figure, held to the
//! precision the article printed it to ([`super`] states the rule whole).

use std::fmt;

use serde::Serialize;

use super::Status;
use crate::stats::Ratio;

/// The widest a ratio's interval may span (high over low) and still be called reproduced or
/// differs: past it the ratio is too noisy to tell.
pub const MAX_RATIO_SPAN: f64 = 2.0;

/// A status and why, where the status needs a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub status: Status,
    pub why: String,
}

/// The article's figure or range, in the unit the lab compares in, and how far either end
/// reaches for the precision it was printed to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    pub low: f64,
    pub high: f64,
    /// Half a unit of the printed figure's last digit (0 for a figure the lab computed).
    pub precision: f64,
}

/// Half a unit of the last digit `printed` shows: "1.7" gives 0.05, "13.70" 0.005, "64"
/// 0.5; `None` for text that is not a plain decimal number.
pub fn half_unit(printed: &str) -> Option<f64> {
    let printed = printed.trim();
    printed.parse::<f64>().ok().filter(|value| value.is_finite())?;
    if printed.contains(['e', 'E']) {
        return None;
    }
    let decimals = printed.split_once('.').map_or(0, |(_, fraction)| fraction.len());
    Some(0.5 * crate::scale::decade(-(decimals as i32)))
}

impl Target {
    pub fn point(value: f64) -> Self {
        Self { low: value, high: value, precision: 0.0 }
    }

    pub fn range(low: f64, high: f64) -> Self {
        Self { low: low.min(high), high: low.max(high), precision: 0.0 }
    }

    /// The same figure, each end reaching `precision` further (see [`half_unit`]).
    pub fn printed_to(self, precision: f64) -> Self {
        Self { precision: precision.max(0.0), ..self }
    }

    /// The lowest value that reaches the figure.
    pub fn reach_low(self) -> f64 {
        self.low - self.precision
    }

    /// The highest value that reaches the figure.
    pub fn reach_high(self) -> f64 {
        self.high + self.precision
    }

    /// "8.51x", "3x–7x" for an effect.
    fn ratio_text(self) -> String {
        if self.low == self.high {
            crate::format::ratio(self.low)
        } else {
            crate::format::ratio_interval(self.low, self.high)
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.why.is_empty() {
            write!(f, "{}", self.status.label())
        } else {
            write!(f, "{}: {}", self.status.label(), self.why)
        }
    }
}

impl Judgement {
    pub fn new(status: Status, why: impl Into<String>) -> Self {
        Self { status, why: why.into() }
    }

    /// Too few trials for any claim (the minimum-evidence rule, [`crate::evidence`]).
    pub fn too_few_trials() -> Self {
        Self::new(Status::NotBeyondNoise, "too few trials")
    }

    /// An effect the article reports as a ratio above 1, against `target`; one whose
    /// interval spans past [`MAX_RATIO_SPAN`] is never reproduced nor differs.
    pub fn effect(measured: &Ratio, target: Target) -> Self {
        if !(measured.low.is_finite() && measured.high.is_finite()) {
            return Self::new(Status::NotBeyondNoise, "the interval has no end");
        }
        let judged = if measured.clearly_below_one() {
            Self::new(Status::Differs, "a clear effect the other way")
        } else if !measured.clearly_above_one() {
            Self::new(Status::NotBeyondNoise, "the interval includes no difference")
        } else if measured.high < target.reach_low() {
            Self::new(Status::Smaller, format!("short of the article's {}", target.ratio_text()))
        } else if measured.low > target.reach_high() {
            Self::new(Status::Larger, format!("past the article's {}", target.ratio_text()))
        } else {
            Self::new(Status::Reproduced, "")
        };
        let span = if measured.low > 0.0 { measured.high / measured.low } else { f64::INFINITY };
        match judged.status {
            Status::Reproduced | Status::Differs if span > MAX_RATIO_SPAN => Self::new(
                Status::TooNoisy,
                format!(
                    "the interval spans {} (high over low), wider than the {} a ratio may",
                    crate::format::ratio(span),
                    crate::format::ratio(MAX_RATIO_SPAN)
                ),
            ),
            _ => judged,
        }
    }

    /// An absolute figure with its interval (`low`..`high`) against the article's range.
    pub fn figure(low: f64, high: f64, target: Target) -> Self {
        if !(low.is_finite() && high.is_finite()) {
            Self::new(Status::NotBeyondNoise, "the interval has no end")
        } else if high < target.reach_low() {
            Self::new(Status::Differs, "below the article's")
        } else if low > target.reach_high() {
            Self::new(Status::Differs, "above the article's")
        } else {
            Self::new(Status::Reproduced, "")
        }
    }

    /// A claim that something changed nothing: reproduced only when the ratio's interval lies
    /// inside 1 ± `bound` (0.1: within 10%), differs when it lies wholly outside.
    pub fn no_change(measured: &Ratio, bound: f64) -> Self {
        let (low, high) = (1.0 - bound, 1.0 + bound);
        let percent = crate::format::percent(bound);
        if measured.low >= low && measured.high <= high {
            Self::new(Status::Reproduced, format!("within ±{percent}"))
        } else if measured.low > high || measured.high < low {
            Self::new(Status::Differs, format!("changed by more than {percent}"))
        } else {
            Self::new(
                Status::NotBeyondNoise,
                format!("the interval reaches past ±{percent}: too wide to say no change"),
            )
        }
    }

    /// The claim's setting had `setting` threads and this machine has `cpus`: with fewer CPUs
    /// every measured status *needs N cores*, decided by the CPU count alone (never by the
    /// interval), and how the figure read at this machine's threads is kept in the why.
    pub fn at_setting(self, setting: u64, cpus: u64) -> Self {
        if cpus >= setting || !(self.status.is_measured() || self.status.same_kind(Status::NeedsCores(0))) {
            return self;
        }
        let context = format!("{cpus} CPUs against the article's {setting} threads");
        let reading = match self.status {
            Status::NeedsCores(_) if self.why.is_empty() => String::new(),
            Status::NeedsCores(_) => format!("{}, ", self.why),
            _ => format!("{self}, "),
        };
        Self::new(Status::NeedsCores(setting), format!("{reading}on {context}"))
    }
}
