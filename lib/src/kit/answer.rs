//! A numbered claim's answer on one machine, as an experiment's presentation hands it to
//! the claims table and the headline (`Present::answer`): the figure, the status the lab's
//! one rule ([`crate::judgement`]) gave it, and the ratio it was judged from.

use serde::Serialize;

use crate::format;
use crate::judgement::{Judgement, Status};
use crate::stats::Ratio;

/// One claim as one machine answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// This machine's figure in words, with its interval; empty when there is none.
    pub figure: String,
    pub status: Status,
    /// Why, where the status needs it ("2 CPUs against the article's 8 threads").
    pub why: String,
    /// For a measured status, the share of resamples of the run's trials that gave it again
    /// (`present::claims::settled_answers`); `None` before it is asked, and for a status no trial decides.
    pub settled: Option<f64>,
    /// The ratio the status was judged from, with its setting, where a headline's figure
    /// draws it (claims A1, B6, C1); boxed, so an answer stays small where it travels as an error.
    #[serde(skip)]
    pub estimate: Option<Box<Estimate>>,
}

/// A claim's ratio on this machine and the setting it was measured at ("8 threads",
/// "Go, 8 threads"): what the headline draws and its table's cell says.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub setting: String,
    pub ratio: Ratio,
}

impl Estimate {
    /// "setting: 1.36x (1.05x–4.05x)".
    pub fn text(&self) -> String {
        format!("{}: {}", self.setting, format::ratio_with_interval(&self.ratio))
    }
}

impl Answer {
    pub fn new(figure: impl Into<String>, status: Status, why: impl Into<String>) -> Self {
        Self { figure: figure.into(), status, why: why.into(), settled: None, estimate: None }
    }

    /// `figure` judged as `judgement` says.
    pub fn judged(figure: impl Into<String>, judgement: Judgement) -> Self {
        Self::new(figure, judgement.status, judgement.why)
    }

    /// Nothing to show: `status` and why.
    pub fn without_figure(status: Status, why: impl Into<String>) -> Self {
        Self::new(String::new(), status, why)
    }

    /// No experiment answers the claim.
    pub fn unanswered() -> Self {
        Self::without_figure(Status::NotMeasurable, "no measurement answers this claim yet")
    }

    /// The experiment named `experiment` did not run.
    pub fn not_in_run(experiment: &str) -> Self {
        Self::without_figure(Status::NotInRun, format!("run `contention run {experiment}`"))
    }

    /// A figure the lab set up itself (an input, a config, arithmetic): shown, never evidence.
    pub fn set_up(figure: impl Into<String>, why: impl Into<String>) -> Self {
        Self::new(figure, Status::SetUp, why)
    }

    /// This answer, its status judged from `ratio` measured at `setting`.
    pub(crate) fn with_estimate(mut self, setting: impl Into<String>, ratio: Ratio) -> Self {
        self.estimate = Some(Box::new(Estimate { setting: setting.into(), ratio }));
        self
    }

    /// The status with its why, as a table cell says it.
    pub fn status_text(&self) -> String {
        Judgement::new(self.status, self.why.clone()).to_string()
    }
}
