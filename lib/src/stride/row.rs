//! The stride sweep's saved row: one trial at one stride.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::perf::CounterReading;

/// One trial at one stride.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub stride_bytes: u64,
    pub threads: u64,
    pub trial: u64,
    /// Trials the config asked for per stride (fewer ran when the budget was spent).
    pub trials_planned: u64,
    pub iters_per_thread: u64,
    pub elapsed_ns: u64,
    /// Elapsed time divided by the increments each thread did (threads run concurrently).
    pub ns_per_op: f64,
    /// Every thread ran pinned to its own logical CPU.
    pub pinned: bool,
    /// The logical CPUs the workers ran on, in worker order ("0,2,4,6").
    pub cpus: String,
    /// Last-level cache misses during the workers' work, or "unavailable" (see
    /// [`crate::perf`]): a transfer between cores of one socket is mostly an LLC hit.
    pub cache_misses: CounterReading,
    /// Loads that found their line modified in another core's cache (the coherence
    /// transfer false sharing is made of), or "unavailable" where the PMU has no such event.
    pub snoop_hit_modified: CounterReading,
}

crate::checked::checked_row!(
    Row, counts: [stride_bytes], amounts: [ns_per_op], threads: [threads], cpu_lists: [cpus],
    cases: |row| row.stride_bytes
);

impl Row {
    /// The trial's elapsed time.
    pub fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.elapsed_ns)
    }
}
