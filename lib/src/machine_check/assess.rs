//! Everything one run says about the machine's fitness, summarised once: the facts, the
//! verdict, the checks behind it in words, and whether the hardware counters counted. It
//! reads a saved run: its scaling and core-to-core rows, what each experiment's trials
//! recorded of the machine, and the conditions each ran under.

use serde::Serialize;

use super::placement_seen::{placement_seen, PlacementSeen, TrialPlacement};
use super::{gather_facts, scaling, Facts, ScalingSummary};
use crate::c2c::PairSummary;
use crate::machine::clocks::describe_change;
use crate::machine::conditions::Conditions;
use crate::machine::Machine;
use crate::perf::CounterReading;
use crate::run_format::Run;
use crate::verdict::Verdict;

/// What one machine measured that bears on its fitness.
#[derive(Debug, Clone)]
pub struct MachineRun<'a> {
    pub label: String,
    pub machine: &'a Machine,
    pub c2c: Option<&'a [crate::c2c::Row]>,
    /// Samples each c2c pair was to take (its config), to tell a budget cut from a plan.
    pub c2c_samples_planned: Option<u64>,
    pub scaling: Option<&'a [super::Row]>,
    /// Each experiment's name and what the machine did while it ran.
    pub conditions: Vec<(String, Conditions)>,
    /// Every cache-miss reading the run's trials took ([`crate::experiment::Measure::cache_misses`]).
    pub counter_readings: Vec<CounterReading>,
    /// Where the run's team trials ran (`None`: no trial recorded its CPUs).
    pub placement: Option<PlacementSeen>,
    /// Each experiment's name and its clocks, before -> after, in words.
    pub clocks: Vec<(String, String)>,
}

impl<'a> MachineRun<'a> {
    pub fn from_run(run: &'a Run) -> Self {
        let (mut placements, mut counter_readings) = (Vec::new(), Vec::new());
        for (experiment, trials) in run.trials() {
            let placed = |(cpus, pinned): &'a (String, bool)| TrialPlacement { experiment, cpus, pinned: *pinned };
            placements.extend(trials.placements.iter().map(placed));
            counter_readings.extend(trials.cache_misses.iter().cloned());
        }
        Self {
            label: run.label(),
            machine: &run.manifest.machine,
            c2c: run.rows::<crate::c2c::Row>(),
            c2c_samples_planned: run
                .manifest
                .record(crate::c2c::EXPERIMENT)
                .and_then(|record| record.config.get("samples_per_pair")?.as_u64()),
            scaling: run.rows::<super::Row>(),
            conditions: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), record.conditions()))
                .collect(),
            counter_readings,
            placement: placement_seen(&run.manifest.machine, placements),
            clocks: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), describe_change(&record.clocks_before, &record.clocks_after)))
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Assessment {
    pub facts: Facts,
    pub verdict: Verdict,
    #[serde(skip)]
    pub c2c: Option<Vec<PairSummary>>,
    #[serde(skip)]
    pub scaling: Option<Vec<ScalingSummary>>,
    /// "available", or why hardware counters were not (from the run's rows).
    pub hardware_counters: String,
    /// Experiments that ran while other programs or the hypervisor took CPU time.
    pub measured_under_load: Vec<String>,
    /// Each experiment's clocks, before -> after, in words.
    pub clocks: Vec<(String, String)>,
}

/// The verdict over `run`: the one the reader judged as it read the run, else judged now.
pub fn verdict_of(run: &Run) -> Verdict {
    run.verdict.clone().unwrap_or_else(|| assess(&MachineRun::from_run(run)).verdict)
}

pub fn assess(run: &MachineRun<'_>) -> Assessment {
    let c2c = run.c2c.map(crate::c2c::summarize);
    let scaling = run.scaling.map(scaling::summarize);
    let mut facts = gather_facts(run.machine, c2c.as_deref(), scaling.as_deref(), &run.conditions);
    facts.placement = run.placement.clone();
    Assessment {
        verdict: super::verdict(&facts),
        facts,
        hardware_counters: counters_seen(&run.counter_readings),
        measured_under_load: run
            .conditions
            .iter()
            .filter(|(_, conditions)| conditions.under_load())
            .map(|(name, _)| name.clone())
            .collect(),
        clocks: run.clocks.clone(),
        c2c,
        scaling,
    }
}

/// Whether any trial of the run counted cache misses.
fn counters_seen(readings: &[CounterReading]) -> String {
    if readings.is_empty() {
        "not tried (no stride or machine trials in this run)".into()
    } else if readings.iter().any(|reading| reading.count().is_some()) {
        "available: cache misses counted per trial".into()
    } else {
        "unavailable: the kernel allowed no cache-miss counter (usual in cloud guests)".into()
    }
}
