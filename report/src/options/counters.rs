//! The counter layouts on the command line: flags to config.

use anyhow::Result;
use contention::counters::Config;
use contention::limits::MAX_INCREMENTS_PER_TRIAL;

use super::cli::MeasureArgs;
use super::sharing::one_thread_count;
use super::ExperimentOptions;
use crate::flag_values::{count, whole};

/// The counter layouts's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CountersOptions {
    /// Counters: the local-flush layout adds to the shared counter every K increments.
    #[arg(long, value_name = "K", value_parser = flush_every)]
    pub flush_every: Option<u64>,
    /// Counters: cells of the striped (LongAdder-like) counter.
    #[arg(long, value_name = "N", value_parser = stripes)]
    pub stripes: Option<usize>,
    /// Counters: shard counts of the shard-count sweep, e.g. 4,8,16,32,64 (the default).
    #[arg(long, value_delimiter = ',', value_name = "N", value_parser = shards)]
    pub shards: Vec<usize>,
}

impl ExperimentOptions for CountersOptions {
    type Kind = contention::counters::CounterLayouts;
    const SHARED: &'static [&'static str] = &["threads", "total", "trials"];

    /// Without `--total`, the increments per thread stay the default's whatever `--threads`
    /// says.
    fn apply(&self, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
        apply(self, config, args, selected)
    }
}

fn apply(flags: &CountersOptions, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
    if let Some(threads) = one_thread_count(args, selected, "the counter layouts")? {
        *config = config.clone().with_threads(threads);
    }
    if let Some(total) = args.total {
        config.total_increments = total;
    }
    if let Some(flush_every) = flags.flush_every {
        config.flush_every = flush_every;
    }
    if let Some(stripes) = flags.stripes {
        config.stripes = stripes;
    }
    if !flags.shards.is_empty() {
        config.shard_counts = flags.shards.clone();
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    Ok(())
}

fn flush_every(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_INCREMENTS_PER_TRIAL, || format!("1 to {MAX_INCREMENTS_PER_TRIAL} increments between flushes"))
}

fn stripes(text: &str) -> Result<usize, String> {
    count(text, contention::counters::MAX_STRIPES as u64, "cells")
}

fn shards(text: &str) -> Result<usize, String> {
    count(text, contention::counters::MAX_SHARDS as u64, "shards")
}
