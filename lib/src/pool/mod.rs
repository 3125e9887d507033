//! Thread-pool sizing (article C): a service whose requests do a little real CPU work and
//! then wait on simulated IO, either a short cache hit or a long database miss, arriving
//! open-loop at a set rate. The same requests are served by fixed pools of many sizes, by a
//! split pool sized per class, and by async tasks, and each run's latency, throughput,
//! context switches, CPU and memory are measured for the whole process.
//!
//! # Timing model
//!
//! A run's requests are drawn up front (Poisson arrivals; hit or miss; wait uniform in the
//! class's range). The pool's threads start and go idle; then the clock starts and the
//! dispatcher releases each request at its scheduled time. A request's latency runs from its
//! *scheduled* arrival to the end of its wait. The run ends when every request has completed
//! or been dropped (it waited in a queue past the timeout); the run's wall time, CPU time
//! and context switches (`getrusage`, whole process) cover exactly that span.

mod arrivals;
mod config;
mod finding;
mod fixed;
pub mod formula;
mod metrics;
pub mod probe;
mod queue;
mod service;
mod split;
mod summary;
#[cfg(feature = "async")]
mod tasks;

use serde::{Deserialize, Serialize};

pub use arrivals::{schedule, Load, Request};
pub use config::{Config, Variant, MAX_POOL_THREADS};
pub use finding::{finding, findings, MIN_TRIALS_FOR_CLAIM};
pub use fixed::{CaseResult, ServeParams};
pub use metrics::{resident_bytes, ProcessUsage};
pub use service::{calibrate, hash_rounds, CpuWork};
pub use summary::{format_ms, summarize, CaseKey, PoolSummary};

use crate::error::RunError;
use crate::harness::{interleaved_trials, logical_cpus, warm_up, Outcome, Progress};
use crate::stats::Summary;

pub const EXPERIMENT: &str = "pool";

/// Context-switch probe trials run before the measured cases.
pub const PROBE_TRIALS: usize = 5;

/// One run of one case (variant, pool size, hit rate) in one trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub variant: Variant,
    pub hit_rate: f64,
    /// Fixed: the pool size. Split: the cache-step pool. Async: tokio worker threads.
    pub pool_threads: u64,
    /// Split: the miss pool's size (like a database connection pool); 0 otherwise.
    pub db_connections: u64,
    pub trial: u64,
    /// Logical CPUs of this machine (CPU available = this x wall time).
    pub cpus: u64,
    pub offered_rate_per_s: f64,
    /// Goetz's answer from the mean W/C at this hit rate.
    pub formula_threads: u64,
    /// Mean simulated wait at this hit rate, and the calibrated CPU work per request.
    pub mean_wait_ms: f64,
    pub cpu_work_ns: u64,
    pub arrived: u64,
    pub completed: u64,
    /// Completed before arrivals stopped (the throughput's numerator).
    pub completed_in_window: u64,
    /// Waited in a queue past the timeout (the caller gave up): never served.
    pub dropped: u64,
    /// How long requests arrived.
    pub window_ns: u64,
    /// From the first scheduled arrival until every request completed or was dropped.
    pub elapsed_ns: u64,
    /// Completed while requests were arriving, per second of that window.
    pub completed_per_s: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
    /// Requests in the latency histogram; the run checks it equals `completed`.
    pub histogram_count: u64,
    pub voluntary_switches: u64,
    pub involuntary_switches: u64,
    pub cpu_used_ns: u64,
    /// CPU used / (CPUs x wall time).
    pub cpu_share: f64,
    pub peak_queue: u64,
    pub peak_db_queue: u64,
    /// Highest resident set sampled during the run (0 where it cannot be read).
    pub peak_rss_bytes: u64,
    /// The probe's median cost of one context switch, and whether it ran pinned.
    pub switch_cost_ns: f64,
    pub switch_probe_pinned: bool,
    /// Every request completed or was dropped, and the histogram holds every completion.
    pub verified: bool,
}

/// One case of the plan: what serves the requests.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Case {
    variant: Variant,
    hit_rate: f64,
    pool_threads: usize,
    db_connections: usize,
}

/// What every run of the experiment shares: this machine's calibration and probe.
#[derive(Debug, Clone, Copy)]
struct Setup {
    cpus: usize,
    work: CpuWork,
    switch_cost_ns: f64,
    probe_pinned: bool,
}

/// Calibrates the CPU work, probes the switch cost, warms up, then runs every case
/// `trials` times, interleaved (all cases of trial 1, then trial 2, ...) so a drift of the
/// machine touches every case alike.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let setup = prepare(config)?;
    let cases = plan(config, setup.cpus);
    // Warm up on a pool twice the formula's size: large enough not to queue, so no timeouts.
    let hit_rate = config.hit_rates[0];
    let warm_threads = 2 * config.formula_threads(setup.cpus, hit_rate);
    let warm_case = Case { variant: Variant::Fixed, hit_rate, pool_threads: warm_threads, db_connections: 0 };
    let warm_config = Config { window: config.warmup.min(config.window), ..config.clone() };
    warm_up(config.warmup, || measure(&warm_config, &setup, &warm_case, 0).map(drop))?;
    interleaved_trials(
        EXPERIMENT,
        &cases,
        config.trials,
        config.budget,
        progress,
        |case| format!("{}, hit {}", describe(case), case.hit_rate),
        |case, trial| measure(config, &setup, case, trial),
    )
}

