//! What a claim's answer reads ([`Context`]) and how an experiment words and judges one:
//! an effect, an absolute figure, a direction, each through the lab's one rule
//! ([`crate::judgement`]).

use super::Answer;
use crate::format;
use crate::judgement::{Judgement, Target};
use crate::run_format::Run;
use crate::stats::{Ratio, Summary};

/// What one claim's answer reads: one saved run, the CPUs its process could use, and the
/// article's figure for the claim.
#[derive(Debug)]
pub struct Context<'a> {
    pub run: &'a Run,
    pub cpus: u64,
    /// The article's figure or range, where it printed a number.
    pub target: Option<Target>,
}

impl Context<'_> {
    /// The article's figure, else `fallback` (the reference data always has it; a test may not).
    pub fn target_or(&self, fallback: Target) -> Target {
        self.target.unwrap_or(fallback)
    }
}

/// An effect's answer: too few trials claim nothing, else [`Judgement::effect`].
pub fn effect(figure: impl Into<String>, ratio: &Ratio, enough_trials: bool, target: Target) -> Answer {
    let judgement = if enough_trials { Judgement::effect(ratio, target) } else { Judgement::too_few_trials() };
    Answer::judged(figure, judgement)
}

/// An absolute figure's answer (its interval against the article's range).
pub fn figure(text: impl Into<String>, summary: &Summary, enough_trials: bool, target: Target) -> Answer {
    let judgement = if enough_trials {
        Judgement::figure(summary.median_low, summary.median_high, target)
    } else {
        Judgement::too_few_trials()
    };
    Answer::judged(text, judgement)
}

/// How far from 1 a "changed nothing" may lie: within 10%.
pub const NO_CHANGE_BOUND: f64 = 0.1;

/// A claim with a direction and no number ("slower", "gain gone"): any clear effect its way.
pub const DIRECTION: Target = Target { low: 1.0, high: f64::INFINITY, precision: 0.0 };

/// "3.87x (3.52x–4.10x)".
pub fn ratio_text(ratio: &Ratio) -> String {
    format::ratio_with_interval(ratio)
}

/// "12.5 (11.0–13.1)" with `unit` after the median.
pub fn summary_text(summary: &Summary, unit: &str) -> String {
    format!("{}{unit} ({})", format::number(summary.median), format::interval(summary.median_low, summary.median_high))
}
