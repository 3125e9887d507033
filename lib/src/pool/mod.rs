//! Thread-pool sizing (article C): a service whose requests do real CPU work, take one
//! shared lock around a short critical section, then wait on IO, either a short cache hit or
//! a long database miss that must first get a connection from a bounded pool. Requests
//! arrive open-loop at the article's rate per CPU, whatever the pool's size. The same
//! requests are served by fixed pools of many sizes, by a split pool sized per class, and by
//! async tasks; each run's latency over every arrival, the waits downstream, run-queue
//! delay, context switches, CPU and memory are measured, then a closed-loop probe measures
//! what the case can serve.
//!
//! # Timing model
//!
//! A run's requests are drawn up front (Poisson arrivals; hit or miss; wait uniform in the
//! class's range). The pool's threads start and go idle; then the clock starts and the
//! dispatcher releases each request at its scheduled time. A request's latency runs from its
//! *scheduled* arrival to the end of its wait; a request dropped after waiting past the
//! queue timeout counts at the timeout (censored). The run ends when every request has
//! completed or been dropped; the run's wall time, CPU time and context switches
//! (`getrusage`, whole process) cover exactly that span, and each serving thread's
//! run-queue delay (schedstat) its own life. The capacity probe then serves the same mix
//! from a closed loop of callers for `capacity_window` and counts completions; requests still
//! waiting in a queue when it ends leave unserved (they could no longer count).

pub mod answers;
mod arrivals;
pub mod chart;
mod closed;
mod config;
mod downstream;
pub mod explain;
mod finding;
mod fixed;
mod flags;
pub mod formula;
mod gate;
mod metrics;
pub mod present;
pub mod probe;
mod queue;
mod row;
pub mod schedstat;
mod serve;
mod service;
mod split;
mod summary;
mod tally;
#[cfg(feature = "async")]
mod tasks;
mod validate;
pub mod virtual_threads;

pub use arrivals::{schedule, Load, Request};
pub use closed::{ClosedLoop, Feed};
pub use config::{
    Config, Variant, ARTICLE_CORES, ARTICLE_QPS, DB_CONNECTIONS_PER_CPU, MAX_CAPACITY_CLIENTS, MAX_POOL_THREADS,
    MAX_REQUESTS_PER_RUN,
};
pub use explain::why_big_pools;
pub use finding::{finding, findings, MIN_TRIALS_FOR_CLAIM};
pub use metrics::{resident_bytes, ProcessUsage};
pub use row::Row;
pub use serve::{CaseResult, ServeParams};
pub use service::{calibrate, hash_rounds, CpuWork};
pub use summary::{format_ms, summarize, switch_cost, CaseKey, PoolSummary};
pub use validate::QUEUE_TIMEOUT_RANGE;

use crate::error::RunError;
use crate::harness::{interleaved_trials, warm_up, Outcome, Progress};
use crate::machine::logical_cpus;
use probe::ProbeSample;

pub const EXPERIMENT: &str = "pool";

/// Thread-pool sizing, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct PoolSizing;

crate::experiment::measure!(
    PoolSizing,
    about: "Thread-pool sizing: a bimodal service on fixed, split and async pools (article C).",
    summary: PoolSummary,
    runtime_row: crate::experiment::NoRows,
    const CLOCK_PACED: bool = true;
    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// One case of the plan: what serves the requests.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Case {
    variant: Variant,
    hit_rate: f64,
    pool_threads: usize,
    db_connections: usize,
}

/// What one run of a case is given: this machine's calibration, and the context-switch probe
/// taken just before it.
#[derive(Debug, Clone, Copy)]
struct Setup {
    cpus: usize,
    work: CpuWork,
    section: CpuWork,
    probe: ProbeSample,
}

/// Calibrates the CPU work, warms up, then runs every case `trials` times, interleaved (all
/// cases of trial 1, then trial 2, ...) so a drift of the machine touches every case alike.
/// Each run is preceded by its own switch probe: the probe's samples are as many as the rows,
/// spread over the whole run, and a resample of the rounds draws them with the rounds.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let setup = prepare(config)?;
    let cases = plan(config, setup.cpus);
    // Warm up on the article's incident pool: large enough not to queue, so no timeouts.
    let hit_rate = config.hit_rates[0];
    let warm_case = Case {
        variant: Variant::Fixed,
        hit_rate,
        pool_threads: config.warm_up_threads(setup.cpus),
        db_connections: config.db_connections_for(setup.cpus),
    };
    let warm_config = Config {
        window: config.warmup.min(config.window),
        capacity_window: config.warmup.min(config.capacity_window),
        ..config.clone()
    };
    warm_up(config.warmup, || measure(&warm_config, &setup, &warm_case, 0).map(drop))?;
    interleaved_trials(
        EXPERIMENT,
        &cases,
        config.trials,
        config.budget,
        progress,
        |case| format!("{}, hit {}", describe(case), case.hit_rate),
        |case, trial| {
            let probe = probe::switch_cost(config.probe_round_trips)?;
            measure(config, &Setup { probe, ..setup }, case, trial)
        },
    )
}

