//! The stride sweep on the command line: flags to config.

use anyhow::Result;
use contention::stride::Config;

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::usage::usage;

/// The stride sweep's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StrideOptions {}

impl ExperimentOptions for StrideOptions {
    type Kind = contention::stride::StrideSweep;

    fn config(&self, args: &MeasureArgs, selected: bool) -> Result<Config> {
        config(args, selected)
    }
}

/// The sweep's config from the flags; validated only when the sweep was asked for.
fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    match args.threads.as_slice() {
        [] => {}
        [threads] => config.threads = *threads,
        many if selected => {
            return Err(usage(format!(
                "invalid threads = {}: the stride sweep takes one thread count",
                many.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
            )))
        }
        _ => {}
    }
    if !args.strides.is_empty() {
        config.strides_bytes = args.strides.clone();
    }
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
