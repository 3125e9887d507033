//! The one rule every status of the lab follows: the headline table, the claims table, the
//! locks section, the summary and the room all judge a figure against an article's here.
//!
//! A figure is judged by its interval, never by its median alone:
//!
//! - the article's figure is held to the **precision it was printed to**: each end widened by
//!   half a unit of its last printed digit ([`half_unit`]: "1.7 ms" reaches from 1.65 to
//!   1.75 ms, "13.7x" from 13.65x to 13.75x, "3-7x" from 2.5x to 7.5x);
//! - an **effect** (a ratio the article reports above 1: slower, faster, more) is
//!   *reproduced* when its interval reaches the article's figure or range; *same direction,
//!   smaller* or *larger* when it lies beyond 1 but short of or past it; *differs* when it
//!   lies wholly below 1; *not beyond the noise* when it includes 1;
//! - a ratio whose interval spans more than [`MAX_RATIO_SPAN`] (high over low) is never
//!   called reproduced nor differs: it is *too noisy to tell*, the span named;
//! - an **absolute figure** (nanoseconds, cycles per second, a share) is reproduced when its
//!   interval overlaps the article's range and differs when it lies clearly outside;
//! - a **no change** claim is reproduced only when the interval lies inside a stated
//!   equivalence bound (absence of evidence is not evidence of absence);
//! - a claim whose setting had more threads than this machine has CPUs *needs N cores*,
//!   whatever its interval: the CPU count decides, the figure and its reading still shown;
//! - a figure the lab set up itself (an input, a config, arithmetic) is *set up, not
//!   measured*, and is never counted as evidence;
//! - a measured status that fewer than [`MIN_SETTLED_SHARE`] of the bootstrap's resamples of
//!   the run's own trials give again is *unsettled*, each status's share named, and is
//!   counted apart from the others (the presentation's claims, a layer above, resample the trials).

mod rule;
mod settled;

pub use rule::{half_unit, Judgement, Target, MAX_RATIO_SPAN};
pub use settled::{settledness, Settledness, MIN_SETTLED_SHARE, RESAMPLES};

use serde::Serialize;

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
    /// A ratio whose interval spans more than [`MAX_RATIO_SPAN`]: too wide to tell.
    TooNoisy,
    /// The run's own trials, resampled, give this status less often than [`MIN_SETTLED_SHARE`].
    Unsettled,
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
    pub const ALL: [Status; 11] = [
        Status::Reproduced,
        Status::Smaller,
        Status::Larger,
        Status::Differs,
        Status::NotBeyondNoise,
        Status::TooNoisy,
        Status::Unsettled,
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
            Status::TooNoisy => "too noisy to tell",
            Status::Unsettled => "unsettled",
            Status::NeedsCores(_) => "needs more cores",
            Status::SetUp => "set up, not measured",
            Status::NotMeasurable => "not measurable here",
            Status::NotInRun => "not in this run",
        }
    }

    /// "4 reproduced", "2 differ", "10 need more cores": `count` claims of this kind.
    pub fn counted(self, count: usize) -> String {
        match self {
            Status::Differs => format!("{count} differ"),
            Status::NeedsCores(_) => format!("{count} need more cores"),
            _ => format!("{count} {}", self.kind()),
        }
    }

    /// One letter per kind, for a strip of tiles that must read in black and white and in a
    /// terminal: R reproduced, S smaller, L larger, D differs, N not beyond the noise, W too
    /// noisy (too wide), U unsettled, C needs more cores, P set up (put in by the lab), M not
    /// measurable here, O not in this run (omitted).
    pub fn letter(self) -> char {
        match self {
            Status::Reproduced => 'R',
            Status::Smaller => 'S',
            Status::Larger => 'L',
            Status::Differs => 'D',
            Status::NotBeyondNoise => 'N',
            Status::TooNoisy => 'W',
            Status::Unsettled => 'U',
            Status::NeedsCores(_) => 'C',
            Status::SetUp => 'P',
            Status::NotMeasurable => 'M',
            Status::NotInRun => 'O',
        }
    }

    /// The same kind of status, whatever its number.
    pub fn same_kind(self, other: Status) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }

    /// A status the run's trials decide (and a resample of them could change): what
    /// settledness is asked of.
    pub fn is_measured(self) -> bool {
        matches!(
            self,
            Status::Reproduced
                | Status::Smaller
                | Status::Larger
                | Status::Differs
                | Status::NotBeyondNoise
                | Status::TooNoisy
        )
    }
}

/// The statuses explained, once for every page that shows them, with the rule's numbers.
pub fn legend() -> String {
    format!(
        "Reproduced: this machine's interval reaches the article's figure or range, each end of which is held to \
         the precision the article printed it to (half a unit of its last digit: 1.7 ms reaches from 1.65 to 1.75 \
         ms). Same direction, smaller; same direction, larger: beyond the noise the article's way, but short of or \
         past its figure. Differs: clearly the other way, or an absolute figure clearly outside the article's range. \
         Not beyond the noise: the interval includes no difference (or, for a claim of no change, reaches past its \
         bound), or too few trials. Too noisy to tell: a ratio whose interval spans more than {span}x (high over \
         low), never called reproduced nor differs. Unsettled: the run's own trials, resampled {resamples} times \
         (a seeded bootstrap over rounds of trials), give the status in fewer than {settled} of the resamples; \
         each status's share is named and the claim is counted apart. Needs N cores: the article's setting had N \
         threads, more than this machine has CPUs; the CPU count alone decides it, and the figure at this \
         machine's threads is shown with how it reads. Set up, not measured: the figure is the lab's own input, \
         config or arithmetic, never evidence. Not measurable here: the machine or the lab cannot measure it, and \
         the row says why. Not in this run: the experiment that answers it did not run.",
        span = crate::format::short_number(MAX_RATIO_SPAN),
        resamples = RESAMPLES,
        settled = crate::format::percent(MIN_SETTLED_SHARE),
    )
}

/// "5 reproduced, 11 same direction, smaller, 4 differ, ..." over `statuses` (a count per
/// kind, in [`Status::ALL`] order, kinds with none left out).
pub fn tally(statuses: &[Status]) -> String {
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|&kind| (kind, statuses.iter().filter(|status| status.same_kind(kind)).count()))
        .filter(|&(_, count)| count > 0)
        .map(|(kind, count)| kind.counted(count))
        .collect();
    counts.join(", ")
}

#[cfg(test)]
mod tests;
