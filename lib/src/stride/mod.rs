//! The stride sweep (article A's minimal repro): one counter per thread, counters placed
//! `stride` bytes apart in one page-aligned allocation. Counters closer than a cache line
//! share it, and every increment must take the line from the other cores.

pub mod answers;
pub mod chart;
mod config;
mod flags;
pub mod present;
mod row;
mod run;
mod summary;
pub use config::Config;
pub use row::Row;
pub use run::run;
pub use summary::{
    article_ns_per_add, fewer_threads_findings, finding, knee, summarize, summarize_team, teams, Knee, StrideSummary,
    ARTICLE_ITERS_PER_THREAD,
};

pub const EXPERIMENT: &str = "stride";

/// The stride sweep, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct StrideSweep;

crate::experiment::measure!(
    StrideSweep,
    about: "False sharing: counters at growing distances (article A).",
    summary: StrideSummary,
    runtime_row: crate::experiment::NoRows;
    fn placements(rows: &[Row]) -> Vec<(&str, bool)> {
        rows.iter().map(|row| (row.cpus.as_str(), row.pinned)).collect()
    }

    fn cache_misses(rows: &[Row]) -> Vec<crate::perf::CounterReading> {
        rows.iter().map(|row| row.cache_misses).collect()
    }

    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

pub use crate::arena::MAX_ARENA_BYTES;
/// Most worker threads accepted (see [`crate::limits::MAX_TEAM_THREADS`]).
pub const MAX_THREADS: usize = crate::limits::MAX_TEAM_THREADS;
/// Most strides one sweep measures; every stride's arena is allocated before the trials.
pub const MAX_STRIDES: usize = 32;

/// The threads of the article's clean half of claim A10 (its 64-byte stride paid nothing).
pub const ARTICLE_CLEAN_THREADS: usize = 2;

/// A median within this fraction of the best counts as "as fast as the best".
pub const KNEE_TOLERANCE: f64 = 0.10;
