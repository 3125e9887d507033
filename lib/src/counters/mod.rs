//! The fixes for a hot counter, side by side (article A's padded shards, article C's
//! `AtomicLong` and `LongAdder`): the same total of increments through seven layouts, each
//! verified, each row carrying the bytes the layout uses, so the report can say "X times
//! faster for Y times the memory".
//!
//! Beside them, the shard-count sweep (article A's first wrong turn: 2 to 64 shards changed
//! nothing): the compact and the cache-padded array at several shard counts, the same
//! threads, so the run can say whether the number of shards matters.
//!
//! The layouts live in `layouts` (sharded, locked, shared) and `spread` (striped, local
//! flush); running them in `run`, summarising in `summary` and `shards`.

pub mod answers;
pub mod chart;
mod counter;
mod flags;
mod layouts;
pub mod present;
mod run;
mod shards;
mod spread;
mod summary;

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::limits::{check_even_total, check_range, check_trials, check_warmup_and_budget, MAX_INCREMENTS_PER_TRIAL};
use crate::machine::logical_cpus;

pub use crate::format::format_count;
pub use counter::Counter;
pub use layouts::{
    build, build_shards, counters_memory_bytes, Padded64, ARTICLE_PADDED_SHARD_BYTES, ARTICLE_SHARDS,
    CACHE_PADDED_BYTES, COMPACT_SHARD_BYTES,
};
pub use run::{run, trial};
pub use shards::{
    shard_dependence, shard_finding, summarize_shards, ShardDependence, ShardSummary, SHARD_SWEEP_LAYOUTS,
};
pub use summary::{finding, format_bytes, headline, summarize, LayoutSummary, EXTRAPOLATED_COUNTERS};

pub const EXPERIMENT: &str = "counters";

/// The counter layouts, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct CounterLayouts;

crate::experiment::measure!(
    CounterLayouts,
    about: "Hot-counter fixes side by side with their memory: padded, striped, local flush (A, C).",
    summary: LayoutSummary,
    runtime_row: crate::experiment::NoRows;
    fn placements(rows: &[Row]) -> Vec<(&str, bool)> {
        rows.iter().map(|row| (row.cpus.as_str(), row.pinned)).collect()
    }

    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// Most worker threads accepted (see [`crate::limits::MAX_TEAM_THREADS`]).
pub const MAX_THREADS: usize = crate::limits::MAX_TEAM_THREADS;
/// Most cells the striped counter may have (LongAdder stops at the CPU count).
pub const MAX_STRIPES: usize = 4096;
/// Most shards one array of the shard-count sweep may have.
pub const MAX_SHARDS: usize = 4096;
/// Most shard counts one sweep may list.
pub const MAX_SHARD_COUNTS: usize = 16;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub threads: usize,
    /// Increments in every layout, split evenly over the threads, at least: each layout's
    /// are raised on their own until its trial takes
    /// [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME), and layouts compare per add.
    pub total_increments: u64,
    /// The local-flush layout adds its local count to the shared one every this many
    /// increments (the remainder at the end).
    pub flush_every: u64,
    /// Cells of the striped layout.
    pub stripes: usize,
    /// Shard counts of the shard-count sweep (compact and cache-padded arrays, the same
    /// threads); empty: no sweep.
    pub shard_counts: Vec<usize>,
    /// Measured trials per layout.
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance; checked after each round of trials over all layouts.
    pub budget: Duration,
}

/// The article's shard count and increments per thread (8 goroutines, 10 M adds each).
const DEFAULT_THREADS: usize = 8;
const INCREMENTS_PER_THREAD: u64 = 10_000_000;
/// The quick profile's least work per thread: calibration raises each layout's own until
/// its trial takes [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME).
const QUICK_INCREMENTS_PER_THREAD: u64 = 20_000;
/// The article's shard counts, 2 to 64 (up from its 8 to 16, 32 and 64, down to 4 and 2).
pub const DEFAULT_SHARD_COUNTS: [usize; 6] = [2, 4, 8, 16, 32, 64];

impl Default for Config {
    /// The article's sizes: 8 threads (fewer if the machine has fewer CPUs), 10 M
    /// increments each; 1024 increments per flush; as many stripes as LongAdder would grow
    /// to (the CPU count rounded up to a power of two).
    fn default() -> Self {
        let threads = logical_cpus().min(DEFAULT_THREADS);
        Self {
            threads,
            total_increments: INCREMENTS_PER_THREAD * threads as u64,
            flush_every: 1024,
            stripes: logical_cpus().next_power_of_two(),
            shard_counts: DEFAULT_SHARD_COUNTS.to_vec(),
            trials: 5,
            warmup: Duration::from_millis(300),
            budget: Duration::from_secs(300),
        }
    }
}

impl Config {
    /// Seconds, not minutes: each case's trial sized to about
    /// [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME), and 9 trials (19 cases: the
    /// layouts and the shard-count sweep). Short trials are rarely cut by the scheduler on a
    /// busy machine, and 9 of them give the median an interval tighter than min..max.
    pub fn quick() -> Self {
        let default = Self::default();
        Self {
            total_increments: QUICK_INCREMENTS_PER_THREAD * default.threads as u64,
            trials: 9,
            warmup: Duration::from_millis(50),
            budget: Duration::from_secs(8),
            ..default
        }
    }

