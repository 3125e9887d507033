//! The machine experiment's scaling and noise check on the command line: flags to config.

use anyhow::Result;
use contention::fitness::Config;

use super::cli::MeasureArgs;
use super::ExperimentOptions;

/// The machine check's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct MachineOptions {}

impl ExperimentOptions for MachineOptions {
    type Kind = contention::fitness::MachineCheck;
    const SHARED: &'static [&'static str] = &["iters", "trials"];

    fn config(&self, args: &MeasureArgs, selected: bool) -> Result<Config> {
        config(args, selected)
    }
}

/// The check's config from the flags (`--iters`, `--trials`); validated when selected.
fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
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
