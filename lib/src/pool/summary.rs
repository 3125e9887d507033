//! The trials of each case summarised: medians with intervals, rates per second, drops.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Row, Variant};
use crate::stats::Summary;

/// What identifies a case across trials.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CaseKey {
    pub variant: Variant,
    pub hit_rate: f64,
    pub pool_threads: u64,
    pub db_connections: u64,
}

/// The trials of one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolSummary {
    pub key: CaseKey,
    pub trials: usize,
    pub cpus: u64,
    pub formula_threads: u64,
    pub article_formula_threads: u64,
    pub mean_wait_ms: f64,
    pub cpu_work_ms: f64,
    pub lock_hold_ms: f64,
    pub queue_timeout_ms: f64,
    pub offered_rate_per_s: f64,
    /// U in Goetz's formula.
    pub utilization: f64,
    pub completed_per_s: Summary,
    /// Closed-loop completions per second.
    pub capacity_per_s: Summary,
    /// Percentiles over every arrival, drops at the timeout.
    pub mean_ms: Summary,
    pub p50_ms: Summary,
    pub p99_ms: Summary,
    pub p999_ms: Summary,
    pub hit_p99_ms: Summary,
    pub miss_p99_ms: Summary,
    /// Some trial's p99 (overall, hits, misses) reached the timeout with drops recorded at
    /// it: that median is a lower bound.
    pub p99_lower_bound: bool,
    pub hit_p99_lower_bound: bool,
    pub miss_p99_lower_bound: bool,
    pub lock_wait_ms: Summary,
    pub db_wait_ms: Summary,
    /// Run-queue delay per completed request; `None` where some trial could not read it.
    pub run_delay_ms: Option<Summary>,
    /// Voluntary plus involuntary, per second of the run.
    pub switches_per_s: Summary,
    pub voluntary_per_s: Summary,
    pub involuntary_per_s: Summary,
    pub switches_per_request: Summary,
    pub cpu_share: Summary,
    /// CPUs' worth of time spent switching: median switches/s x the probe's cost per switch.
    pub switching_cpus: f64,
    /// Dropped (censored) / arrived over all trials.
    pub dropped_share: f64,
    pub peak_queue: u64,
    pub peak_db_queue: u64,
    pub peak_rss_bytes: u64,
    /// Most address space reserved in any trial (0: not recorded).
    pub reserved_bytes: u64,
    pub thread_stack_bytes: u64,
    /// The cost of one context switch in the probes run just before the case's trials.
    pub switch_cost_ns: Summary,
}

impl PoolSummary {
    /// Whether every trial recorded the process's CPU time and switches: a pool serving
    /// requests always uses some CPU, so a share of 0 is the rows' unknown (the OS counts
    /// neither), and the share and switch figures are then not measurements.
    pub fn usage_measured(&self) -> bool {
        self.cpu_share.min > 0.0
    }

    /// How sentences name the case: "N=21", "the split pools (10+24)", ...
    pub fn label(&self) -> String {
        match self.key.variant {
            Variant::Fixed => format!("N={}", self.key.pool_threads),
            Variant::Split => format!("the split pools ({}+{})", self.key.pool_threads, self.key.db_connections),
            Variant::Async => format!("async tasks ({} workers)", self.key.pool_threads),
            Variant::AsyncBlocking => format!("async tasks blocking their workers ({} workers)", self.key.pool_threads),
        }
    }
}

/// Groups rows by case, in order: hit rate as first seen, then fixed by size, split, async.
pub fn summarize(rows: &[Row]) -> Vec<PoolSummary> {
    // -0.0 and 0.0 are one hit rate.
    let bits = |hit_rate: f64| (hit_rate + 0.0).to_bits();
    let mut hit_order: HashMap<u64, usize> = HashMap::new();
    for row in rows {
        let next = hit_order.len();
        hit_order.entry(bits(row.hit_rate)).or_insert(next);
    }
    let variant_rank = |variant: Variant| Variant::ALL.iter().position(|&v| v == variant);
    let order = |row: &Row| {
        (hit_order.get(&bits(row.hit_rate)).copied(), variant_rank(row.variant), row.pool_threads, row.db_connections)
    };
    crate::group::by_key(rows, order).into_iter().filter_map(|(_, group)| summarize_case(&group)).collect()
}

