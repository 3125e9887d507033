//! The one rule every status of the lab follows: the headline table, the claims table, the
//! locks section, the summary and the room all judge a figure against an article's here.
//!
//! A figure is judged by its interval, never by its median alone:
//!
//! - an **effect** (a ratio the article reports above 1: slower, faster, more) is
//!   *reproduced* when its interval reaches the article's figure or range; *same direction,
//!   smaller* or *larger* when it lies beyond 1 but short of or past it; *differs* when it
//!   lies wholly below 1; *not beyond the noise* when it includes 1;
//! - an **absolute figure** (nanoseconds, cycles per second, a share) is reproduced when its
//!   interval overlaps the article's range and differs when it lies clearly outside;
//! - a **no change** claim is reproduced only when the interval lies inside a stated
//!   equivalence bound (absence of evidence is not evidence of absence);
//! - a claim whose setting had more threads than this machine has CPUs is never called
//!   reproduced: it *needs N cores*, its figure at this machine's threads still shown;
//! - a figure the lab set up itself (an input, a config, arithmetic) is *set up, not
//!   measured*, and is never counted as evidence.

use std::fmt;

use serde::Serialize;

use crate::stats::Ratio;

/// How a machine's figure stands against the article's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status", content = "cores")]
pub enum Status {
    /// The interval reaches the article's figure or range.
    Reproduced,
    /// Beyond the noise in the article's direction, short of its figure.
    Smaller,
    /// Beyond the noise in the article's direction, past its figure.
    Larger,
    /// Clearly the other way, or an absolute figure clearly outside the article's range.
    Differs,
    /// The interval includes no difference (or reaches past an equivalence bound), or too
    /// few trials.
    NotBeyondNoise,
    /// The claim's setting had this many threads, more than this machine has CPUs.
    NeedsCores(u64),
    /// The figure is the lab's own input, config or arithmetic.
    SetUp,
    /// This machine or the lab cannot measure it (the why says which).
    NotMeasurable,
    /// The experiment (or the part of it) that answers it did not run.
    NotInRun,
}

impl Status {
    /// Every status, in the order a tally and the legend list them.
    pub const ALL: [Status; 9] = [
        Status::Reproduced,
        Status::Smaller,
        Status::Larger,
        Status::Differs,
        Status::NotBeyondNoise,
        Status::NeedsCores(0),
        Status::SetUp,
        Status::NotMeasurable,
        Status::NotInRun,
    ];

    /// "reproduced", "same direction, smaller", "needs 8 cores", ...
    pub fn label(self) -> String {
        match self {
            Status::NeedsCores(cores) => format!("needs {cores} cores"),
            other => other.kind().to_string(),
        }
    }

    /// The status without its number: what a tally counts by.
    pub fn kind(self) -> &'static str {
        match self {
            Status::Reproduced => "reproduced",
            Status::Smaller => "same direction, smaller",
            Status::Larger => "same direction, larger",
            Status::Differs => "differs",
            Status::NotBeyondNoise => "not beyond the noise",
            Status::NeedsCores(_) => "needs more cores",
            Status::SetUp => "set up, not measured",
            Status::NotMeasurable => "not measurable here",
            Status::NotInRun => "not in this run",
        }
    }

    /// The same kind of status, whatever its number.
    pub fn same_kind(self, other: Status) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

/// The statuses explained, once for every page that shows them.
pub const LEGEND: &str = "Reproduced: this machine's interval reaches the article's figure or range. Same direction, \
     smaller; same direction, larger: beyond the noise the article's way, but short of or past its figure. Differs: clearly the \
     other way, or an absolute figure clearly outside the article's range. Not beyond the noise: the interval \
     includes no difference (or, for a claim of no change, reaches past its bound), or too few trials. Needs N \
     cores: the article's setting had N threads, more than this machine has CPUs; the figure at this machine's \
     threads is shown and never called reproduced. Set up, not measured: the figure is the lab's own input, config \
     or arithmetic, never evidence. Not measurable here: the machine or the lab cannot measure it, and the row says \
     why. Not in this run: the experiment that answers it did not run.";

/// A status and why, where the status needs a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub status: Status,
    pub why: String,
}

/// The article's figure or range, in the unit the lab compares in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    pub low: f64,
    pub high: f64,
}

impl Target {
    pub fn point(value: f64) -> Self {
        Self { low: value, high: value }
    }

