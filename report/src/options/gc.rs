//! The GC sweep on the command line: flags to config.

use std::path::Path;

use anyhow::Result;
use contention::gc::{parse_ratios, Config};
use contention::harness::Progress;
use contention::limits::{MAX_TRIAL, MIN_TRIAL};
use contention::ConfigError;

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::runtime_status::GO_VERSION_KEY;
use crate::usage::usage;

/// The GC sweep's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GcOptions {}

impl ExperimentOptions for GcOptions {
    type Kind = contention::gc::GcSweep;

    fn config(&self, args: &MeasureArgs, selected: bool) -> Result<Config> {
        config(args, selected)
    }

    /// The real Go benchmark over the same grid, unless `--no-go` or no `go` on PATH.
    fn beside(config: &Config, args: &MeasureArgs, dir: &Path, progress: Progress) -> Option<serde_json::Value> {
        Some(crate::gc_go::measure_beside(config, !args.no_go, dir, progress).to_manifest(GO_VERSION_KEY))
    }
}

/// The sweep's config from the flags; validated only when the sweep was asked for.
fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if !args.threads.is_empty() {
        config.threads = args.threads.clone();
    }
    if !selected {
        return Ok(config);
    }
    if !args.ratios.is_empty() {
        config.ratios = parse_ratios(&args.ratios)?;
    }
    if let Some(seconds) = &args.seconds {
        config.trial = contention::limits::duration_from_seconds("seconds", seconds.value, MIN_TRIAL, MAX_TRIAL)
            .map_err(|error| usage(format!("invalid seconds = {}: {}", seconds.text, error.allowed)))?;
    }
    if let Some(workload) = &args.workload {
        config.workload = workload.parse()?;
    }
    config.live_bytes = args.live_bytes.unwrap_or(config.live_bytes);
    config.alloc_per_op_bytes = args.alloc_per_op.unwrap_or(config.alloc_per_op_bytes);
    config.ceiling_bytes = args.ceiling_bytes.unwrap_or(config.ceiling_bytes);
    config.trials = args.trials.unwrap_or(config.trials);
    // A ceiling given alone is what is wrong when it is too small for the other sizes.
    let smallest = config.smallest_ceiling_bytes();
    let ceiling_alone = args.ceiling_bytes.is_some() && args.live_bytes.is_none() && args.alloc_per_op.is_none();
    if ceiling_alone && config.ceiling_bytes < smallest {
        let allowed = format!(
            "at least {smallest} bytes: the live graph ({} bytes) plus 4 spans per worker and one more, and twice \
             an operation's allocation ({} bytes)",
            config.live_bytes, config.alloc_per_op_bytes
        );
        return Err(ConfigError::new("ceiling-bytes", config.ceiling_bytes, allowed).into());
    }
    config.validate()?;
    Ok(config)
}
