//! One row per case and trial: what served the requests, the load, every arrival's fate,
//! latency over every arrival and per class, the waits downstream, the scheduler's view and
//! the capacity the closed-loop probe measured.

use serde::{Deserialize, Serialize};

use super::arrivals::Load;
use super::config::{Config, Variant};
use super::serve::CaseResult;
use super::{Case, Setup};

/// One run of one case (variant, pool size, hit rate) in one trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub variant: Variant,
    pub hit_rate: f64,
    /// Fixed: the pool size. Split: the CPU-and-cache pool. Async: tokio worker threads.
    pub pool_threads: u64,
    /// The database connection pool misses acquire (split: also its miss threads).
    pub db_connections: u64,
    pub trial: u64,
    /// Logical CPUs of this machine (CPU available = this x wall time).
    pub cpus: u64,
    pub offered_rate_per_s: f64,
    /// U in Goetz's formula.
    pub target_utilization: f64,
    /// Goetz's answer from this service's mean W/C at this hit rate.
    pub formula_threads: u64,
    /// Goetz's answer from the article's W = 49 ms and C = 1 ms on this machine's CPUs.
    pub article_formula_threads: u64,
    /// This service's mean IO wait at this hit rate (its W), and the calibrated CPU work (C).
    pub mean_wait_ms: f64,
    pub cpu_work_ns: u64,
    /// CPU work under the shared lock, as calibrated.
    pub lock_hold_ns: u64,
    pub queue_timeout_ms: f64,
    pub arrived: u64,
    pub hits: u64,
    pub misses: u64,
    pub completed: u64,
    /// Completed before arrivals stopped (the throughput's numerator).
    pub completed_in_window: u64,
    /// Waited past the timeout for a thread or a connection (the caller gave up): not served.
    pub dropped: u64,
    /// How long requests arrived.
    pub window_ns: u64,
    /// From the first scheduled arrival until every request completed or was dropped.
    pub elapsed_ns: u64,
    /// Completed while requests were arriving, per second of that window (open loop).
    pub completed_per_s: f64,
    /// Completed per second by the closed-loop probe: what this case can serve.
    pub capacity_per_sec: f64,
    /// Latency over every arrival (drops at the timeout), from its scheduled arrival.
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
    /// p99 of the cache hits and of the misses, over every arrival of the class.
    pub hit_p99_ms: f64,
    pub miss_p99_ms: f64,
    /// Arrivals in the latency histogram; the run checks it equals `arrived`.
    pub histogram_count: u64,
    /// Mean wait for the shared lock per request that entered it.
    pub lock_wait_ms: f64,
    /// Mean wait for a database connection per miss served.
    pub db_wait_ms: f64,
    /// Run-queue delay of the serving threads (schedstat) per completed request; 0 and
    /// `run_delay_measured = false` where the kernel keeps no scheduler statistics.
    pub run_delay_ms: f64,
    pub run_delay_measured: bool,
    pub voluntary_switches: u64,
    pub involuntary_switches: u64,
    pub cpu_used_ns: u64,
    /// CPU used / (CPUs x wall time).
    pub cpu_share: f64,
    pub peak_queue: u64,
    /// Most misses waiting at once for a database connection (split: or a miss thread).
    pub peak_db_queue: u64,
    /// Highest resident set sampled during the run (0 where it cannot be read): memory
    /// committed, touched pages only.
    pub peak_rss_bytes: u64,
    /// Most address space reserved (VmSize) at the same samples, every thread's whole stack
    /// included from its creation (0 where it cannot be read, or a run saved before it).
    #[serde(default)]
    pub reserved_bytes: u64,
    /// What each serving thread reserves for its stack: std's and tokio's default, 2 MiB, or
    /// `RUST_MIN_STACK` (0 in a run saved before it).
    #[serde(default)]
    pub thread_stack_bytes: u64,
    /// The cost of one context switch in the probe run just before this run (a run saved
    /// before that holds the median of 5 probes taken before the trials, the same in every
    /// row), and whether the probe ran pinned.
    pub switch_cost_ns: f64,
    pub switch_probe_pinned: bool,
}

crate::checked::checked_row!(
    Row,
    counts: [],
    amounts: [
        offered_rate_per_s, mean_wait_ms, queue_timeout_ms, completed_per_s, capacity_per_sec, mean_ms, p50_ms,
        p99_ms, p999_ms, max_ms, hit_p99_ms, miss_p99_ms, lock_wait_ms, db_wait_ms, run_delay_ms, cpu_share,
        switch_cost_ns
    ],
    threads: [pool_threads, cpus],
    probabilities: [hit_rate],
    cases: |row| (row.variant, (row.hit_rate + 0.0).to_bits(), row.pool_threads, row.db_connections)
);

