//! Thread-pool sizing on the command line: flags to config, rows to CSV.

use std::time::Duration;

use anyhow::Result;
use clap::ValueEnum;
use contention::pool::{Config, Variant};

use crate::cli::MeasureArgs;
use crate::load::{Column, Kind};
use crate::usage::usage;

/// `--variant`: one way of serving the requests, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    Fixed,
    Split,
    Async,
    All,
}

/// The CSV columns of [`Row`], in order, with their types.
pub const COLUMNS: &[Column] = &[
    Column::new("variant", Kind::Text),
    Column::new("hit_rate", Kind::Float),
    Column::new("pool_threads", Kind::Unsigned),
    Column::new("db_connections", Kind::Unsigned),
    Column::new("trial", Kind::Unsigned),
    Column::new("cpus", Kind::Unsigned),
    Column::new("offered_rate_per_s", Kind::Float),
    Column::new("formula_threads", Kind::Unsigned),
    Column::new("mean_wait_ms", Kind::Float),
    Column::new("cpu_work_ns", Kind::Unsigned),
    Column::new("arrived", Kind::Unsigned),
    Column::new("completed", Kind::Unsigned),
    Column::new("completed_in_window", Kind::Unsigned),
    Column::new("dropped", Kind::Unsigned),
    Column::new("window_ns", Kind::Unsigned),
    Column::new("elapsed_ns", Kind::Unsigned),
    Column::new("completed_per_s", Kind::Float),
    Column::new("p50_ms", Kind::Float),
    Column::new("p99_ms", Kind::Float),
    Column::new("p999_ms", Kind::Float),
    Column::new("max_ms", Kind::Float),
    Column::new("histogram_count", Kind::Unsigned),
    Column::new("voluntary_switches", Kind::Unsigned),
    Column::new("involuntary_switches", Kind::Unsigned),
    Column::new("cpu_used_ns", Kind::Unsigned),
    Column::new("cpu_share", Kind::Float),
    Column::new("peak_queue", Kind::Unsigned),
    Column::new("peak_db_queue", Kind::Unsigned),
    Column::new("peak_rss_bytes", Kind::Unsigned),
    Column::new("switch_cost_ns", Kind::Float),
    Column::new("switch_probe_pinned", Kind::Bool),
    Column::new("verified", Kind::Bool),
];

/// True when any pool flag sets a size, so the run's profile is "custom".
pub fn sized(args: &MeasureArgs) -> bool {
    !args.pool_sizes.is_empty()
        || !args.hit.is_empty()
        || args.rate.is_some()
        || args.seconds.is_some()
        || args.variant.is_some()
        || !args.hit_wait_ms.is_empty()
        || !args.miss_wait_ms.is_empty()
}

/// The experiment's config from the flags; validated only when it was asked for.
pub fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if !args.pool_sizes.is_empty() {
        config.pool_sizes = Some(args.pool_sizes.clone());
    }
    if !args.hit.is_empty() {
        config.hit_rates = args.hit.clone();
    }
    config.rate_per_s = args.rate.or(config.rate_per_s);
    if let Some(seconds) = args.seconds {
        config.window = Duration::try_from_secs_f64(seconds)
            .map_err(|_| usage(format!("invalid seconds = {seconds}: a run length above 0 seconds")))?;
    }
    if let Some(variant) = args.variant {
        config.variants = match variant {
            VariantArg::Fixed => vec![Variant::Fixed],
            VariantArg::Split => vec![Variant::Split],
            VariantArg::Async => vec![Variant::Async],
            VariantArg::All => Variant::ALL.to_vec(),
        };
    }
    if let Some(range) = wait_range("hit-wait-ms", &args.hit_wait_ms)? {
        config.hit_wait_ms = range;
    }
    if let Some(range) = wait_range("miss-wait-ms", &args.miss_wait_ms)? {
        config.miss_wait_ms = range;
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}

fn wait_range(flag: &str, values: &[f64]) -> Result<Option<[f64; 2]>> {
    match values {
        [] => Ok(None),
        &[low, high] => Ok(Some([low, high])),
        other => Err(usage(format!(
            "invalid {flag} = {}: two milliseconds, MIN,MAX",
            other.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
        ))),
    }
}
