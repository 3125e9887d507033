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

    fn config(&self, args: &MeasureArgs, selected: bool) -> Result<Config> {
        let mut config = if args.quick { Config::quick() } else { Config::default() };
        if let Some(trials) = args.trials {
            config.trials = trials;
        }
        if selected {
            config.validate()?;
        }
        Ok(config)
    }
}
