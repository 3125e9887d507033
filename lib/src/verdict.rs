//! A machine's verdict as experiments and sections read it: its level, its reasons in
//! words, and the sentence a finding without an effect adds about what may hide it. The
//! rules that reach a verdict from a run's facts are the machine check's (the experiment `machine`).

use serde::{Deserialize, Serialize};

/// A typical one-way cache-line transfer slower than this means time-sliced or busy CPUs:
/// bare-metal CPUs in one socket take tens of nanoseconds, across sockets one to two hundred.
pub const SLOW_ONE_WAY_NS: f64 = 250.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fitness {
    /// Nothing checked stands in the way of showing the effects.
    Fit,
    /// Effects can show, but smaller, noisier or only for some experiments.
    Limited,
    /// The machine cannot show contention between cores at all.
    Unfit,
}

impl Fitness {
    pub fn as_str(self) -> &'static str {
        match self {
            Fitness::Fit => "fit",
            Fitness::Limited => "limited",
            Fitness::Unfit => "unfit",
        }
    }
}

/// Which rule fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReasonKind {
    OneCpu,
    FewerCpusThanThreads,
    OnlySmtSiblings,
    SlowTransfer,
    PoorScaling,
    NoisyTrials,
    BackgroundLoad,
    StealTime,
    SharedPhysicalCores,
    NotPinned,
    ClockMoved,
}

impl ReasonKind {
    /// A few words for a summary line.
    pub fn label(self) -> &'static str {
        match self {
            ReasonKind::OneCpu => "one CPU",
            ReasonKind::FewerCpusThanThreads => "fewer CPUs than the experiments' threads",
            ReasonKind::OnlySmtSiblings => "only SMT siblings",
            ReasonKind::SlowTransfer => "slow cross-CPU transfer",
            ReasonKind::PoorScaling => "poor scaling at 2 threads",
            ReasonKind::NoisyTrials => "noisy trials",
            ReasonKind::BackgroundLoad => "background load during the run",
            ReasonKind::StealTime => "steal time during the run",
            ReasonKind::SharedPhysicalCores => "threads shared physical cores",
            ReasonKind::NotPinned => "threads could not be pinned",
            ReasonKind::ClockMoved => "the CPU clock moved during an experiment",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reason {
    pub kind: ReasonKind,
    /// How much this reason alone lowers the verdict.
    pub fitness: Fitness,
    /// The reason in plain words, with the measured numbers.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The worst of the reasons' levels; `Fit` when no reason fired.
    pub fitness: Fitness,
    pub reasons: Vec<Reason>,
    /// Facts that were not checked, in words (what to run to check them).
    pub unchecked: Vec<String>,
}

impl Verdict {
    /// "limited (noisy trials; background load during the run)" for a summary line.
    pub fn headline(&self) -> String {
        let labels: Vec<&str> = self.reasons.iter().map(|reason| reason.kind.label()).collect();
        let mut line = self.fitness.as_str().to_string();
        if !labels.is_empty() {
            line.push_str(&format!(" ({})", labels.join("; ")));
        }
        if !self.unchecked.is_empty() {
            line.push_str(&format!("; not checked: {}", self.unchecked.join("; ")));
        }
        line
    }

    /// For a sentence that found no effect, inline: what this verdict says may hide it.
    pub fn may_hide_the_effect(&self) -> String {
        let fitness = self.fitness.as_str();
        if self.reasons.is_empty() {
            return format!(
                "Nothing this machine's checks look at stands in the way (verdict: {fitness}), so here the effect \
                 is absent or smaller than the noise."
            );
        }
        let labels: Vec<&str> = self.reasons.iter().map(|reason| reason.kind.label()).collect();
        format!("This machine's verdict, {fitness} ({}), can hide the effect.", labels.join("; "))
    }
}

/// `sentence`, then what `verdict` says may hide the effect the sentence did not find
/// (nothing more where no verdict was given).
pub fn then_what_may_hide_it(sentence: String, verdict: Option<&Verdict>) -> String {
    match verdict {
        Some(verdict) => format!("{sentence} {}", verdict.may_hide_the_effect()),
        None => sentence,
    }
}