    /// The same config with another thread count, keeping the increments per thread (so
    /// the total follows the threads and still splits evenly).
    pub fn with_threads(self, threads: usize) -> Self {
        let per_thread = self.increments_per_thread();
        Self { threads, total_increments: per_thread.saturating_mul(threads as u64), ..self }
    }

    pub fn increments_per_thread(&self) -> u64 {
        self.total_increments / self.threads.max(1) as u64
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        check_range("threads", self.threads, 1, MAX_THREADS, "threads")?;
        check_even_total(self.total_increments, self.threads)?;
        let unit = "increments between flushes (e.g. 1024)";
        check_range("flush-every", self.flush_every, 1, MAX_INCREMENTS_PER_TRIAL, unit)?;
        check_range("stripes", self.stripes, 1, MAX_STRIPES, "cells")?;
        check_shard_counts(&self.shard_counts)?;
        check_trials(self.trials, 1)?;
        check_warmup_and_budget(self.warmup, self.budget)
    }
}

/// At most [`MAX_SHARD_COUNTS`] counts, each 1 to [`MAX_SHARDS`], none twice.
fn check_shard_counts(counts: &[usize]) -> Result<(), ConfigError> {
    if counts.len() > MAX_SHARD_COUNTS {
        let listed = counts.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        return Err(ConfigError::new("shards", listed, format!("at most {MAX_SHARD_COUNTS} shard counts")));
    }
    for (index, &count) in counts.iter().enumerate() {
        check_range("shards", count, 1, MAX_SHARDS, "shards")?;
        if counts[..index].contains(&count) {
            return Err(ConfigError::new("shards", count, "each shard count listed once"));
        }
    }
    Ok(())
}

/// Which part of the experiment a row belongs to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// The seven layouts side by side (rows saved before the sweep existed are these).
    #[default]
    Layouts,
    /// The shard-count sweep: a compact or cache-padded array of `cells` shards.
    ShardSweep,
}

/// The seven ways of counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    Compact,
    #[serde(rename = "padded-64")]
    Padded64,
    CachePadded,
    Mutex,
    SharedAtomic,
    Striped,
    LocalFlush,
}

impl Layout {
    pub const ALL: [Layout; 7] = [
        Layout::Compact,
        Layout::Padded64,
        Layout::CachePadded,
        Layout::Mutex,
        Layout::SharedAtomic,
        Layout::Striped,
        Layout::LocalFlush,
    ];

    /// The name rows and CSV files use ("padded-64").
    pub fn name(self) -> &'static str {
        match self {
            Layout::Compact => "compact",
            Layout::Padded64 => "padded-64",
            Layout::CachePadded => "cache-padded",
            Layout::Mutex => "mutex",
            Layout::SharedAtomic => "shared-atomic",
            Layout::Striped => "striped",
            Layout::LocalFlush => "local-flush",
        }
    }

    /// A short label for chart axes.
    pub fn short_label(self) -> &'static str {
        match self {
            Layout::Compact => "compact",
            Layout::Padded64 => "padded 64",
            Layout::CachePadded => "CachePadded",
            Layout::Mutex => "Mutex",
            Layout::SharedAtomic => "one atomic",
            Layout::Striped => "striped",
            Layout::LocalFlush => "local + flush",
        }
    }

    /// What the layout is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Layout::Compact => "one atomic per thread, 8 bytes apart (the article's [8]int64)",
            Layout::Padded64 => "one atomic per thread, each padded to 64 bytes",
            Layout::CachePadded => "one atomic per thread in crossbeam's CachePadded (128 bytes on x86_64 and aarch64)",
            Layout::Mutex => "one Mutex<i64> for all threads",
            Layout::SharedAtomic => "one atomic for all threads (Java's AtomicLong)",
            Layout::Striped => {
                "padded cells, a thread picks one and moves on collision, read sums them (Java's LongAdder)"
            }
            Layout::LocalFlush => "a plain local count per thread, added to one atomic every K increments",
        }
    }
}

/// One trial of one layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub layout: Layout,
    pub threads: u64,
    pub trial: u64,
    /// Trials the config asked for per layout (fewer ran when the budget was spent).
    pub trials_planned: u64,
    pub total_increments: u64,
    pub increments_per_thread: u64,
    /// Memory cells the layout uses (shards, stripes, or one shared value).
    pub cells: u64,
    /// Bytes the layout's cells occupy.
    pub bytes_used: u64,
    /// Increments per write to memory other threads see: the flush interval for
    /// local-flush, 1 for every other layout.
    pub increments_per_write: u64,
    pub elapsed_ns: u64,
    /// Elapsed time divided by the increments each thread did (threads run concurrently).
    pub ns_per_increment: f64,
    /// Every thread ran pinned to its own logical CPU.
    pub pinned: bool,
    /// The logical CPUs the workers ran on, in worker order ("0,2,4,6").
    pub cpus: String,
    /// The layouts, or the shard-count sweep (absent in runs saved before the sweep: layouts).
    #[serde(default)]
    pub part: Part,
}

crate::checked::checked_row!(
    Row, counts: [cells], amounts: [ns_per_increment], threads: [threads], cpu_lists: [cpus]
);
