//! The check every challenge shares: correctness first, then the three sides interleaved
//! in one run, then the one rule against the goal the reference fix set on this machine.

use serde::Serialize;

use super::{Challenge, Plan};
use crate::error::RunError;
use crate::evidence;
use crate::harness::{interleaved_trials, Progress};
use crate::judgement::{Judgement, Status, Target};
use crate::stats::{Ratio, Summary};

/// Which version a trial runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The code as the challenge hands it out.
    Baseline,
    /// The lab's own fix: its speed-up on this machine is the goal.
    Reference,
    /// The student's version.
    Yours,
}

impl Side {
    pub const ALL: [Side; 3] = [Side::Baseline, Side::Reference, Side::Yours];

    pub fn label(self) -> &'static str {
        match self {
            Side::Baseline => "baseline",
            Side::Reference => "reference fix",
            Side::Yours => "your version",
        }
    }
}

/// One trial of one side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sample {
    pub side: Side,
    pub trial: usize,
    /// Operations per second (the challenge's [`Challenge::unit`]).
    pub per_sec: f64,
    /// Every thread of the trial ran pinned to its own CPU.
    pub pinned: bool,
    /// Collector cycles per second (the allocation challenge only).
    pub cycles_per_sec: Option<f64>,
}

/// How the student's version measured against the baseline, judged against the goal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The reference fix over the baseline on this machine: the goal, stated first.
    pub goal: Option<Ratio>,
    /// The student's version over the baseline.
    pub speedup: Option<Ratio>,
    pub judgement: Judgement,
    pub samples: Vec<Sample>,
    /// The time budget ran out before every planned trial ran.
    pub budget_cut: bool,
}

/// A check's whole answer: refused on correctness (`wrong` says what was lost, nothing was
/// timed), or measured and judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checked {
    pub challenge: Challenge,
    /// What the correctness check found lost, when it refused the fix.
    pub wrong: Option<String>,
    pub verdict: Option<Verdict>,
}

impl Checked {
    pub fn refused(challenge: Challenge, wrong: String) -> Self {
        Self { challenge, wrong: Some(wrong), verdict: None }
    }

    pub fn correct(&self) -> bool {
        self.wrong.is_none()
    }

    /// The judgement's status, `None` when refused on correctness.
    pub fn status(&self) -> Option<Status> {
        self.verdict.as_ref().map(|verdict| verdict.judgement.status)
    }
}

/// The status as a challenge reads it: faster (reaching, short of or past the goal), not
/// beyond the noise, slower, or "this machine cannot show it".
pub fn reading(status: Status) -> &'static str {
    match status {
        Status::Reproduced => "faster, reaching the goal",
        Status::Smaller => "faster, short of the goal",
        Status::Larger => "faster, past the goal",
        Status::Differs => "slower",
        Status::NotBeyondNoise => "not beyond the noise",
        Status::TooNoisy => "too noisy to tell",
        Status::NotMeasurable => "this machine cannot show it",
        other => other.kind(),
    }
}

/// Measures the three sides interleaved (round 1 over every side, then round 2, ...), after
/// one warm-up trial of each, each trial by `trial`, and judges them; with `needs_pinning`,
/// a trial whose threads were not pinned means this machine cannot show the effect.
pub(crate) fn measure_and_judge(
    challenge: Challenge,
    plan: &Plan,
    progress: Progress,
    needs_pinning: bool,
    trial: impl FnMut(Side, usize) -> Result<Sample, RunError>,
) -> Result<Verdict, RunError> {
    let mut trial = trial;
    // One unrecorded trial of each side first: page mappings, caches and the clock settle
    // before any trial that counts.
    for side in Side::ALL {
        trial(side, 0)?;
    }
    let outcome = interleaved_trials(
        challenge.name(),
        &Side::ALL,
        plan.trials,
        plan.budget,
        progress,
        |side| side.label().to_string(),
        |side, round| trial(*side, round),
    )?;
    let unpinned = needs_pinning && outcome.rows.iter().any(|sample| !sample.pinned);
    let mut verdict = judge(&outcome.rows);
    if unpinned && verdict.judgement.status != Status::NotMeasurable {
        verdict.judgement = Judgement::new(
            Status::NotMeasurable,
            "the scheduler would not pin the threads to CPUs of their own: two of them may have shared a core, \
             where no cache line moves between cores",
        );
    }
    verdict.budget_cut = outcome.budget_exhausted;
    Ok(verdict)
}