    pub fn range(low: f64, high: f64) -> Self {
        Self { low: low.min(high), high: low.max(high) }
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

    /// An effect the article reports as a ratio above 1, against `target`.
    pub fn effect(measured: &Ratio, target: Target) -> Self {
        if !(measured.low.is_finite() && measured.high.is_finite()) {
            Self::new(Status::NotBeyondNoise, "the interval has no end")
        } else if measured.clearly_below_one() {
            Self::new(Status::Differs, "a clear effect the other way")
        } else if !measured.clearly_above_one() {
            Self::new(Status::NotBeyondNoise, "the interval includes no difference")
        } else if measured.high < target.low {
            Self::new(Status::Smaller, format!("short of the article's {}", target.ratio_text()))
        } else if measured.low > target.high {
            Self::new(Status::Larger, format!("past the article's {}", target.ratio_text()))
        } else {
            Self::new(Status::Reproduced, "")
        }
    }

    /// An absolute figure with its interval (`low`..`high`) against the article's range.
    pub fn figure(low: f64, high: f64, target: Target) -> Self {
        if !(low.is_finite() && high.is_finite()) {
            Self::new(Status::NotBeyondNoise, "the interval has no end")
        } else if high < target.low {
            Self::new(Status::Differs, "below the article's")
        } else if low > target.high {
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
    /// a figure is never called reproduced, and one within the noise says what it needs;
    /// a clear miss or a clear effect the other way stays as measured, with the setting said.
    pub fn at_setting(self, setting: u64, cpus: u64) -> Self {
        if cpus >= setting {
            return self;
        }
        let context = format!("{cpus} CPUs against the article's {setting} threads");
        match self.status {
            Status::Reproduced | Status::NotBeyondNoise => Self::new(
                Status::NeedsCores(setting),
                if self.why.is_empty() { context } else { format!("{}, on {context}", self.why) },
            ),
            Status::Smaller | Status::Larger | Status::Differs => {
                let why = if self.why.is_empty() { context } else { format!("{}, on {context}", self.why) };
                Self::new(self.status, why)
            }
            _ => self,
        }
    }
}

/// "5 reproduced, 11 same direction, smaller, 4 differ, ..." over `statuses` (a count per
/// kind, in [`Status::ALL`] order, kinds with none left out).
pub fn tally(statuses: &[Status]) -> String {
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|&kind| (kind, statuses.iter().filter(|status| status.same_kind(kind)).count()))
        .filter(|&(_, count)| count > 0)
        .map(|(kind, count)| match kind {
            Status::Differs => format!("{count} differ"),
            Status::NeedsCores(_) => format!("{count} need more cores"),
            _ => format!("{count} {}", kind.kind()),
        })
        .collect();
    counts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(low: f64, high: f64) -> Ratio {
        Ratio { value: (low + high) / 2.0, low, high }
    }

    #[test]
    fn an_effect_is_reproduced_only_where_its_interval_reaches_the_figure() {
        let article = Target::point(13.7);
        assert_eq!(Judgement::effect(&ratio(10.0, 15.0), article).status, Status::Reproduced);
        let short = Judgement::effect(&ratio(1.05, 4.05), article);
        assert_eq!(short.to_string(), "same direction, smaller: short of the article's 13.70x");
        assert_eq!(Judgement::effect(&ratio(20.0, 30.0), article).status, Status::Larger);
        assert_eq!(Judgement::effect(&ratio(0.5, 0.9), article).status, Status::Differs);
        assert_eq!(Judgement::effect(&ratio(0.9, 1.3), article).status, Status::NotBeyondNoise);
        assert_eq!(Judgement::effect(&ratio(1.2, f64::INFINITY), article).status, Status::NotBeyondNoise);
        let range = Target::range(3.0, 7.0);
        assert_eq!(Judgement::effect(&ratio(4.34, 35.2), range).status, Status::Reproduced, "overlaps 3-7");
        assert_eq!(
            Judgement::effect(&ratio(8.0, 35.2), range).to_string(),
            "same direction, larger: past the article's 3.00x–7.00x"
        );
    }

    #[test]
    fn a_figure_is_judged_against_the_range_and_no_change_against_its_bound() {
        let range = Target::range(80.0, 120.0);
        assert_eq!(Judgement::figure(85.0, 95.0, range).status, Status::Reproduced);
        assert_eq!(Judgement::figure(10.0, 20.0, range), Judgement::new(Status::Differs, "below the article's"));
        assert_eq!(Judgement::figure(130.0, 140.0, range).why, "above the article's");
        assert_eq!(Judgement::figure(400.0, 500.0, Target::range(300.0, f64::INFINITY)).status, Status::Reproduced);
        assert_eq!(Judgement::no_change(&ratio(0.95, 1.08), 0.1).status, Status::Reproduced);
        assert_eq!(Judgement::no_change(&ratio(1.2, 1.5), 0.1).status, Status::Differs);
        assert_eq!(Judgement::no_change(&ratio(0.78, 2.31), 0.1).status, Status::NotBeyondNoise, "wide is not none");
    }

    #[test]
    fn fewer_cpus_than_the_setting_never_reproduce() {
        let reached = Judgement::new(Status::Reproduced, "");
        assert_eq!(
            reached.clone().at_setting(8, 2),
            Judgement::new(Status::NeedsCores(8), "2 CPUs against the article's 8 threads")
        );
        assert_eq!(reached.clone().at_setting(8, 8), reached);
        let noise = Judgement::effect(&ratio(0.9, 1.2), Target::point(1.81)).at_setting(8, 2);
        assert_eq!(noise.status, Status::NeedsCores(8));
        let smaller = Judgement::effect(&ratio(1.05, 4.05), Target::point(13.7)).at_setting(8, 2);
        assert_eq!(
            smaller.to_string(),
            "same direction, smaller: short of the article's 13.70x, on 2 CPUs against the article's 8 threads"
        );
        let other_way = Judgement::effect(&ratio(0.58, 0.88), Target::point(8.51)).at_setting(48, 2);
        assert_eq!(other_way.status, Status::Differs);
        assert_eq!(Judgement::new(Status::SetUp, "an input").at_setting(8, 2).status, Status::SetUp);
    }

    #[test]
    fn the_tally_counts_each_kind_and_reproduced_only_once() {
        let statuses = [
            Status::Reproduced,
            Status::Smaller,
            Status::Smaller,
            Status::Differs,
            Status::NeedsCores(8),
            Status::NeedsCores(48),
            Status::SetUp,
        ];
        assert_eq!(
            tally(&statuses),
            "1 reproduced, 2 same direction, smaller, 1 differ, 2 need more cores, 1 set up, not measured"
        );
        assert_eq!(Status::NeedsCores(16).label(), "needs 16 cores");
        assert!(Status::ALL
            .iter()
            .all(|status| LEGEND.to_lowercase().contains(&status.kind().replace("needs more cores", "needs n cores"))));
    }
}
