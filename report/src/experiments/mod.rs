//! The experiments the CLI knows: their names, how command-line values become each one's
//! config, and how each one's rows are measured and saved. One file per experiment.

pub mod c2c;
pub mod counters;
pub mod gc;
pub mod machine;
pub mod pool;
pub mod sharing;
pub mod stride;

use std::path::Path;

use anyhow::{Context, Result};
use clap::ValueEnum;
use contention::harness::{Outcome, Progress};
use contention::RunError;
use serde::{Deserialize, Serialize};

use crate::cli::MeasureArgs;
use crate::manifest::ExperimentRecord;
use crate::run_dir::write_csv;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Experiment {
    /// Can this machine show contention? Scaling and noise check, then the verdict.
    Machine,
    /// Core-to-core latency: a cache line passed between every pair of CPUs.
    C2c,
    /// False sharing: counters at growing distances (article A).
    Stride,
    /// False sharing: one total four ways (single, true, false, no sharing) (article A).
    Sharing,
    /// Hot-counter fixes side by side with their memory: padded, striped, local flush (A, C).
    Counters,
    /// GC ratio x threads with a small stop-the-world collector (article B).
    Gc,
    /// Thread-pool sizing: a bimodal service on fixed, split and async pools (article C).
    Pool,
}

impl Experiment {
    /// Every experiment, in the report's order.
    pub fn all() -> &'static [Experiment] {
        &[
            Experiment::Machine,
            Experiment::C2c,
            Experiment::Stride,
            Experiment::Sharing,
            Experiment::Counters,
            Experiment::Gc,
            Experiment::Pool,
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            Experiment::Machine => contention::fitness::EXPERIMENT,
            Experiment::C2c => contention::c2c::EXPERIMENT,
            Experiment::Stride => contention::stride::EXPERIMENT,
            Experiment::Sharing => contention::sharing::EXPERIMENT,
            Experiment::Counters => contention::counters::EXPERIMENT,
            Experiment::Gc => contention::gc::EXPERIMENT,
            Experiment::Pool => contention::pool::EXPERIMENT,
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|experiment| experiment.name() == name)
    }

    pub fn names() -> String {
        Self::all().iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
    }

    pub fn csv_file(self) -> String {
        format!("{}.csv", self.name())
    }
}

/// "quick", "default" or "custom" (sizes given on the command line): stated on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    Quick,
    Default,
    Custom,
}

/// Everything a run needs, decided and validated before anything is measured.
#[derive(Debug, Clone)]
pub struct MeasureOptions {
    pub experiments: Vec<Experiment>,
    pub profile: Profile,
    pub command_line: String,
    pub stride: contention::stride::Config,
    pub sharing: contention::sharing::Config,
    pub counters: contention::counters::Config,
    pub c2c: contention::c2c::Config,
    pub machine: contention::fitness::Config,
    pub gc: contention::gc::Config,
    /// Run the real Go benchmark beside the GC model (when `go` is on PATH).
    pub gc_go: bool,
    pub pool: contention::pool::Config,
}

impl MeasureOptions {
    /// Builds every selected experiment's config; a bad value is a usage error naming it.
    pub fn from_args(args: &MeasureArgs, experiments: &[Experiment]) -> Result<Self> {
        let mut unique = Vec::new();
        for &experiment in experiments {
            if !unique.contains(&experiment) {
                unique.push(experiment);
            }
        }
        let sized = !args.threads.is_empty()
            || !args.strides.is_empty()
            || args.iters.is_some()
            || args.trials.is_some()
            || args.total.is_some()
            || args.padding.is_some()
            || args.flush_every.is_some()
            || args.stripes.is_some()
            || !args.cpus.is_empty()
            || args.samples.is_some()
            || gc::sized(args)
            || pool::sized(args);
        let profile = match (sized, args.quick) {
            (true, _) => Profile::Custom,
            (false, true) => Profile::Quick,
            (false, false) => Profile::Default,
        };
        Ok(Self {
            stride: stride::config(args, unique.contains(&Experiment::Stride))?,
            sharing: sharing::config(args, unique.contains(&Experiment::Sharing))?,
            counters: counters::config(args, unique.contains(&Experiment::Counters))?,
            c2c: c2c::config(args, unique.contains(&Experiment::C2c))?,
            machine: machine::config(args, unique.contains(&Experiment::Machine))?,
            gc: gc::config(args, unique.contains(&Experiment::Gc))?,
            gc_go: !args.no_go,
            pool: pool::config(args, unique.contains(&Experiment::Pool))?,
            experiments: unique,
            profile,
            command_line: std::env::args().collect::<Vec<_>>().join(" "),
        })
    }
}

/// Measures one experiment and writes its rows to `dir/<name>.csv`.
pub fn measure(
    experiment: Experiment,
    options: &MeasureOptions,
    dir: &Path,
    progress: Progress,
) -> Result<ExperimentRecord> {
    match experiment {
        Experiment::Machine => {
            save(experiment, &options.machine, dir, || contention::fitness::run(&options.machine, progress))
        }
        Experiment::C2c => save(experiment, &options.c2c, dir, || contention::c2c::run(&options.c2c, progress)),
        Experiment::Stride => {
            save(experiment, &options.stride, dir, || contention::stride::run(&options.stride, progress))
        }
        Experiment::Sharing => {
            save(experiment, &options.sharing, dir, || contention::sharing::run(&options.sharing, progress))
        }
        Experiment::Counters => {
            save(experiment, &options.counters, dir, || contention::counters::run(&options.counters, progress))
        }
        Experiment::Gc => {
            let mut record = save(experiment, &options.gc, dir, || contention::gc::run(&options.gc, &mut *progress))?;
            let go = crate::gc_go::measure_beside(&options.gc, options.gc_go, dir, progress);
            record.config["go"] = serde_json::to_value(go).context("recording the Go benchmark's status")?;
            Ok(record)
        }
        Experiment::Pool => save(experiment, &options.pool, dir, || contention::pool::run(&options.pool, progress)),
    }
}

/// Runs one experiment, writes its rows whole to `dir/<name>.csv` and returns its record
/// (config, rows, time, machine conditions before and after).
fn save<C: Serialize, R: Serialize>(
    experiment: Experiment,
    config: &C,
    dir: &Path,
    run: impl FnOnce() -> Result<Outcome<R>, RunError>,
) -> Result<ExperimentRecord> {
    let mut record = ExperimentRecord::start(experiment, config)?;
    let outcome = run()?;
    write_csv(&dir.join(experiment.csv_file()), &outcome.rows)?;
    record.finish(outcome.rows.len(), outcome.budget_exhausted);
    Ok(record)
}
