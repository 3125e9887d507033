//! Can this machine show a contention effect? A pure function from plain facts to a verdict
//! with its reasons in words, so every rule can be tested alone.

use serde::{Deserialize, Serialize};

use super::placement_seen::PlacementSeen;
use crate::machine::clocks::MAX_CLOCK_CHANGE;
use crate::machine::conditions::{MAX_BACKGROUND_SHARE, MAX_STEAL_SHARE};
use crate::stats::HIGH_VARIATION_CV;
use crate::verdict::{Fitness, Reason, ReasonKind, Verdict, SLOW_ONE_WAY_NS};

/// Threads the articles' false-sharing experiments use.
pub const ARTICLE_THREADS: usize = 8;
/// Two threads on padded counters should do nearly twice the work of one.
pub const MIN_SPEEDUP_AT_TWO_THREADS: f64 = 1.5;

/// Everything the verdict looks at. `None` means "not checked" (not measured in this run,
/// or not readable on this OS); an unchecked fact never triggers a reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    /// Logical CPUs this process may run on.
    pub usable_cpus: usize,
    /// Physical cores those CPUs belong to (1 when they are all SMT siblings of one core).
    pub usable_cores: Option<usize>,
    /// Threads the experiments want (the articles': [`ARTICLE_THREADS`]).
    pub experiment_threads: usize,
    /// Median over CPU pairs of the one-way cache-line transfer time.
    pub typical_one_way_ns: Option<f64>,
    /// Where that matrix was measured unpinned: the share of its samples dropped because a
    /// thread moved (`None`: measured pinned, or not at all).
    #[serde(default)]
    pub c2c_unpinned_dropped: Option<f64>,
    /// Work done by two threads on padded counters over the work of one (ideal 2).
    pub speedup_at_two_threads: Option<f64>,
    /// The largest coefficient of variation among groups of identical trials.
    pub trial_spread_cv: Option<f64>,
    /// The largest share of CPU time other programs used while an experiment ran.
    pub background: Option<Disturbance>,
    /// The largest share of CPU time the hypervisor stole while an experiment ran.
    pub steal: Option<Disturbance>,
    /// Where the trials' threads ran (`None`: no trial recorded its CPUs).
    #[serde(default)]
    pub placement: Option<PlacementSeen>,
    /// The largest move of the mean CPU clock during one experiment, a signed share
    /// (`None`: the clocks could not be read).
    #[serde(default)]
    pub clock_change: Option<Disturbance>,
    /// Every scaling trial's threads were pinned to their CPUs (false where the OS refused
    /// or offers no thread affinity). Stands in for `placement` when no trial recorded it.
    #[serde(default)]
    pub threads_pinned: Option<bool>,
}

pub use crate::machine::disturbance::Disturbance;

/// Applies every rule to `facts`.
pub fn verdict(facts: &Facts) -> Verdict {
    let reasons: Vec<Reason> = [
        one_cpu(facts),
        fewer_cpus_than_threads(facts),
        only_smt_siblings(facts),
        slow_transfer(facts),
        poor_scaling(facts),
        noisy_trials(facts),
        background_load(facts),
        steal_time(facts),
        shared_cores(facts),
        unpinned(facts),
        clock_moved(facts),
    ]
    .into_iter()
    .flatten()
    .collect();
    let fitness = reasons.iter().map(|reason| reason.fitness).max().unwrap_or(Fitness::Fit);
    Verdict { fitness, reasons, unchecked: unchecked(facts) }
}

fn reason(kind: ReasonKind, fitness: Fitness, text: String) -> Option<Reason> {
    Some(Reason { kind, fitness, text })
}

fn one_cpu(facts: &Facts) -> Option<Reason> {
    if facts.usable_cpus > 1 {
        return None;
    }
    reason(
        ReasonKind::OneCpu,
        Fitness::Unfit,
        "This process can use only one CPU: its threads never run at the same time, so no cache line \
         ever moves between cores and no contention can show."
            .into(),
    )
}

