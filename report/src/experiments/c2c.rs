//! Core-to-core latency on the command line: flags to config, rows to CSV.

use std::path::Path;

use anyhow::Result;
use contention::c2c::{self, Config, Row};
use contention::harness::Progress;

use super::Experiment;
use crate::cli::MeasureArgs;
use crate::load::{Column, Kind};
use crate::manifest::ExperimentRecord;
use crate::run_dir::write_csv;

/// The CSV columns of [`Row`], in order, with their types.
pub const COLUMNS: &[Column] = &[
    Column::new("cpu_a", Kind::Unsigned),
    Column::new("cpu_b", Kind::Unsigned),
    Column::new("sample", Kind::Unsigned),
    Column::new("round_trips", Kind::Unsigned),
    Column::new("elapsed_ns", Kind::Unsigned),
    Column::new("one_way_ns", Kind::Float),
    Column::new("pinned", Kind::Bool),
];

/// The matrix's config from the flags; validated only when it was asked for, so an
/// unknown CPU id is refused (exit 2) before anything is measured.
pub fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if !args.cpus.is_empty() {
        config.cpus = args.cpus.clone();
    }
    if let Some(samples) = args.samples {
        config.samples_per_pair = samples;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}

pub fn measure(config: &Config, dir: &Path, progress: Progress) -> Result<ExperimentRecord> {
    let mut record = ExperimentRecord::start(Experiment::C2c, config)?;
    let outcome = c2c::run(config, progress)?;
    write_csv::<Row>(&dir.join(Experiment::C2c.csv_file()), &outcome.rows)?;
    record.finish(outcome.rows.len(), outcome.budget_exhausted);
    Ok(record)
}
