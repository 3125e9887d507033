//! Challenge A, false sharing: article A's sharded counter, `[8]int64`, one shard per
//! thread. Its eight shards sit side by side in one 64-byte cache line, so every add takes
//! the line from the core that added last. Make `YourCounter` faster; every add must still
//! be counted.
//!
//! Check it (from the repository root; `-- --quick` for a first try in seconds):
//!
//!     cargo run --release --example challenge-false-sharing
//!
//! The check refuses a counter that loses adds, then times the baseline, the lab's reference
//! fix and yours, interleaved, and judges your speed-up against the reference's on this
//! machine. Hints: docs/workshop.md, "Fix it yourself".

#[path = "common.rs"]
mod common;

use std::sync::atomic::{AtomicU64, Ordering};

use contention::challenge::false_sharing::{check, ShardedCounter, SHARDS};
use contention::challenge::Challenge;
use contention::counters::Padded64;

/// The baseline as handed out: eight atomics in one line. Edit it.
#[derive(Default)]
struct YourCounter {
    shards: Padded64<[AtomicU64; SHARDS]>,
}

impl ShardedCounter for YourCounter {
    fn new() -> Self {
        Self::default()
    }
    fn add(&self, shard: usize) {
        self.shards.0[shard % SHARDS].fetch_add(1, Ordering::Relaxed);
    }
    fn total(&self) -> u64 {
        self.shards.0.iter().map(|shard| shard.load(Ordering::Acquire)).sum()
    }
}

fn main() -> std::process::ExitCode {
    common::check_and_save(Challenge::FalseSharing, check::<YourCounter>)
}
