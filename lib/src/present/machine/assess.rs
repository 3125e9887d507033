//! Everything one run says about the machine's fitness, summarised once: the facts, the
//! verdict, the checks behind it in words, and whether the hardware counters counted.

use serde::Serialize;

use crate::c2c::PairSummary;
use crate::fitness::clocks::describe_change;
use crate::fitness::conditions::Conditions;
use crate::fitness::placement::{placement_seen, PlacementSeen, TrialPlacement};
use crate::fitness::verdict::{Disturbance, Verdict};
use crate::fitness::{self, gather_facts, scaling, Facts, ScalingSummary};
use crate::perf::CounterReading;
use crate::Machine;

/// What one machine measured that bears on its fitness.
#[derive(Debug, Clone)]
pub struct MachineRun<'a> {
    pub label: String,
    pub machine: &'a Machine,
    pub c2c: Option<&'a [crate::c2c::Row]>,
    /// Samples each c2c pair was to take (its config), to tell a budget cut from a plan.
    pub c2c_samples_planned: Option<u64>,
    pub scaling: Option<&'a [fitness::Row]>,
    /// Each experiment's name and what the machine did while it ran.
    pub conditions: Vec<(String, Conditions)>,
    /// Every cache-miss reading the run took (the scaling check's and the stride sweep's).
    pub counter_readings: Vec<CounterReading>,
    /// Where the run's team trials ran (`None`: no trial recorded its CPUs).
    pub placement: Option<PlacementSeen>,
    /// Each experiment's name and its clocks, before -> after, in words.
    pub clocks: Vec<(String, String)>,
}

impl<'a> MachineRun<'a> {
    pub fn from_run(run: &'a crate::runs::Run) -> Self {
        let readings = run.machine.iter().flatten().map(|row| row.cache_misses);
        let stride = run.stride.iter().flatten().map(|row| row.cache_misses);
        Self {
            label: run.label(),
            machine: &run.manifest.machine,
            c2c: run.c2c.as_deref(),
            c2c_samples_planned: run
                .manifest
                .record(crate::c2c::EXPERIMENT)
                .and_then(|record| record.config.get("samples_per_pair")?.as_u64()),
            scaling: run.machine.as_deref(),
            conditions: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), record.conditions()))
                .collect(),
            counter_readings: readings.chain(stride).collect(),
            placement: placement_seen(&run.manifest.machine, trial_placements(run)),
            clocks: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), describe_change(&record.clocks_before, &record.clocks_after)))
                .collect(),
        }
    }
}

/// Where every team trial of the run ran, as its rows recorded it.
fn trial_placements(run: &crate::runs::Run) -> impl Iterator<Item = TrialPlacement<'_>> {
    let stride = run.stride.iter().flatten().map(|row| (row.cpus.as_str(), row.pinned));
    let sharing = run.sharing.iter().flatten().map(|row| (row.cpus.as_str(), row.pinned));
    let counters = run.counters.iter().flatten().map(|row| (row.cpus.as_str(), row.pinned));
    let machine = run.machine.iter().flatten().map(|row| (row.cpus.as_str(), row.pinned));
    placed(crate::stride::EXPERIMENT, stride)
        .chain(placed(crate::sharing::EXPERIMENT, sharing))
        .chain(placed(crate::counters::EXPERIMENT, counters))
        .chain(placed(fitness::EXPERIMENT, machine))
}

fn placed<'a>(
    experiment: &'static str,
    rows: impl Iterator<Item = (&'a str, bool)>,
) -> impl Iterator<Item = TrialPlacement<'a>> {
    rows.map(move |(cpus, pinned)| TrialPlacement { experiment, cpus, pinned })
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

pub fn assess(run: &MachineRun<'_>) -> Assessment {
    let c2c = run.c2c.map(crate::c2c::summarize);
    let scaling = run.scaling.map(scaling::summarize);
    let mut facts = gather_facts(run.machine, c2c.as_deref(), scaling.as_deref(), &run.conditions);
    facts.placement = run.placement.clone();
    Assessment {
        verdict: fitness::verdict(&facts),
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

/// The checks behind the verdict, as (label, value) in words.
pub fn check_rows(assessment: &Assessment) -> Vec<(String, String)> {
    let facts = &assessment.facts;
    let not_measured = |how: &str| format!("not measured (run `contention run {how}`)");
    let mut rows = vec![(
        "core-to-core latency".to_string(),
        match (&assessment.c2c, facts.typical_one_way_ns) {
            (Some(pairs), Some(ns)) => format!("{ns:.0} ns one way, typical of {} pair(s)", pairs.len()),
            (Some(_), None) => "no pair: fewer than two CPUs".into(),
            (None, _) => not_measured("c2c"),
        },
    )];
    match assessment.scaling.as_deref() {
        Some(summaries) if summaries.len() > 1 => rows.extend(summaries[1..].iter().map(|summary| {
            (
                format!("scaling, {} threads", summary.threads),
                format!(
                    "{} one thread's work ({}; ideal {:.0}x)",
                    crate::format::ratio(summary.speedup.value),
                    crate::format::ratio_interval(summary.speedup.low, summary.speedup.high),
                    summary.ideal_speedup
                ),
            )
        })),
        Some(_) => rows.push(("scaling".into(), "one thread only: nothing to compare".into())),
        None => rows.push(("scaling".into(), not_measured("machine"))),
    }
    let spread = assessment.scaling.as_deref().and_then(scaling::trial_spread);
    rows.push((
        "trial spread".into(),
        spread.map_or(not_measured("machine"), |(cv, threads)| {
            format!("{} (coefficient of variation; worst at {threads} thread(s))", crate::format::percent(cv))
        }),
    ));
    let share = |label: &str, disturbance: &Option<Disturbance>| {
        let value = disturbance
            .as_ref()
            .map_or("unknown (no /proc/stat, or every experiment too short to tell)".into(), |worst| {
                format!("{} of CPU time at most (during {})", crate::format::percent(worst.share), worst.during)
            });
        (label.to_string(), value)
    };
    rows.push(share("other programs' CPU use", &facts.background));
    rows.push(share("steal time", &facts.steal));
    rows.push(("hardware counters".into(), assessment.hardware_counters.clone()));
    rows.push(("thread placement".into(), placement_text(facts.placement.as_ref())));
    rows.push(("CPU clock".into(), clock_text(facts, &assessment.clocks)));
    rows
}

fn placement_text(seen: Option<&PlacementSeen>) -> String {
    let Some(seen) = seen else {
        return "unknown (no trial recorded its CPUs)".into();
    };
    let shared = match seen.shared_core_trials {
        0 => "no two threads shared a physical core".to_string(),
        n => format!("{n} shared a physical core (during {})", seen.shared_core_during.join(", ")),
    };
    let unpinned = match seen.unpinned_trials {
        0 => "every thread pinned".to_string(),
        n => format!("{n} could not pin every thread (during {})", seen.unpinned_during.join(", ")),
    };
    format!("{} trials: {shared}; {unpinned}", seen.trials)
}

fn clock_text(facts: &Facts, clocks: &[(String, String)]) -> String {
    let Some(moved) = facts.clock_change.as_ref() else {
        return "unknown (the kernel exposes no cpufreq files here)".into();
    };
    let states: Vec<String> = clocks.iter().map(|(name, state)| format!("{name}: {state}")).collect();
    format!("moved by {:.1}% at most (during {}); {}", moved.share.abs() * 100.0, moved.during, states.join("; "))
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
