//! Core-to-core latency on the command line: flags to config.

use anyhow::Result;
use contention::c2c::Config;

use crate::cli::MeasureArgs;

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
