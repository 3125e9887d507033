//! The counter layouts' flags: `--threads` (one count), `--total`, `--trials` and the
//! layouts' own sizes. Without `--total`, the increments per thread stay the default's
//! whatever `--threads` says.

use super::{Config, MAX_SHARDS, MAX_STRIPES, MAX_THREADS};
use crate::flags::{count, whole, Flag, Flags, Shared, Threads};
use crate::limits::MAX_INCREMENTS_PER_TRIAL;

pub fn flags() -> Flags<Config> {
    let one_count = |config: &mut Config, threads| *config = config.clone().with_threads(threads);
    Flags {
        shared: vec![
            Shared::Threads { most: MAX_THREADS, read: Threads::One { what: "the counter layouts", set: one_count } },
            Shared::Total(|config, total| config.total_increments = total),
            Shared::Trials(|config, trials| config.trials = trials),
        ],
        own: vec![
            Flag::one(
                "flush-every",
                "K",
                "Counters: the local-flush layout adds to the shared counter every K increments",
                flush_every,
                |config, flush_every| config.flush_every = flush_every,
            ),
            Flag::one(
                "stripes",
                "N",
                "Counters: cells of the striped (LongAdder-like) counter",
                |text| count(text, MAX_STRIPES as u64, "cells"),
                |config, stripes| config.stripes = stripes,
            ),
            Flag::list(
                "shards",
                "N",
                "Counters: shard counts of the shard-count sweep, e.g. 4,8,16,32,64 (the default)",
                |text| count(text, MAX_SHARDS as u64, "shards"),
                |config, shards| config.shard_counts = shards,
            ),
        ],
        ..Flags::default()
    }
}

fn flush_every(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_INCREMENTS_PER_TRIAL, || format!("1 to {MAX_INCREMENTS_PER_TRIAL} increments between flushes"))
}
