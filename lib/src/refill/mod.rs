//! Cache refill after a context switch (article C: "a cache miss after a switch costs 80 to
//! 120 ns"): a thread walks a warm working set, another thread on the same CPU runs and
//! touches its own memory, and the first thread walks its set again. Nanoseconds per line,
//! warm and after the switch, for a set the size of L1 and one the size of L2, with the
//! other thread touching nothing (the switch alone), more than L2, or more than L3.
//!
//! # Timing model
//!
//! Both threads are pinned to one logical CPU, so the hand-over is a real switch on it (as in
//! the pool's switch probe: `thread::park` / `unpark` on a turn counter). The owner builds its
//! working set ([`chase::WorkingSet`], one node per line in one random cycle), walks it twice
//! untimed, then times [`WARM_PASSES`] passes: the warm cost per line. It hands the CPU over
//! and sleeps; the other thread writes one word in every line of its buffer
//! ([`chase::Evictor`]) and hands the CPU back. The owner then times one pass: the cost per
//! line after the switch. Each timed pass reads the clock before and after it only; the
//! buffer and the set are allocated and first touched before the clock starts. The rounds
//! of trials are spread over the first half of the budget (a sleep between rounds, outside
//! any timing), so the article's case (C8) is sampled across the run and the bootstrap over
//! rounds sees the drift between its start and its end.

pub mod answers;
pub mod chart;
pub mod chase;
mod config;
mod flags;
pub mod present;
mod run;
mod summary;

pub use config::{Config, Evicts, MAX_BUFFER_BYTES};
pub use run::run;
pub use summary::{article_case, beside_article, finding, summarize, CaseSummary, Standing};

use serde::{Deserialize, Serialize};

pub const EXPERIMENT: &str = "refill";

/// Warm passes timed together: one pass over an L1-sized set takes a few hundred
/// nanoseconds, so several make the clock's own cost small.
pub const WARM_PASSES: usize = 8;

/// The cache-refill experiment, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct CacheRefill;

crate::experiment::measure!(
    CacheRefill,
    about: "Cache refill after a context switch: ns per line, warm and after (article C).",
    summary: CaseSummary,
    runtime_row: crate::experiment::NoRows;
    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// One trial of one case: a working set walked warm, then again after the switch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub working_set_bytes: u64,
    pub lines: u64,
    pub line_bytes: u64,
    /// What the other thread touched while it held the CPU: none, past L2, past L3.
    pub evicts: Evicts,
    /// Bytes the other thread wrote (one word per line).
    pub evict_bytes: u64,
    pub trial: u64,
    /// Per line over [`WARM_PASSES`] passes of the warm set.
    pub warm_ns_per_line: f64,
    /// Per line over the one pass after the other thread ran.
    pub switched_ns_per_line: f64,
    /// Voluntary and involuntary switches the process counted over the hand-over (at least
    /// two when the threads shared a CPU: the owner's sleep and the other's).
    pub switches: u64,
    /// Both threads were pinned to the one CPU.
    pub pinned: bool,
    /// The logical CPU they shared.
    pub cpu: u64,
}

crate::checked::checked_row!(
    Row,
    counts: [working_set_bytes, lines, line_bytes],
    amounts: [warm_ns_per_line, switched_ns_per_line],
    cpu_ids: [cpu]
);
