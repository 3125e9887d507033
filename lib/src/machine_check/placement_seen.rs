//! How the experiments' teams were placed, from the CPUs each trial recorded: trials whose
//! threads shared a physical core (SMT siblings, or one CPU twice), and trials whose
//! threads could not be pinned (a pin the OS refused, an OS that does not pin, or more
//! threads than CPUs). Either blurs a contention effect without the machine being unfit.

use serde::{Deserialize, Serialize};

use crate::machine::{parse_cpu_list, Machine};
use crate::placement::Topology;

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
