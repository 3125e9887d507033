//! Core-to-core latency on the command line: flags to config, rows to CSV.

use anyhow::Result;
use contention::c2c::Config;

use crate::cli::MeasureArgs;
use crate::load::{Column, Kind};

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
