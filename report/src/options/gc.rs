//! The GC sweep on the command line: flags to config.

use std::time::Duration;

use anyhow::Result;
use contention::gc::{Config, GcRatio};

use crate::cli::MeasureArgs;
use crate::usage::usage;

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