fn fewer_cpus_than_threads(facts: &Facts) -> Option<Reason> {
    if !(facts.usable_cpus >= 2 && facts.usable_cpus < facts.experiment_threads) {
        return None;
    }
    reason(
        ReasonKind::FewerCpusThanThreads,
        Fitness::Limited,
        format!(
            "The articles ran {} threads; this machine gives {} CPUs, so the experiments run {} threads and \
             effects that need more cores (such as the article's penalty at 64-byte strides) may not appear.",
            facts.experiment_threads, facts.usable_cpus, facts.usable_cpus
        ),
    )
}

fn only_smt_siblings(facts: &Facts) -> Option<Reason> {
    if !(facts.usable_cpus >= 2 && facts.usable_cores == Some(1)) {
        return None;
    }
    reason(
        ReasonKind::OnlySmtSiblings,
        Fitness::Unfit,
        format!(
            "All {} CPUs are SMT siblings of one physical core: they share one L1 cache, so a cache line \
             never has to move between cores and false sharing cannot show.",
            facts.usable_cpus
        ),
    )
}

fn slow_transfer(facts: &Facts) -> Option<Reason> {
    let one_way = facts.typical_one_way_ns.filter(|&ns| ns > SLOW_ONE_WAY_NS)?;
    reason(
        ReasonKind::SlowTransfer,
        Fitness::Limited,
        format!(
            "Passing a cache line between CPUs takes {one_way:.0} ns one way{} (above {SLOW_ONE_WAY_NS:.0} ns): \
             the CPUs are probably time-sliced by a hypervisor or busy, which blurs every effect.",
            unpinned_label(facts)
        ),
    )
}

/// ", unpinned (3.1% of samples dropped where a thread moved)" where the matrix was measured
/// unpinned; empty where pinned.
pub fn unpinned_label(facts: &Facts) -> String {
    facts.c2c_unpinned_dropped.map_or_else(String::new, |share| {
        format!(", unpinned ({:.1}% of samples dropped where a thread moved)", share * 100.0)
    })
}

fn poor_scaling(facts: &Facts) -> Option<Reason> {
    let speedup = facts.speedup_at_two_threads.filter(|&speedup| speedup < MIN_SPEEDUP_AT_TWO_THREADS)?;
    reason(
        ReasonKind::PoorScaling,
        Fitness::Limited,
        format!(
            "Two threads on separate padded counters did {speedup:.2}x the work of one (ideal 2x, below \
             {MIN_SPEEDUP_AT_TWO_THREADS}x): the CPUs do not run fully in parallel (shared core, busy \
             machine or time-sliced virtual CPUs)."
        ),
    )
}

fn noisy_trials(facts: &Facts) -> Option<Reason> {
    let cv = facts.trial_spread_cv.filter(|&cv| cv > HIGH_VARIATION_CV)?;
    reason(
        ReasonKind::NoisyTrials,
        Fitness::Limited,
        format!(
            "Identical trials varied by {:.0}% (coefficient of variation, above {:.0}%): differences smaller \
             than that cannot be told from noise.",
            cv * 100.0,
            HIGH_VARIATION_CV * 100.0
        ),
    )
}

fn background_load(facts: &Facts) -> Option<Reason> {
    let busy = facts.background.as_ref().filter(|busy| busy.share > MAX_BACKGROUND_SHARE)?;
    reason(
        ReasonKind::BackgroundLoad,
        Fitness::Limited,
        format!(
            "Other programs used {:.0}% of all CPU time during the {} experiment (above {:.0}%): they \
             compete for the same cores and caches.",
            busy.share * 100.0,
            busy.during,
            MAX_BACKGROUND_SHARE * 100.0
        ),
    )
}

