//! The machine check (the experiment `machine`): can this machine show a contention effect, and could it during this
//! run? Facts come from the machine description, the core-to-core latency matrix
//! ([`crate::c2c`]), the scaling and noise check ([`scaling`]) and what else the machine did
//! while each experiment ran ([`crate::machine::conditions`]); [`judge::verdict`] turns them into `fit`,
//! `limited` or `unfit` with reasons in words.

pub mod answers;
pub mod assess;
mod flags;
pub mod judge;
pub mod placement_seen;
pub mod present;
pub mod scaling;

pub use crate::verdict::{Fitness, Verdict};
pub use judge::{verdict, Facts};
pub use scaling::{run, summarize, Config, Row, ScalingSummary};

use crate::c2c::{typical_one_way_ns, PairSummary};
use crate::machine::conditions::Conditions;
use crate::machine::Machine;
use judge::{Disturbance, ARTICLE_THREADS};

/// The experiment's name on the command line and in run folders.
pub const EXPERIMENT: &str = "machine";

/// The machine check (scaling and noise, then the verdict), as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct MachineCheck;

crate::experiment::measure!(
    MachineCheck,
    about: "Can this machine show contention? Scaling and noise check, then the verdict.",
    summary: ScalingSummary,
    runtime_row: crate::experiment::NoRows,
    const SUMMARY_KEY: &str = "scaling";
    fn placements(rows: &[Row]) -> Vec<(&str, bool)> {
        rows.iter().map(|row| (row.cpus.as_str(), row.pinned)).collect()
    }

    fn cache_misses(rows: &[Row]) -> Vec<crate::perf::CounterReading> {
        rows.iter().map(|row| row.cache_misses).collect()
    }

    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// Collects the verdict's facts from one run's measurements. `c2c` and `scaling` are `None`
/// when the run did not measure them; `conditions` holds each experiment's name and what
/// the machine did while it ran. Placement comes from the rows: set `placement` with
/// [`placement::placement_seen`].
pub fn gather_facts(
    machine: &Machine,
    c2c: Option<&[PairSummary]>,
    scaling: Option<&[ScalingSummary]>,
    conditions: &[(String, Conditions)],
) -> Facts {
    let worst = |share: fn(&Conditions) -> Option<f64>| {
        conditions
            .iter()
            .filter_map(|(during, conditions)| Some(Disturbance { share: share(conditions)?, during: during.clone() }))
            .max_by(|a, b| a.share.total_cmp(&b.share))
    };
    Facts {
        usable_cpus: machine.available_parallelism,
        usable_cores: usable_cores(machine),
        experiment_threads: ARTICLE_THREADS,
        typical_one_way_ns: c2c.and_then(typical_one_way_ns),
        c2c_unpinned_dropped: c2c.and_then(crate::c2c::unpinned_dropped_share),
        speedup_at_two_threads: scaling.and_then(|s| scaling::speedup_at(s, 2)).map(|ratio| ratio.value),
        trial_spread_cv: scaling.and_then(scaling::trial_spread).map(|(cv, _)| cv),
        background: worst(|conditions| conditions.background_share),
        steal: worst(|conditions| conditions.steal_share),
        placement: None,
        clock_change: crate::machine::clocks::moved_most(
            conditions.iter().map(|(during, conditions)| (during.clone(), conditions.clock_change())),
        ),
        threads_pinned: scaling.map(|summaries| summaries.iter().all(|summary| summary.all_pinned)),
    }
}

/// Physical cores behind the CPUs this process may use: known when it may use every CPU,
/// or when the whole machine has a single core.
fn usable_cores(machine: &Machine) -> Option<usize> {
    let cores = machine.physical_cores?;
    (machine.available_parallelism == machine.logical_cpus || cores == 1).then_some(cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(background_share: f64, steal_share: f64) -> Conditions {
        Conditions {
            load_average_before: None,
            load_average_after: None,
            steal_share: Some(steal_share),
            background_share: Some(background_share),
            clocks_before: crate::machine::clocks::Clocks::default(),
            clocks_after: crate::machine::clocks::Clocks::default(),
            elapsed_s: None,
            runtime_elapsed: None,
        }
    }

    #[test]
    fn facts_take_the_worst_experiment_and_leave_unmeasured_unchecked() {
        let machine = Machine::describe();
        let conditions = vec![("stride".to_string(), quiet(0.30, 0.01)), ("c2c".to_string(), quiet(0.05, 0.04))];
        let facts = gather_facts(&machine, None, None, &conditions);
        assert_eq!(facts.usable_cpus, machine.available_parallelism);
        assert_eq!(facts.background, Some(Disturbance { share: 0.30, during: "stride".into() }));
        assert_eq!(facts.steal, Some(Disturbance { share: 0.04, during: "c2c".into() }));
        assert_eq!((facts.typical_one_way_ns, facts.speedup_at_two_threads, facts.trial_spread_cv), (None, None, None));
        assert!(gather_facts(&machine, None, None, &[]).background.is_none());
    }

    #[test]
    fn usable_cores_are_unknown_when_the_process_is_restricted() {
        let mut machine = Machine::describe();
        machine.logical_cpus = 8;
        machine.physical_cores = Some(4);
        machine.available_parallelism = 8;
        assert_eq!(usable_cores(&machine), Some(4));
        machine.available_parallelism = 2;
        assert_eq!(usable_cores(&machine), None);
        machine.physical_cores = Some(1);
        assert_eq!(usable_cores(&machine), Some(1));
    }
}
