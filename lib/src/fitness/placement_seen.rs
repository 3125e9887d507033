//! How the experiments' teams were placed, from the CPUs each trial recorded: trials whose
//! threads shared a physical core (SMT siblings, or one CPU twice), and trials whose
//! threads could not be pinned (a pin the OS refused, an OS that does not pin, or more
//! threads than CPUs). Either blurs a contention effect without the machine being unfit.

use serde::{Deserialize, Serialize};

use super::judge::Facts;
use crate::machine::{parse_cpu_list, Machine};
use crate::placement::Topology;
use crate::verdict::{Fitness, Reason, ReasonKind};

/// One trial's placement as its row recorded it.
#[derive(Debug, Clone, Copy)]
pub struct TrialPlacement<'a> {
    pub experiment: &'a str,
    /// The row's `cpus` ("0,2,4,6").
    pub cpus: &'a str,
    pub pinned: bool,
}

/// What the trials of a run show about placement.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementSeen {
    pub trials: usize,
    pub shared_core_trials: usize,
    /// Experiments with such trials, in first-seen order.
    pub shared_core_during: Vec<String>,
    pub unpinned_trials: usize,
    pub unpinned_during: Vec<String>,
}

/// Tallies `trials` against the machine's SMT sibling groups; `None` when there are none.
pub fn placement_seen<'a>(
    machine: &Machine,
    trials: impl IntoIterator<Item = TrialPlacement<'a>>,
) -> Option<PlacementSeen> {
    let topology = Topology::from_sibling_lists(&machine.smt_sibling_groups);
    let mut seen = PlacementSeen::default();
    let note = |during: &mut Vec<String>, experiment: &str| {
        if !during.iter().any(|name| name == experiment) {
            during.push(experiment.to_string());
        }
    };
    for trial in trials {
        seen.trials += 1;
        let cpus = parse_cpu_list(trial.cpus).unwrap_or_default();
        if topology.shares_a_core(&cpus) {
            seen.shared_core_trials += 1;
            note(&mut seen.shared_core_during, trial.experiment);
        }
        if !trial.pinned {
            seen.unpinned_trials += 1;
            note(&mut seen.unpinned_during, trial.experiment);
        }
    }
    (seen.trials > 0).then_some(seen)
}

pub(super) fn shared_cores(facts: &Facts) -> Option<Reason> {
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

pub(super) fn unpinned(facts: &Facts) -> Option<Reason> {
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
