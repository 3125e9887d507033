//! The GC sweep on the command line: flags to config, rows to CSV.

use std::time::Duration;

use anyhow::Result;
use contention::gc::{Config, GcRatio};

use crate::cli::MeasureArgs;
use crate::load::{Column, Kind};
use crate::usage::usage;

/// The CSV columns of the model's [`contention::gc::Row`], in order, with their types.
pub const COLUMNS: &[Column] = &[
    Column::new("threads", Kind::Unsigned),
    Column::new("ratio", Kind::Text),
    Column::new("trial", Kind::Unsigned),
    Column::new("workload", Kind::Text),
    Column::new("elapsed_ns", Kind::Unsigned),
    Column::new("operations", Kind::Unsigned),
    Column::new("ops_per_sec", Kind::Float),
    Column::new("cycles", Kind::Unsigned),
    Column::new("cycles_per_sec", Kind::Float),
    Column::new("ceiling_cycles", Kind::Unsigned),
    Column::new("pause_total_ns", Kind::Unsigned),
    Column::new("pause_max_ns", Kind::Unsigned),
    Column::new("pause_share", Kind::Float),
    Column::new("stop_ns", Kind::Unsigned),
    Column::new("mark_ns", Kind::Unsigned),
    Column::new("sweep_ns", Kind::Unsigned),
    Column::new("refill_wait_ns", Kind::Unsigned),
    Column::new("refills", Kind::Unsigned),
    Column::new("mark_workers", Kind::Unsigned),
    Column::new("trigger_bytes", Kind::Unsigned),
    Column::new("peak_heap_bytes", Kind::Unsigned),
    Column::new("ceiling_bytes", Kind::Unsigned),
    Column::new("live_bytes", Kind::Unsigned),
    Column::new("live_nodes", Kind::Unsigned),
    Column::new("nodes_marked", Kind::Unsigned),
    Column::new("stacks_scanned", Kind::Unsigned),
    Column::new("alloc_per_op_bytes", Kind::Unsigned),
    Column::new("objects_per_op", Kind::Unsigned),
    Column::new("objects_allocated", Kind::Unsigned),
    Column::new("objects_freed", Kind::Unsigned),
    Column::new("objects_outstanding", Kind::Unsigned),
    Column::new("bytes_allocated", Kind::Unsigned),
    Column::new("bytes_freed", Kind::Unsigned),
    Column::new("bytes_outstanding", Kind::Unsigned),
    Column::new("survivor_objects", Kind::Unsigned),
    Column::new("pinned", Kind::Bool),
    Column::new("verified", Kind::Bool),
];

/// The CSV columns of the Go benchmark's [`contention::gc::GoRow`] (`gc-go.csv`).
pub const GO_COLUMNS: &[Column] = &[
    Column::new("threads", Kind::Unsigned),
    Column::new("ratio", Kind::Text),
    Column::new("trial", Kind::Unsigned),
    Column::new("go_version", Kind::Text),
    Column::new("elapsed_ns", Kind::Unsigned),
    Column::new("operations", Kind::Unsigned),
    Column::new("ops_per_sec", Kind::Float),
    Column::new("cycles", Kind::Unsigned),
    Column::new("cycles_per_sec", Kind::Float),
    Column::new("pause_total_ns", Kind::Unsigned),
    Column::new("pause_share", Kind::Float),
    Column::new("pause_metric", Kind::Text),
    Column::new("alloc_bytes_per_op", Kind::Float),
    Column::new("alloc_objects_per_op", Kind::Float),
    Column::new("verified", Kind::Bool),
];

/// Whether any GC-only size was given (the run's profile is then "custom").
pub fn sized(args: &MeasureArgs) -> bool {
    !args.ratios.is_empty()
        || args.seconds.is_some()
        || args.live_bytes.is_some()
        || args.alloc_per_op.is_some()
        || args.ceiling_bytes.is_some()
        || args.workload.is_some()
}

/// The sweep's config from the flags; validated only when the sweep was asked for.
pub fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if !args.threads.is_empty() {
        config.threads = args.threads.clone();
    }
    if !selected {
        return Ok(config);
    }
    if !args.ratios.is_empty() {
        config.ratios = args.ratios.iter().map(|text| text.parse::<GcRatio>()).collect::<Result<_, _>>()?;
    }
    if let Some(seconds) = args.seconds {
        config.trial = Duration::try_from_secs_f64(seconds)
            .map_err(|_| usage(format!("invalid seconds = {seconds}: a number of seconds above 0, e.g. 0.5")))?;
    }
    if let Some(workload) = &args.workload {
        config.workload = workload.parse()?;
    }
    config.live_bytes = args.live_bytes.unwrap_or(config.live_bytes);
    config.alloc_per_op_bytes = args.alloc_per_op.unwrap_or(config.alloc_per_op_bytes);
    config.ceiling_bytes = args.ceiling_bytes.unwrap_or(config.ceiling_bytes);
    config.trials = args.trials.unwrap_or(config.trials);
    config.validate()?;
    Ok(config)
}
