//! The machine experiment on the command line: the scaling and noise check (flags to
//! config, rows to CSV), then the verdict over the whole run, printed as a table and saved
//! beside the rows as `verdict.json`.

use std::path::Path;

use anyhow::{Context, Result};
use contention::c2c::PairSummary;
use contention::fitness::verdict::Verdict;
use contention::fitness::{self, gather_facts, scaling, Config, Facts, ScalingSummary};
use serde::Serialize;

mod table;

use crate::cli::MeasureArgs;
use crate::load::{load_run, Column, Kind, RunData};
use crate::run_dir::write_atomic;

/// The CSV columns of [`Row`], in order, with their types.
pub const COLUMNS: &[Column] = &[
    Column::new("threads", Kind::Unsigned),
    Column::new("trial", Kind::Unsigned),
    Column::new("iters_per_thread", Kind::Unsigned),
    Column::new("elapsed_ns", Kind::Unsigned),
    Column::new("ns_per_op", Kind::Float),
    Column::new("pinned", Kind::Bool),
    Column::new("verified", Kind::Bool),
    Column::new("cache_misses", Kind::Counter),
];

pub const VERDICT_FILE: &str = "verdict.json";

/// The check's config from the flags (`--iters`, `--trials`); validated when selected.
pub fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if let Some(iters) = args.iters {
        config.iters_per_thread = iters;
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}

/// Everything one run says about the machine's fitness, summarised once for the page and
/// the terminal.
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

pub fn assess(run: &RunData) -> Assessment {
    let c2c = run.c2c.as_deref().map(contention::c2c::summarize);
    let scaling = run.machine.as_deref().map(scaling::summarize);
    let conditions: Vec<_> =
        run.manifest.experiments.iter().map(|record| (record.name.clone(), record.conditions())).collect();
    let facts = gather_facts(&run.manifest.machine, c2c.as_deref(), scaling.as_deref(), &conditions);
    Assessment {
        verdict: fitness::verdict(&facts),
        facts,
        hardware_counters: counters_seen(run),
        measured_under_load: conditions
            .iter()
            .filter(|(_, conditions)| conditions.under_load())
            .map(|(name, _)| name.clone())
            .collect(),
        c2c,
        scaling,
    }
}

/// The checks behind the verdict, as (label, value) in words: shared by page and terminal.
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
                    "{:.2}x one thread's work (interval {:.2}x to {:.2}x; ideal {:.0}x)",
                    summary.speedup.value, summary.speedup.low, summary.speedup.high, summary.ideal_speedup
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
            format!("{:.1}% (coefficient of variation; worst at {threads} thread(s))", cv * 100.0)
        }),
    ));
    let share = |label: &str, disturbance: &Option<fitness::verdict::Disturbance>| {
        (
            label.to_string(),
            disturbance
                .as_ref()
                .map_or("unknown (no /proc/stat, or every experiment too short to tell)".into(), |worst| {
                    format!("{:.1}% of CPU time at most (during {})", worst.share * 100.0, worst.during)
                }),
        )
    };
    rows.push(share("other programs' CPU use", &facts.background));
    rows.push(share("steal time", &facts.steal));
    rows.push(("hardware counters".into(), assessment.hardware_counters.clone()));
    rows
}

/// Whether any trial of the run counted cache misses.
fn counters_seen(run: &RunData) -> String {
    let machine_rows = run.machine.iter().flatten().map(|row| row.cache_misses);
    let stride_rows = run.stride.iter().flatten().map(|row| row.cache_misses);
    let mut readings = machine_rows.chain(stride_rows).peekable();
    if readings.peek().is_none() {
        "not tried (no stride or machine trials in this run)".into()
    } else if readings.any(|reading| reading.count().is_some()) {
        "available: cache misses counted per trial".into()
    } else {
        "unavailable: the kernel allowed no cache-miss counter (usual in cloud guests)".into()
    }
}

/// After a run that included the machine experiment: prints the description and the
/// verdict, and saves them as `verdict.json` in the run folder.
pub fn conclude(dir: &Path) -> Result<()> {
    let run = load_run(dir)?;
    let mut assessment = assess(&run);
    if let Err(reason) = contention::perf::availability() {
        assessment.hardware_counters = format!("unavailable: {reason}");
    }
    let json = serde_json::to_vec_pretty(&assessment).context("encoding the verdict")?;
    write_atomic(&dir.join(VERDICT_FILE), &json)?;
    table::print(&run, &assessment);
    Ok(())
}