impl Row {
    /// Whether `value_ms` (a percentile of this row) is only a lower bound: some arrivals were
    /// recorded at the timeout, and the value reached it, so their real latency might lie above.
    pub fn is_lower_bound(&self, value_ms: f64) -> bool {
        self.dropped > 0 && value_ms >= self.queue_timeout_ms
    }

    /// Voluntary plus involuntary context switches per completed request.
    pub fn switches_per_request(&self) -> f64 {
        (self.voluntary_switches + self.involuntary_switches) as f64 / self.completed.max(1) as f64
    }
}

/// Rust's default stack for a spawned thread (std's and tokio's), unless `RUST_MIN_STACK`
/// sets another: the address space each serving thread reserves, touched or not.
pub const DEFAULT_THREAD_STACK_BYTES: u64 = 2 << 20;

/// The stack each thread the pool spawns reserves: `RUST_MIN_STACK` when set (std reads it
/// for every `thread::Builder` without a size), else [`DEFAULT_THREAD_STACK_BYTES`].
pub fn thread_stack_bytes() -> u64 {
    std::env::var("RUST_MIN_STACK").ok().and_then(|text| text.trim().parse().ok()).unwrap_or(DEFAULT_THREAD_STACK_BYTES)
}

/// The row of one case's run, from its result and the capacity the probe measured.
pub(super) fn build(
    config: &Config,
    setup: &Setup,
    case: &Case,
    trial: usize,
    load: &Load,
    result: &CaseResult,
    capacity_per_sec: f64,
) -> Row {
    let elapsed_s = result.metered.elapsed.as_secs_f64();
    let usage = result.metered.usage.unwrap_or_default();
    let latencies = &result.latencies;
    let ms =
        |histogram: &hdrhistogram::Histogram<u64>, quantile: f64| histogram.value_at_quantile(quantile) as f64 / 1e3;
    let per_request_ms = |total_ns: u64| total_ns as f64 / 1e6 / result.completed.max(1) as f64;
    Row {
        variant: case.variant,
        hit_rate: case.hit_rate,
        pool_threads: case.pool_threads as u64,
        db_connections: case.db_connections as u64,
        trial: trial as u64,
        cpus: setup.cpus as u64,
        offered_rate_per_s: load.rate_per_s,
        target_utilization: config.target_utilization,
        formula_threads: config.formula_threads(setup.cpus, case.hit_rate) as u64,
        article_formula_threads: config.article_formula_threads(setup.cpus) as u64,
        mean_wait_ms: config.mean_wait_ms(case.hit_rate),
        cpu_work_ns: setup.work.ns,
        lock_hold_ns: setup.section.ns,
        queue_timeout_ms: config.queue_timeout.as_secs_f64() * 1e3,
        arrived: result.arrived,
        hits: latencies.hits_us.len(),
        misses: latencies.misses_us.len(),
        completed: result.completed,
        completed_in_window: result.completed_in_window,
        dropped: result.dropped,
        window_ns: load.window.as_nanos() as u64,
        elapsed_ns: result.metered.elapsed.as_nanos() as u64,
        completed_per_s: result.completed_in_window as f64 / load.window.as_secs_f64(),
        capacity_per_sec,
        mean_ms: latencies.all_us.mean() / 1e3,
        p50_ms: ms(&latencies.all_us, 0.5),
        p99_ms: ms(&latencies.all_us, 0.99),
        p999_ms: ms(&latencies.all_us, 0.999),
        max_ms: latencies.all_us.max() as f64 / 1e3,
        hit_p99_ms: ms(&latencies.hits_us, 0.99),
        miss_p99_ms: ms(&latencies.misses_us, 0.99),
        histogram_count: latencies.all_us.len(),
        lock_wait_ms: result.lock_wait_ms,
        db_wait_ms: result.db_wait_ms,
        run_delay_ms: result.run_delay_ns.map_or(0.0, per_request_ms),
        run_delay_measured: result.run_delay_ns.is_some(),
        voluntary_switches: usage.voluntary_switches,
        involuntary_switches: usage.involuntary_switches,
        cpu_used_ns: usage.cpu_ns,
        cpu_share: usage.cpu_ns as f64 / 1e9 / (elapsed_s * setup.cpus as f64),
        peak_queue: result.peak_queue as u64,
        peak_db_queue: result.peak_db_queue as u64,
        peak_rss_bytes: result.metered.peak_rss_bytes,
        reserved_bytes: result.metered.peak_reserved_bytes,
        thread_stack_bytes: thread_stack_bytes(),
        switch_cost_ns: setup.probe.ns_per_switch,
        switch_probe_pinned: setup.probe.pinned,
    }
}
