//! The article's virtual-thread claims on this run: the memory that 320 platform threads
//! cost (C18: "about 300 MB less"), and what blocking inside a virtual thread does (C19:
//! pinned inside `synchronized`, the gain is gone). The first compares the incident pool
//! with the async tasks in both kinds of memory; the second the async tasks that block their
//! workers with the ones that wait on timers, against workers / (wait + work).

use serde::{Deserialize, Serialize};

use super::finding::MIN_TRIALS_FOR_CLAIM;
use super::summary::PoolSummary;
use super::Variant;
use crate::format;
use crate::stats::Ratio;

/// Pool threads per CPU of the article's incident (320 on 8 cores).
const INCIDENT_PER_CPU: u64 = 40;

/// The incident pool's memory against the async tasks'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryFigures {
    pub pool_threads: u64,
    pub async_workers: u64,
    /// Address space reserved (VmSize), peak over the trials.
    pub pool_reserved_bytes: u64,
    pub async_reserved_bytes: u64,
    /// Resident set (committed, touched), peak over the trials.
    pub pool_rss_bytes: u64,
    pub async_rss_bytes: u64,
    /// The extra threads' stacks: (pool threads - workers) x the stack each reserves.
    pub extra_stacks_bytes: u64,
}

/// The case of `variant` at the first hit rate.
fn at(summaries: &[PoolSummary], variant: Variant) -> Option<&PoolSummary> {
    let hit = summaries.first()?.key.hit_rate;
    summaries.iter().find(|s| s.key.variant == variant && s.key.hit_rate == hit)
}

/// The incident pool (40 per CPU, else the largest fixed pool) against the async tasks,
/// when both recorded both kinds of memory.
pub fn memory_figures(summaries: &[PoolSummary]) -> Option<MemoryFigures> {
    let tasks = at(summaries, Variant::Async)?;
    let hit = tasks.key.hit_rate;
    let fixed = || summaries.iter().filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == hit);
    let pool = fixed().find(|s| s.key.pool_threads == INCIDENT_PER_CPU * s.cpus).or(fixed().next_back())?;
    let recorded = |s: &PoolSummary| s.reserved_bytes > 0 && s.peak_rss_bytes > 0;
    if !(recorded(pool) && recorded(tasks)) {
        return None;
    }
    Some(MemoryFigures {
        pool_threads: pool.key.pool_threads,
        async_workers: tasks.key.pool_threads,
        pool_reserved_bytes: pool.reserved_bytes,
        async_reserved_bytes: tasks.reserved_bytes,
        pool_rss_bytes: pool.peak_rss_bytes,
        async_rss_bytes: tasks.peak_rss_bytes,
        extra_stacks_bytes: pool.key.pool_threads.saturating_sub(tasks.key.pool_threads) * pool.thread_stack_bytes,
    })
}

/// Which memory the article's 300 MB is, from this run's two readings.
pub fn memory_finding(summaries: &[PoolSummary]) -> Option<String> {
    let m = memory_figures(summaries)?;
    let difference = |a: u64, b: u64| {
        if a >= b {
            format!("{} more", format::bytes(a - b))
        } else {
            format!("{} less", format::bytes(b - a))
        }
    };
    Some(format!(
        "The article's 300 MB saved is 320 threads x a 1 MB stack: address space reserved. Here the pool of {} \
         threads reserved {} against {} for async tasks on {} workers ({}; its extra threads' stacks are {}, and \
         both figures hold what earlier runs left mapped, such as the stacks and malloc arenas glibc keeps), but its \
         resident set peaked at {} against {} ({}): Linux commits a stack's pages only as they are touched, so \
         the threads cost reserved address space, not memory in use.",
        m.pool_threads,
        format::bytes(m.pool_reserved_bytes),
        format::bytes(m.async_reserved_bytes),
        m.async_workers,
        difference(m.pool_reserved_bytes, m.async_reserved_bytes),
        format::bytes(m.extra_stacks_bytes),
        format::bytes(m.pool_rss_bytes),
        format::bytes(m.async_rss_bytes),
        difference(m.pool_rss_bytes, m.async_rss_bytes),
    ))
}

/// Async tasks that block their workers against the same tasks on timers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockingFigures {
    pub workers: u64,
    /// Capacity (closed loop) of each, requests per second, medians.
    pub blocking_per_s: f64,
    pub timers_per_s: f64,
    /// Timers over blocking, with its interval.
    pub timers_over_blocking: Ratio,
    /// workers / (mean wait + CPU work + the locked section): what blocking workers can serve.
    pub predicted_per_s: f64,
    /// Enough trials on both sides for a claim.
    pub judged: bool,
}

pub fn blocking_figures(summaries: &[PoolSummary]) -> Option<BlockingFigures> {
    let blocking = at(summaries, Variant::AsyncBlocking)?;
    let timers =
        summaries.iter().find(|s| s.key.variant == Variant::Async && s.key.hit_rate == blocking.key.hit_rate)?;
    let busy_ms = blocking.mean_wait_ms + blocking.cpu_work_ms + blocking.lock_hold_ms;
    Some(BlockingFigures {
        workers: blocking.key.pool_threads,
        blocking_per_s: blocking.capacity_per_s.median,
        timers_per_s: timers.capacity_per_s.median,
        timers_over_blocking: Ratio::between(&timers.capacity_per_s, &blocking.capacity_per_s),
        predicted_per_s: blocking.key.pool_threads as f64 / (busy_ms / 1e3),
        judged: blocking.trials.min(timers.trials) >= MIN_TRIALS_FOR_CLAIM,
    })
}

/// What blocking inside the tasks did to what they can serve, beside workers / wait.
pub fn blocking_finding(summaries: &[PoolSummary]) -> Option<String> {
    let b = blocking_figures(summaries)?;
    let measured = format!(
        "Async tasks that block their {} workers (thread::sleep for the IO, a std mutex's connection held across \
         it) served {:.0} requests/s in the capacity probe against {:.0} on timers",
        b.workers, b.blocking_per_s, b.timers_per_s
    );
    let predicted = format!(
        "workers / (wait + work) = {} / {} = {:.0} requests/s",
        b.workers,
        super::format_ms(b.workers as f64 / b.predicted_per_s * 1e3),
        b.predicted_per_s
    );
    Some(if !b.judged {
        format!("{measured}; {predicted}; too few trials to claim a difference.")
    } else if b.timers_over_blocking.clearly_above_one() {
        format!(
            "{measured} ({} as much on timers); blocking held each worker for a whole wait, so throughput fell \
             to about {predicted} ({:.0}% of it), as virtual threads pinned inside synchronized lose their gain.",
            format::ratio_and_interval(&b.timers_over_blocking),
            b.blocking_per_s / b.predicted_per_s * 100.0
        )
    } else {
        format!("{measured}: not measurably less ({predicted}); the timers did not serve more here.")
    })
}
