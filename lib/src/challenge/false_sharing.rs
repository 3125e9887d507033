//! Article A's sharded counter: `[8]int64`, one shard per goroutine, summed on read. Its
//! eight shards are 64 bytes in all: one cache line, so every add by one core takes the
//! line from the core that added last. The baseline keeps them compact; the reference fix
//! pads each shard to its own line pair ([`CachePadded`], as
//! [`crate::counters`] measures); any correct fix passes (padding, a per-thread sum flushed
//! at the end, another layout).
//!
//! # Timing model
//!
//! One trial builds a fresh counter, then one pinned thread per CPU (at most [`SHARDS`])
//! adds 1 to its own shard `adds` times, released together by the harness's start gate; the
//! trial's elapsed time runs from the earliest start to the latest finish, and gives adds
//! per second. `total()` is read after the threads are joined and must equal every add.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_utils::CachePadded;

use super::check::{measure_and_judge, Checked, Sample, Side};
use super::{Challenge, Plan};
use crate::counters::Padded64;
use crate::error::RunError;
use crate::harness::{run_team, Progress};
use crate::judgement::{Judgement, Status};
use crate::machine::logical_cpus;

/// The article's shard count: `[8]int64`.
pub const SHARDS: usize = 8;

/// A counter of [`SHARDS`] shards that threads add to, each its own shard, read once they
/// have all been joined.
pub trait ShardedCounter: Sync {
    /// A counter whose shards are all zero.
    fn new() -> Self
    where
        Self: Sized;
    /// Adds 1 to shard `shard` (0..[`SHARDS`]); each thread adds to its own shard.
    fn add(&self, shard: usize);
    /// The sum over every shard (called after every thread has been joined).
    fn total(&self) -> u64;
}

/// The baseline: the article's `[8]int64`, eight atomics side by side in one 64-byte line
/// (aligned to the line, so where it splits is the same on every run).
#[derive(Debug, Default)]
pub struct Compact {
    shards: Padded64<[AtomicU64; SHARDS]>,
}

impl ShardedCounter for Compact {
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

/// The reference fix: each shard padded to its own line pair.
#[derive(Debug, Default)]
pub struct Padded {
    shards: [CachePadded<AtomicU64>; SHARDS],
}

impl ShardedCounter for Padded {
    fn new() -> Self {
        Self::default()
    }
    fn add(&self, shard: usize) {
        self.shards[shard % SHARDS].fetch_add(1, Ordering::Relaxed);
    }
    fn total(&self) -> u64 {
        self.shards.iter().map(|shard| shard.load(Ordering::Acquire)).sum()
    }
}

/// Adds per thread in a full trial and a quick one.
fn adds_per_thread(plan: &Plan) -> u64 {
    if plan.quick {
        200_000
    } else {
        5_000_000
    }
}

/// Adds each of [`SHARDS`] threads makes in the correctness check.
const CHECKED_ADDS: u64 = 100_000;

/// Checks `Yours` for correctness, then measures it beside the baseline and the reference.
pub fn check<Yours: ShardedCounter>(plan: &Plan, progress: Progress) -> Result<Checked, RunError> {
    if let Err(wrong) = correctness::<Yours>() {
        return Ok(Checked::refused(Challenge::FalseSharing, wrong));
    }
    let threads = logical_cpus().min(SHARDS);
    let adds = adds_per_thread(plan);
    let mut verdict = measure_and_judge(Challenge::FalseSharing, plan, progress, true, |side, trial| match side {
        Side::Baseline => time::<Compact>(side, trial, threads, adds),
        Side::Reference => time::<Padded>(side, trial, threads, adds),
        Side::Yours => time::<Yours>(side, trial, threads, adds),
    })?;
    if threads < 2 {
        verdict.judgement = Judgement::new(
            Status::NotMeasurable,
            "a single CPU: the threads take turns on it, so no cache line moves between cores",
        );
    }
    Ok(Checked { challenge: Challenge::FalseSharing, wrong: None, verdict: Some(verdict) })
}

/// Every add counted: a new counter totals 0, and [`SHARDS`] threads adding
/// [`CHECKED_ADDS`] each to their own shard total exactly that.
pub fn correctness<C: ShardedCounter>() -> Result<(), String> {
    let counter = C::new();
    let start = counter.total();
    if start != 0 {
        return Err(format!("a new counter's total() is {start}, not 0"));
    }
    run_team(Challenge::FalseSharing.name(), SHARDS, |shard| {
        for _ in 0..CHECKED_ADDS {
            counter.add(shard);
        }
    })
    .map_err(|error| error.to_string())?;
    let expected = SHARDS as u64 * CHECKED_ADDS;
    let total = counter.total();
    if total != expected {
        let lost = expected.abs_diff(total);
        let what = if total < expected { "adds lost" } else { "adds counted that never happened" };
        return Err(format!(
            "every add must be counted: {SHARDS} threads added {CHECKED_ADDS} each ({expected} in all), \
             total() gave {total}: {lost} {what}"
        ));
    }
    Ok(())
}

/// One trial of counter `C` (see the module's timing model).
fn time<C: ShardedCounter>(side: Side, trial: usize, threads: usize, adds: u64) -> Result<Sample, RunError> {
    let counter = C::new();
    let timing = run_team(Challenge::FalseSharing.name(), threads, |shard| {
        // One call per add, inlined (the counter's type is known here): the add itself is
        // the loop's whole work; `black_box` keeps the count from being folded.
        for _ in 0..black_box(adds) {
            counter.add(black_box(shard));
        }
    })?;
    let expected = threads as u64 * adds;
    let total = counter.total();
    if total != expected {
        let case = format!("{}: adds counted", side.label());
        return Err(RunError::Verification { experiment: "challenge", case, trial, expected, actual: total });
    }
    let seconds = timing.elapsed.as_secs_f64().max(1e-9);
    Ok(Sample { side, trial, per_sec: expected as f64 / seconds, pinned: timing.pinned, cycles_per_sec: None })
}