fn steal_time(facts: &Facts) -> Option<Reason> {
    let stolen = facts.steal.as_ref().filter(|stolen| stolen.share > MAX_STEAL_SHARE)?;
    reason(
        ReasonKind::StealTime,
        Fitness::Limited,
        format!(
            "The hypervisor took {:.1}% of CPU time away during the {} experiment (steal time, above \
             {:.0}%): another guest shares these physical CPUs.",
            stolen.share * 100.0,
            stolen.during,
            MAX_STEAL_SHARE * 100.0
        ),
    )
}

fn unchecked(facts: &Facts) -> Vec<String> {
    let mut missing = Vec::new();
    let pairs_exist = facts.usable_cpus >= 2;
    if pairs_exist && facts.typical_one_way_ns.is_none() {
        missing.push("core-to-core latency (run `contention run c2c`, at least 5 samples per pair)".to_string());
    }
    if pairs_exist && facts.speedup_at_two_threads.is_none() {
        missing.push("parallel scaling (run `contention run machine` with at least 5 trials)".to_string());
    }
    if facts.trial_spread_cv.is_none() {
        missing.push("trial spread (run `contention run machine` with at least 5 trials)".to_string());
    }
    if pairs_exist && facts.usable_cores.is_none() {
        missing.push("which CPUs share a physical core (no topology readable)".to_string());
    }
    if pairs_exist && facts.placement.is_none() {
        missing.push("where the threads ran (no trial recorded its CPUs)".to_string());
    }
    if facts.clock_change.is_none() {
        missing.push("CPU clock during the run (no cpufreq in sysfs)".to_string());
    }
    if facts.background.is_none() || facts.steal.is_none() {
        missing.push("background load and steal time (no /proc/stat, or every experiment too short)".to_string());
    }
    missing
}

fn shared_cores(facts: &Facts) -> Option<Reason> {
    let seen = facts.placement.as_ref().filter(|seen| seen.shared_core_trials > 0)?;
    Some(Reason {
        kind: ReasonKind::SharedPhysicalCores,
        fitness: Fitness::Limited,
        text: format!(
            "In {} of {} trials (during {}) two threads ran on one physical core (SMT siblings): they share its \
             L1 cache, so a cache line need not move between cores and a false-sharing penalty shrinks or \
             vanishes. Placement takes siblings only once the physical cores run out.",
            seen.shared_core_trials,
            seen.trials,
            seen.shared_core_during.join(", ")
        ),
    })
}

fn unpinned(facts: &Facts) -> Option<Reason> {
    let text = match facts.placement.as_ref() {
        Some(seen) if seen.unpinned_trials > 0 => format!(
            "In {} of {} trials (during {}) the threads could not be pinned each to its own CPU (the OS refused \
             or does not pin, or there were more threads than CPUs): the scheduler could move them or stack \
             two on one CPU, which blurs every effect.",
            seen.unpinned_trials,
            seen.trials,
            seen.unpinned_during.join(", ")
        ),
        // No trial recorded its placement: the scaling summaries' pinning is all there is.
        None if facts.threads_pinned == Some(false) => "The scaling trials could not pin their threads to CPUs \
             here (the OS refused, or offers no thread affinity): the scheduler could move them or stack two on \
             one CPU, which blurs every effect."
            .to_string(),
        _ => return None,
    };
    Some(Reason { kind: ReasonKind::NotPinned, fitness: Fitness::Limited, text })
}

fn clock_moved(facts: &Facts) -> Option<Reason> {
    let moved = facts.clock_change.as_ref().filter(|moved| moved.share.abs() > MAX_CLOCK_CHANGE)?;
    Some(Reason {
        kind: ReasonKind::ClockMoved,
        fitness: Fitness::Limited,
        text: format!(
            "The mean CPU clock {} by {:.0}% during the {} experiment (more than {:.0}%): trials measured at \
             different clocks are not comparable, and one thread may run faster than a whole team.",
            if moved.share > 0.0 { "rose" } else { "fell" },
            moved.share.abs() * 100.0,
            moved.during,
            MAX_CLOCK_CHANGE * 100.0
        ),
    })
}
