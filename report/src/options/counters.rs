//! The counter layouts on the command line: flags to config.

use anyhow::Result;
use contention::counters::Config;

use super::cli::MeasureArgs;
use super::sharing::one_thread_count;
use super::ExperimentOptions;

/// The counter layouts's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CountersOptions {}

impl ExperimentOptions for CountersOptions {
    type Kind = contention::counters::CounterLayouts;

    fn config(&self, args: &MeasureArgs, selected: bool) -> Result<Config> {
        config(args, selected)
    }
}

/// The layouts' config from the flags; validated only when they were asked for. Without
/// `--total`, the increments per thread stay the default's whatever `--threads` says.
fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if let Some(threads) = one_thread_count(args, selected, "the counter layouts")? {
        config = config.with_threads(threads);
    }
    if let Some(total) = args.total {
        config.total_increments = total;
    }
    if let Some(flush_every) = args.flush_every {
        config.flush_every = flush_every;
    }
    if let Some(stripes) = args.stripes {
        config.stripes = stripes;
    }
    if !args.shards.is_empty() {
        config.shard_counts = args.shards.clone();
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}