/// The one rule over measured samples: too few trials or a reference fix not beyond the noise
/// cannot set a goal; otherwise the student's speed-up is judged against the goal's interval.
pub(crate) fn judge(samples: &[Sample]) -> Verdict {
    let summary = |side: Side| {
        let values: Vec<f64> =
            samples.iter().filter(|sample| sample.side == side).map(|sample| sample.per_sec).collect();
        Summary::of(&values)
    };
    let (baseline, reference, yours) = (summary(Side::Baseline), summary(Side::Reference), summary(Side::Yours));
    let verdict =
        |goal, speedup, judgement| Verdict { goal, speedup, judgement, samples: samples.to_vec(), budget_cut: false };
    let (Some(baseline), Some(reference), Some(yours)) = (baseline, reference, yours) else {
        return verdict(None, None, Judgement::new(Status::NotMeasurable, "a side has no trial with a finite figure"));
    };
    let goal = Ratio::between(&reference, &baseline);
    let speedup = Ratio::between(&yours, &baseline);
    if let Err(few) = evidence::check([&baseline, &reference, &yours]) {
        return verdict(Some(goal), Some(speedup), Judgement::new(Status::NotMeasurable, few.to_string()));
    }
    if !goal.clearly_above_one() {
        let why = format!(
            "the reference fix itself is not beyond the noise here ({}), so no goal can be set",
            crate::format::ratio_with_interval(&goal)
        );
        return verdict(Some(goal), Some(speedup), Judgement::new(Status::NotMeasurable, why));
    }
    // A fix is faster only beyond the noise: a speed-up whose interval includes 1x never reads
    // as reaching a goal whose interval it merely overlaps.
    let judgement = if speedup.clearly_below_one() {
        let why = format!("slower than the baseline: {}", crate::format::ratio_with_interval(&speedup));
        Judgement::new(Status::Differs, why)
    } else if !speedup.clearly_above_one() {
        let why = format!("the interval includes no difference: {}", crate::format::ratio_with_interval(&speedup));
        Judgement::new(Status::NotBeyondNoise, why)
    } else {
        Judgement::effect(&speedup, Target::range(goal.low, goal.high))
    };
    verdict(Some(goal), Some(speedup), judgement)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(baseline: &[f64], reference: &[f64], yours: &[f64]) -> Vec<Sample> {
        let side = |side, values: &[f64]| -> Vec<Sample> {
            values
                .iter()
                .enumerate()
                .map(|(trial, &per_sec)| Sample { side, trial, per_sec, pinned: true, cycles_per_sec: None })
                .collect::<Vec<_>>()
        };
        [side(Side::Baseline, baseline), side(Side::Reference, reference), side(Side::Yours, yours)].concat()
    }

    const BASE: [f64; 5] = [100.0, 101.0, 99.0, 100.5, 99.5];
    const FOUR_TIMES: [f64; 5] = [400.0, 404.0, 396.0, 402.0, 398.0];

    #[test]
    fn a_fix_as_fast_as_the_reference_reaches_the_goal() {
        let verdict = judge(&samples(&BASE, &FOUR_TIMES, &FOUR_TIMES));
        assert_eq!(verdict.judgement.status, Status::Reproduced, "{}", verdict.judgement);
    }

    #[test]
    fn a_fix_faster_but_short_of_the_goal_is_smaller() {
        let twice = BASE.map(|value| value * 2.0);
        assert_eq!(judge(&samples(&BASE, &FOUR_TIMES, &twice)).judgement.status, Status::Smaller);
    }

    #[test]
    fn the_baseline_against_itself_is_never_faster() {
        let verdict = judge(&samples(&BASE, &FOUR_TIMES, &[99.0, 100.0, 101.0, 100.2, 99.8]));
        assert_eq!(verdict.judgement.status, Status::NotBeyondNoise, "{}", verdict.judgement);
    }

    #[test]
    fn a_slower_version_reads_slower() {
        let half = BASE.map(|value| value / 2.0);
        assert_eq!(reading(judge(&samples(&BASE, &FOUR_TIMES, &half)).judgement.status), "slower");
    }

    #[test]
    fn too_few_trials_or_a_reference_in_the_noise_cannot_show_it() {
        let few = judge(&samples(&BASE[..2], &FOUR_TIMES[..2], &FOUR_TIMES[..2]));
        assert_eq!(few.judgement.status, Status::NotMeasurable);
        assert!(few.judgement.why.starts_with("too few trials (n=2"), "{}", few.judgement);
        let flat = judge(&samples(&BASE, &[98.0, 103.0, 100.0, 99.0, 101.0], &FOUR_TIMES));
        assert_eq!(flat.judgement.status, Status::NotMeasurable);
        assert!(flat.judgement.why.contains("reference fix itself is not beyond the noise"), "{}", flat.judgement);
    }
}
