//! What one pool experiment runs: the service's shape, the load, the variants and the sweep.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::formula::{self, mean_concurrency, SplitSizes, SPLIT_HEADROOM};

/// Largest pool the sweep accepts: enough for the article's 320 threads on many cores.
pub const MAX_POOL_THREADS: usize = 4096;
/// Bounds the pre-generated schedule (rate x seconds) and so the run's memory.
pub const MAX_REQUESTS_PER_RUN: f64 = 5_000_000.0;
/// Most callers the capacity probe accepts.
pub const MAX_CAPACITY_CLIENTS: usize = 65_536;

/// How the requests are served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// N OS threads take requests from one queue; each does the CPU work and blocks on the wait.
    Fixed,
    /// Per-class pools: a small pool does the CPU work and the cache wait; misses go on to a
    /// pool bounded like a database connection pool.
    Split,
    /// Tasks on tokio (worker threads = CPUs) with timers for the waits: the analogue of
    /// Java's virtual threads.
    Async,
    /// The same tasks, but each waits by blocking its worker (`thread::sleep` standing for
    /// a blocking client call, a `std` mutex and condvar for the connection, held across
    /// the wait): the analogue of virtual threads pinned inside `synchronized` (JDK 21).
    AsyncBlocking,
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::Fixed, Variant::Split, Variant::Async, Variant::AsyncBlocking];

    /// The variants this build can run: the async ones need the lib's `async` feature.
    pub fn available() -> Vec<Variant> {
        Self::ALL.into_iter().filter(|&variant| !variant.is_async() || cfg!(feature = "async")).collect()
    }

    /// Tasks on tokio's workers (with timers or blocking).
    pub fn is_async(self) -> bool {
        matches!(self, Variant::Async | Variant::AsyncBlocking)
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::Fixed => "fixed",
            Variant::Split => "split",
            Variant::Async => "async",
            Variant::AsyncBlocking => "async-blocking",
        }
    }
}

/// The article's service: 1 180 requests/s on 8 cores.
pub const ARTICLE_QPS: f64 = 1180.0;
pub const ARTICLE_CORES: f64 = 8.0;
/// HikariCP's default `maximumPoolSize` (10) on the article's 8 cores, scaled per CPU as the
/// load is: misses then keep the pool about half busy (1.4 of 3 connections on 2 CPUs at
/// 92% hits), so bursts of misses queue for a connection.
pub const DB_CONNECTIONS_PER_CPU: f64 = 10.0 / ARTICLE_CORES;
/// Closed-loop callers per CPU in the capacity probe: the incident's 40 threads per CPU, so
/// every thread of every default pool has a request to serve. The same callers for every
/// case, so capacities compare.
pub const CAPACITY_CLIENTS_PER_CPU: usize = 40;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub variants: Vec<Variant>,
    /// Fixed-pool sizes to sweep; `None` derives them from this machine (see [`Config::sweep`]).
    pub pool_sizes: Option<Vec<usize>>,
    /// Omit the intermediate sizes (2, 4 x CPUs) from a derived sweep.
    pub short_sweep: bool,
    /// Probabilities that a request is served from the cache (the article: 0.92, then 0.97).
    pub hit_rates: Vec<f64>,
    /// Arrivals per second per CPU (the article: 1 180 / 8 = 147.5), whatever the pool size.
    pub rate_per_cpu_per_s: f64,
    /// Requests per second in all; overrides `rate_per_cpu_per_s`.
    pub rate_per_s: Option<f64>,
    /// Share of the CPUs the requests' own CPU work takes at the offered rate (the article:
    /// about 1 ms per request at 147.5/s per CPU, 15%); sets the work per request.
    pub work_cpu_share: f64,
    /// Real CPU work per request (hashing, calibrated here); overrides `work_cpu_share`.
    pub cpu_work: Option<Duration>,
    /// CPU work under the one shared lock every request takes: 5% of the article's 1 ms, a
    /// shared cache's bookkeeping or a synchronized logger's append.
    pub lock_hold: Duration,
    /// The database connection pool misses acquire; `None` = [`DB_CONNECTIONS_PER_CPU`].
    pub db_connections: Option<usize>,
    /// IO wait of a cache hit, uniform between the two ends (ms).
    pub hit_wait_ms: [f64; 2],
    /// IO wait of a miss while it holds a database connection, uniform (ms).
    pub miss_wait_ms: [f64; 2],
    /// U in Goetz's formula (the article: 0.8).
    pub target_utilization: f64,
    /// How long requests arrive in each measured run.
    pub window: Duration,
    /// A request that waited longer than this in a queue is dropped (its caller gave up) and
    /// counts at this latency, censored.
    pub queue_timeout: Duration,
    /// How long the closed-loop capacity probe runs after each case's run.
    pub capacity_window: Duration,
    /// Callers of the capacity probe; `None` = [`CAPACITY_CLIENTS_PER_CPU`] per CPU.
    pub capacity_clients: Option<usize>,
    /// Split variant: threads of the CPU-and-cache pool; `None` = Little's law with headroom.
    pub split_fast_threads: Option<usize>,
    pub trials: usize,
    /// Round trips per context-switch probe trial (each round trip is two switches).
    pub probe_round_trips: u64,
    pub warmup: Duration,
    /// Wall-clock allowance; checked after each round of trials.
    pub budget: Duration,
    /// Seeds the arrival schedules: every variant of a trial sees the same requests.
    pub seed: u64,
}