fn prepare(config: &Config) -> Result<Setup, RunError> {
    let work = service::calibrate(config.cpu_work);
    let samples =
        (0..PROBE_TRIALS).map(|_| probe::switch_cost(config.probe_round_trips)).collect::<Result<Vec<_>, _>>()?;
    let costs: Vec<f64> = samples.iter().map(|sample| sample.ns_per_switch).collect();
    Ok(Setup {
        cpus: logical_cpus(),
        work,
        switch_cost_ns: Summary::of(&costs).map_or(0.0, |summary| summary.median),
        probe_pinned: samples.iter().all(|sample| sample.pinned),
    })
}

fn plan(config: &Config, cpus: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for &hit_rate in &config.hit_rates {
        let case = |variant, pool_threads, db_connections| Case { variant, hit_rate, pool_threads, db_connections };
        for &variant in &config.variants {
            match variant {
                Variant::Fixed => cases.extend(config.sweep(cpus).into_iter().map(|size| case(variant, size, 0))),
                Variant::Split => {
                    let sizes = formula::split_sizes(config, cpus, hit_rate, config.offered_rate_per_s(cpus));
                    cases.push(case(variant, sizes.fast_threads, sizes.db_connections));
                }
                Variant::Async => cases.push(case(variant, cpus, 0)),
            }
        }
    }
    cases
}

fn describe(case: &Case) -> String {
    match case.variant {
        Variant::Fixed => format!("fixed pool of {}", case.pool_threads),
        Variant::Split => format!("split {}+{}", case.pool_threads, case.db_connections),
        Variant::Async => format!("async on {} workers", case.pool_threads),
    }
}

/// Runs one case once and checks that every request is accounted for.
fn measure(config: &Config, setup: &Setup, case: &Case, trial: usize) -> Result<Row, RunError> {
    let load = Load {
        rate_per_s: config.offered_rate_per_s(setup.cpus),
        window: config.window,
        hit_rate: case.hit_rate,
        hit_wait_ms: config.hit_wait_ms,
        miss_wait_ms: config.miss_wait_ms,
    };
    // Same seed for every variant of a trial and hit rate: they serve identical requests.
    let seed = config.seed ^ (trial as u64).wrapping_mul(0x9E37_79B9) ^ case.hit_rate.to_bits();
    let requests = schedule(&load, seed);
    let params = ServeParams { work: setup.work, queue_timeout: config.queue_timeout, window: config.window };
    let result = serve(case, &requests, params)?;
    let verify = |expected: u64, actual: u64, what: &str| {
        if expected == actual {
            return Ok(());
        }
        Err(RunError::Verification {
            experiment: EXPERIMENT,
            case: format!("{}: {what}", describe(case)),
            trial,
            expected,
            actual,
        })
    };
    verify(requests.len() as u64, result.arrived, "requests released")?;
    verify(result.arrived, result.completed + result.dropped, "completed + dropped")?;
    verify(result.completed, result.latency_us.len(), "latencies recorded")?;
    Ok(row(config, setup, case, trial, &load, &result))
}

fn serve(case: &Case, requests: &[Request], params: ServeParams) -> Result<CaseResult, RunError> {
    match case.variant {
        Variant::Fixed => fixed::run(case.pool_threads, requests, params),
        Variant::Split => {
            let sizes = formula::SplitSizes { fast_threads: case.pool_threads, db_connections: case.db_connections };
            split::run(sizes, requests, params)
        }
        #[cfg(feature = "async")]
        Variant::Async => tasks::run(case.pool_threads, requests, params),
        #[cfg(not(feature = "async"))]
        Variant::Async => Err(crate::error::ConfigError::new(
            "variant",
            "async",
            "fixed or split: this build lacks the `async` feature",
        )
        .into()),
    }
}

fn row(config: &Config, setup: &Setup, case: &Case, trial: usize, load: &Load, result: &CaseResult) -> Row {
    let elapsed_s = result.metered.elapsed.as_secs_f64();
    let usage = result.metered.usage.unwrap_or_default();
    let ms = |quantile: f64| result.latency_us.value_at_quantile(quantile) as f64 / 1e3;
    Row {
        variant: case.variant,
        hit_rate: case.hit_rate,
        pool_threads: case.pool_threads as u64,
        db_connections: case.db_connections as u64,
        trial: trial as u64,
        cpus: setup.cpus as u64,
        offered_rate_per_s: load.rate_per_s,
        formula_threads: config.formula_threads(setup.cpus, case.hit_rate) as u64,
        mean_wait_ms: config.mean_wait_ms(case.hit_rate),
        cpu_work_ns: setup.work.ns,
        arrived: result.arrived,
        completed: result.completed,
        completed_in_window: result.completed_in_window,
        dropped: result.dropped,
        window_ns: load.window.as_nanos() as u64,
        elapsed_ns: result.metered.elapsed.as_nanos() as u64,
        completed_per_s: result.completed_in_window as f64 / load.window.as_secs_f64(),
        p50_ms: ms(0.5),
        p99_ms: ms(0.99),
        p999_ms: ms(0.999),
        max_ms: result.latency_us.max() as f64 / 1e3,
        histogram_count: result.latency_us.len(),
        voluntary_switches: usage.voluntary_switches,
        involuntary_switches: usage.involuntary_switches,
        cpu_used_ns: usage.cpu_ns,
        cpu_share: usage.cpu_ns as f64 / 1e9 / (elapsed_s * setup.cpus as f64),
        peak_queue: result.peak_queue as u64,
        peak_db_queue: result.peak_db_queue as u64,
        peak_rss_bytes: result.metered.peak_rss_bytes,
        switch_cost_ns: setup.switch_cost_ns,
        switch_probe_pinned: setup.probe_pinned,
        verified: true,
    }
}