fn summarize_case(group: &[&Row]) -> Option<PoolSummary> {
    let first = *group.first()?;
    let key = CaseKey {
        variant: first.variant,
        hit_rate: first.hit_rate,
        pool_threads: first.pool_threads,
        db_connections: first.db_connections,
    };
    let of = |value: fn(&Row) -> f64| Summary::of(&group.iter().map(|row| value(row)).collect::<Vec<_>>());
    let per_s = |count: fn(&Row) -> u64| {
        Summary::of(&group.iter().map(|row| count(row) as f64 / (row.elapsed_ns as f64 / 1e9)).collect::<Vec<_>>())
    };
    let lower_bound = |value: fn(&Row) -> f64| group.iter().any(|row| row.is_lower_bound(value(row)));
    let switches_per_s = per_s(|row| row.voluntary_switches + row.involuntary_switches)?;
    let switch_cost_ns = of(|row| row.switch_cost_ns)?;
    let arrived: u64 = group.iter().map(|row| row.arrived).sum();
    let dropped: u64 = group.iter().map(|row| row.dropped).sum();
    let peak = |value: fn(&Row) -> u64| group.iter().map(|row| value(row)).max().unwrap_or(0);
    Some(PoolSummary {
        key,
        trials: group.len(),
        cpus: first.cpus,
        formula_threads: first.formula_threads,
        article_formula_threads: first.article_formula_threads,
        mean_wait_ms: first.mean_wait_ms,
        cpu_work_ms: first.cpu_work_ns as f64 / 1e6,
        lock_hold_ms: first.lock_hold_ns as f64 / 1e6,
        queue_timeout_ms: first.queue_timeout_ms,
        offered_rate_per_s: first.offered_rate_per_s,
        utilization: first.target_utilization,
        completed_per_s: of(|row| row.completed_per_s)?,
        capacity_per_s: of(|row| row.capacity_per_sec)?,
        mean_ms: of(|row| row.mean_ms)?,
        p50_ms: of(|row| row.p50_ms)?,
        p99_ms: of(|row| row.p99_ms)?,
        p999_ms: of(|row| row.p999_ms)?,
        hit_p99_ms: of(|row| row.hit_p99_ms)?,
        miss_p99_ms: of(|row| row.miss_p99_ms)?,
        p99_lower_bound: lower_bound(|row| row.p99_ms),
        hit_p99_lower_bound: lower_bound(|row| row.hit_p99_ms),
        miss_p99_lower_bound: lower_bound(|row| row.miss_p99_ms),
        lock_wait_ms: of(|row| row.lock_wait_ms)?,
        db_wait_ms: of(|row| row.db_wait_ms)?,
        run_delay_ms: if group.iter().all(|row| row.run_delay_measured) { of(|row| row.run_delay_ms) } else { None },
        switching_cpus: switches_per_s.median * switch_cost_ns.median / 1e9,
        switches_per_s,
        voluntary_per_s: per_s(|row| row.voluntary_switches)?,
        involuntary_per_s: per_s(|row| row.involuntary_switches)?,
        switches_per_request: of(Row::switches_per_request)?,
        cpu_share: of(|row| row.cpu_share)?,
        dropped_share: if arrived == 0 { 0.0 } else { dropped as f64 / arrived as f64 },
        peak_queue: peak(|row| row.peak_queue),
        peak_db_queue: peak(|row| row.peak_db_queue),
        peak_rss_bytes: peak(|row| row.peak_rss_bytes),
        reserved_bytes: peak(|row| row.reserved_bytes),
        thread_stack_bytes: first.thread_stack_bytes,
        switch_cost_ns,
    })
}

/// The cost of one context switch over every probe of the run (one before each run of a
/// case); `None` without rows.
pub fn switch_cost(rows: &[Row]) -> Option<Summary> {
    Summary::of(&rows.iter().map(|row| row.switch_cost_ns).collect::<Vec<_>>())
}

/// Milliseconds in words: "0.84 ms", "61 ms", "2.31 s".
pub fn format_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms >= 10.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.2} ms")
    }
}