impl Default for Config {
    /// The article's regime scaled to this machine's CPUs (147.5 requests/s per CPU, CPU
    /// work 15% of the CPUs, hit 1-2 ms, miss 40-80 ms, 92% then 97% hits), each case run
    /// three times for 3 s plus a 1 s capacity probe.
    fn default() -> Self {
        Self {
            variants: Variant::available(),
            pool_sizes: None,
            short_sweep: false,
            hit_rates: vec![0.92, 0.97],
            rate_per_cpu_per_s: ARTICLE_QPS / ARTICLE_CORES,
            rate_per_s: None,
            work_cpu_share: 0.15,
            cpu_work: None,
            lock_hold: Duration::from_micros(50),
            db_connections: None,
            hit_wait_ms: [1.0, 2.0],
            miss_wait_ms: [40.0, 80.0],
            target_utilization: 0.8,
            window: Duration::from_secs(3),
            queue_timeout: Duration::from_secs(1),
            capacity_window: Duration::from_secs(1),
            capacity_clients: None,
            split_fast_threads: None,
            trials: 3,
            probe_round_trips: 20_000,
            warmup: Duration::from_millis(300),
            budget: Duration::from_secs(270),
            seed: 0x005E_ED0F_9001,
        }
    }
}

impl Config {
    /// Seconds, not minutes: one hit rate, four pool sizes, 0.3 s runs with a 0.25 s queue
    /// timeout, 0.15 s capacity probes, 3 trials (about 17 s on 2 CPUs with every variant).
    pub fn quick() -> Self {
        Self {
            short_sweep: true,
            hit_rates: vec![0.92],
            window: Duration::from_millis(300),
            queue_timeout: Duration::from_millis(250),
            capacity_window: Duration::from_millis(150),
            probe_round_trips: 5_000,
            warmup: Duration::from_millis(100),
            budget: Duration::from_secs(18),
            ..Self::default()
        }
    }

    /// Mean IO wait per request at `hit_rate`, in milliseconds: this service's W.
    pub fn mean_wait_ms(&self, hit_rate: f64) -> f64 {
        let mid = |[low, high]: [f64; 2]| (low + high) / 2.0;
        hit_rate * mid(self.hit_wait_ms) + (1.0 - hit_rate) * mid(self.miss_wait_ms)
    }

    /// The arrival rate: as configured, else `rate_per_cpu_per_s` x this machine's CPUs.
    pub fn offered_rate_per_s(&self, cpus: usize) -> f64 {
        self.rate_per_s.unwrap_or(self.rate_per_cpu_per_s * cpus as f64)
    }

    /// CPU work per request: as configured, else `work_cpu_share` of the CPUs at the offered
    /// rate (C = share x CPUs / rate).
    pub fn cpu_work_for(&self, cpus: usize) -> Duration {
        // An input that gives no finite duration gives zero, which validation refuses.
        self.cpu_work.unwrap_or_else(|| {
            Duration::try_from_secs_f64(self.work_cpu_share * cpus as f64 / self.offered_rate_per_s(cpus))
                .unwrap_or(Duration::ZERO)
        })
    }

    /// CPU work per request on this machine's CPUs, in milliseconds.
    pub fn cpu_work_ms(&self) -> f64 {
        self.cpu_work_for(crate::machine::logical_cpus()).as_secs_f64() * 1e3
    }

    pub fn db_connections_for(&self, cpus: usize) -> usize {
        self.db_connections.unwrap_or((DB_CONNECTIONS_PER_CPU * cpus as f64).ceil() as usize).max(1)
    }