fn prepare(config: &Config) -> Result<Setup, RunError> {
    let cpus = logical_cpus();
    let work = service::calibrate(config.cpu_work_for(cpus));
    let section = service::calibrate(config.lock_hold);
    // The warm-up's probe: each measured run takes its own.
    let probe = probe::switch_cost(config.probe_round_trips)?;
    Ok(Setup { cpus, work, section, probe })
}

fn plan(config: &Config, cpus: usize) -> Vec<Case> {
    let db_connections = config.db_connections_for(cpus);
    let mut cases = Vec::new();
    for &hit_rate in &config.hit_rates {
        let case = |variant, pool_threads| Case { variant, hit_rate, pool_threads, db_connections };
        for &variant in &config.variants {
            match variant {
                Variant::Fixed => cases.extend(config.sweep(cpus).into_iter().map(|size| case(variant, size))),
                Variant::Split => cases.push(case(variant, config::split_sizes(config, cpus, hit_rate).fast_threads)),
                Variant::Async | Variant::AsyncBlocking => cases.push(case(variant, cpus)),
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
        Variant::AsyncBlocking => format!("async blocking {} workers", case.pool_threads),
    }
}

/// Runs one case once (open loop, then the capacity probe) and checks that every request
/// is accounted for.
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
    let params = ServeParams {
        work: setup.work,
        section: setup.section,
        db_connections: case.db_connections,
        queue_timeout: config.queue_timeout,
    };
    let result = serve(case, Feed::Open { requests: &requests, window: load.window }, params)?;
    let check = Check { case, trial };
    check.equal(requests.len() as u64, result.arrived, "requests released")?;
    check.equal(0, result.unserved, "unserved in the open loop (it serves every arrival)")?;
    check.accounted(&result)?;
    let closed = ClosedLoop {
        clients: config.capacity_clients_for(setup.cpus),
        load: Load { window: config.capacity_window, ..load },
        seed: !seed,
    };
    let capacity = serve(case, Feed::Closed(closed), params)?;
    check.accounted(&capacity)?;
    let counted_s = (closed.load.window - closed.ramp_up()).as_secs_f64();
    let capacity_per_sec = capacity.completed_in_window as f64 / counted_s;
    Ok(row::build(config, setup, case, trial, &load, &result, capacity_per_sec))
}

/// The checks every run of a case must pass; a failure voids the trial.
struct Check<'a> {
    case: &'a Case,
    trial: usize,
}

impl Check<'_> {
    fn equal(&self, expected: u64, actual: u64, what: &str) -> Result<(), RunError> {
        if expected == actual {
            return Ok(());
        }
        Err(RunError::Verification {
            experiment: EXPERIMENT,
            case: format!("{}: {what}", describe(self.case)),
            trial: self.trial,
            expected,
            actual,
        })
    }

    /// Every arrival completed, was dropped or (capacity probe) left unserved at its end, and
    /// every one completed or dropped is in the histograms.
    fn accounted(&self, result: &CaseResult) -> Result<(), RunError> {
        let latencies = &result.latencies;
        let left = result.completed + result.dropped + result.unserved;
        self.equal(result.arrived, left, "completed + dropped + unserved")?;
        self.equal(result.completed + result.dropped, latencies.all_us.len(), "latencies recorded")?;
        self.equal(latencies.all_us.len(), latencies.hits_us.len() + latencies.misses_us.len(), "hits + misses")
    }
}

fn serve(case: &Case, feed: Feed, params: ServeParams) -> Result<CaseResult, RunError> {
    match case.variant {
        Variant::Fixed => fixed::run(case.pool_threads, feed, params),
        Variant::Split => {
            let sizes = formula::SplitSizes { fast_threads: case.pool_threads, miss_threads: case.db_connections };
            split::run(sizes, feed, params)
        }
        #[cfg(feature = "async")]
        Variant::Async => tasks::run(case.pool_threads, feed, params, tasks::Waits::Timers),
        #[cfg(feature = "async")]
        Variant::AsyncBlocking => tasks::run(case.pool_threads, feed, params, tasks::Waits::Blocking),
        #[cfg(not(feature = "async"))]
        Variant::Async | Variant::AsyncBlocking => Err(crate::error::ConfigError::new(
            "variant",
            case.variant.name(),
            "fixed or split: this build lacks the `async` feature",
        )
        .into()),
    }
}
