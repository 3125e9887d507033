//! The machine experiment's scaling and noise check on the command line: flags to config.

use anyhow::Result;
use contention::machine_check::Config;

use super::cli::MeasureArgs;
use super::ExperimentOptions;

/// The machine check's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct MachineOptions {}

impl ExperimentOptions for MachineOptions {
    type Kind = contention::machine_check::MachineCheck;
    const SHARED: &'static [&'static str] = &["iters", "trials"];

    /// `--iters` and `--trials`.
    fn apply(&self, config: &mut Config, args: &MeasureArgs, _selected: bool) -> Result<()> {
        if let Some(iters) = args.iters {
            config.iters_per_thread = iters;
        }
        if let Some(trials) = args.trials {
            config.trials = trials;
        }
        Ok(())
    }
}
