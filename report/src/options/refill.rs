//! Cache refill after a switch on the command line: flags to config (its sizes come from
//! this machine's caches; `--trials` sets the trials per case).

use anyhow::Result;
use contention::refill::Config;

use super::cli::MeasureArgs;
use super::ExperimentOptions;

/// The refill experiment's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RefillOptions {}

impl ExperimentOptions for RefillOptions {
    type Kind = contention::refill::CacheRefill;
    const SHARED: &'static [&'static str] = &["trials"];

    fn apply(&self, config: &mut Config, args: &MeasureArgs, _selected: bool) -> Result<()> {
        if let Some(trials) = args.trials {
            config.trials = trials;
        }
        Ok(())
    }
}
