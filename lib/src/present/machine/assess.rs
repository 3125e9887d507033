//! Everything one run says about the machine's fitness, summarised once: the facts, the
//! verdict, the checks behind it in words, and whether the hardware counters counted.

use serde::Serialize;

use crate::c2c::PairSummary;
use crate::fitness::conditions::Conditions;
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
    pub scaling: Option<&'a [fitness::Row]>,
    /// Each experiment's name and what the machine did while it ran.
    pub conditions: Vec<(String, Conditions)>,
    /// Every cache-miss reading the run took (the scaling check's and the stride sweep's).
    pub counter_readings: Vec<CounterReading>,
}

impl<'a> MachineRun<'a> {
    pub fn from_run(run: &'a crate::runs::Run) -> Self {
        let readings = run.machine.iter().flatten().map(|row| row.cache_misses);
        let stride = run.stride.iter().flatten().map(|row| row.cache_misses);
        Self {
            label: run.label(),
            machine: &run.manifest.machine,
            c2c: run.c2c.as_deref(),
            scaling: run.machine.as_deref(),
            conditions: run
                .manifest
                .experiments
                .iter()
                .map(|record| (record.name.clone(), record.conditions()))
                .collect(),
            counter_readings: readings.chain(stride).collect(),
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
}

pub fn assess(run: &MachineRun<'_>) -> Assessment {
    let c2c = run.c2c.map(crate::c2c::summarize);
    let scaling = run.scaling.map(scaling::summarize);
    let facts = gather_facts(run.machine, c2c.as_deref(), scaling.as_deref(), &run.conditions);
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
    rows
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