    pub fn capacity_clients_for(&self, cpus: usize) -> usize {
        self.capacity_clients.unwrap_or((CAPACITY_CLIENTS_PER_CPU * cpus).min(MAX_CAPACITY_CLIENTS))
    }

    /// Goetz's answer for this machine from this service's *mean* W/C at `hit_rate`.
    pub fn formula_threads(&self, cpus: usize, hit_rate: f64) -> usize {
        let compute_ms = self.cpu_work_for(cpus).as_secs_f64() * 1e3;
        formula::rounded(formula::goetz_threads(
            cpus as f64,
            self.target_utilization,
            self.mean_wait_ms(hit_rate),
            compute_ms,
        ))
    }

    /// Goetz's answer for this machine from the article's inputs (W = 49 ms, C = 1 ms).
    /// Unlike a size in the sweep it is not refused past [`MAX_POOL_THREADS`]: the warm-up
    /// uses [`Config::warm_up_threads`].
    pub fn article_formula_threads(&self, cpus: usize) -> usize {
        formula::rounded(formula::goetz_threads(
            cpus as f64,
            self.target_utilization,
            formula::ARTICLE_WAIT_MS,
            formula::ARTICLE_COMPUTE_MS,
        ))
    }

    /// The pool the warm-up runs on: the article's incident pool (large enough not to
    /// queue), at most [`MAX_POOL_THREADS`] like every pool the sweep runs.
    pub fn warm_up_threads(&self, cpus: usize) -> usize {
        self.article_formula_threads(cpus).min(MAX_POOL_THREADS)
    }

    /// The fixed-pool sizes: as configured, else cores+1, 8 per CPU (the article's fix: 64
    /// on 8 cores), the formula's answer with this service's mean W for the first hit rate,
    /// 40 per CPU (the article's 320 on 8 cores) and the formula's answer with the article's
    /// W (the same at U = 0.8), plus 2 and 4 per CPU unless the sweep is short.
    pub fn sweep(&self, cpus: usize) -> Vec<usize> {
        if let Some(sizes) = &self.pool_sizes {
            return sizes.clone();
        }
        let formula = self.formula_threads(cpus, self.hit_rates.first().copied().unwrap_or(1.0));
        let mut sizes = vec![cpus + 1, 8 * cpus, formula, 40 * cpus, self.article_formula_threads(cpus)];
        if !self.short_sweep {
            sizes.extend([2 * cpus, 4 * cpus]);
        }
        sizes.retain(|&size| size <= MAX_POOL_THREADS);
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }
}

/// Per-class sizing: the fast pool holds [`SPLIT_HEADROOM`] times the mean number of requests
/// in its stage (Little's law) and at least one thread per CPU, so the CPU work can use every
/// CPU, and at most [`MAX_POOL_THREADS`], unless the config sets it; the miss pool has one
/// thread per database connection, as more could only wait for one.
pub fn split_sizes(config: &Config, cpus: usize, hit_rate: f64) -> SplitSizes {
    let mid = |[low, high]: [f64; 2]| (low + high) / 2.0 / 1e3;
    let fast_stage_s =
        config.cpu_work_for(cpus).as_secs_f64() + config.lock_hold.as_secs_f64() + hit_rate * mid(config.hit_wait_ms);
    let fast = (SPLIT_HEADROOM * mean_concurrency(config.offered_rate_per_s(cpus), fast_stage_s)).ceil() as usize;
    SplitSizes {
        fast_threads: config.split_fast_threads.unwrap_or(fast.max(cpus).min(MAX_POOL_THREADS)),
        miss_threads: config.db_connections_for(cpus),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_pools_follow_littles_law_with_headroom() {
        let config = Config {
            cpu_work: Some(std::time::Duration::from_millis(1)),
            lock_hold: std::time::Duration::ZERO,
            rate_per_s: Some(4000.0),
            db_connections: Some(9),
            ..Config::default()
        };
        // 4000 req/s, hit 0.5: fast stage 1 ms + 0.5 x 1.5 ms = 1.75 ms -> 7 x 1.5 = 10.5 -> 11.
        assert_eq!(split_sizes(&config, 2, 0.5), SplitSizes { fast_threads: 11, miss_threads: 9 });
        let fixed = Config { split_fast_threads: Some(7), ..config.clone() };
        assert_eq!(split_sizes(&fixed, 2, 0.5).fast_threads, 7);
        // At least one thread per CPU.
        assert_eq!(split_sizes(&Config { rate_per_s: Some(10.0), ..config }, 4, 0.5).fast_threads, 4);
    }
}
