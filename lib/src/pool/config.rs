//! What one pool experiment runs: the service's shape, the load, the variants and the sweep.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::formula;
use crate::error::ConfigError;
use crate::harness::logical_cpus;

/// Largest pool the sweep accepts: enough for the article's 320 threads on many cores.
pub const MAX_POOL_THREADS: usize = 4096;
/// Bounds the pre-generated schedule (rate x seconds) and so the run's memory.
pub const MAX_REQUESTS_PER_RUN: f64 = 5_000_000.0;

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
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Fixed, Variant::Split, Variant::Async];

    /// The variants this build can run: async needs the lib's `async` feature.
    pub fn available() -> Vec<Variant> {
        Self::ALL.into_iter().filter(|&variant| variant != Variant::Async || cfg!(feature = "async")).collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::Fixed => "fixed",
            Variant::Split => "split",
            Variant::Async => "async",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub variants: Vec<Variant>,
    /// Fixed-pool sizes to sweep; `None` derives them from this machine (see [`Config::sweep`]).
    pub pool_sizes: Option<Vec<usize>>,
    /// Omit the intermediate sizes (2, 4 x CPUs) from a derived sweep.
    pub short_sweep: bool,
    /// Probabilities that a request is served from the cache (the article: 0.92, then 0.97).
    pub hit_rates: Vec<f64>,
    /// Real CPU work per request (hashing), calibrated on this machine at start.
    pub cpu_work: Duration,
    /// Simulated IO of a cache hit, uniform between the two ends (ms).
    pub hit_wait_ms: [f64; 2],
    /// Simulated IO of a miss (the database path), uniform between the two ends (ms).
    pub miss_wait_ms: [f64; 2],
    /// Requests per second; `None` offers `target_utilization` of this machine's CPUs.
    pub rate_per_s: Option<f64>,
    /// U in Goetz's formula, and the CPU share the default rate offers.
    pub target_utilization: f64,
    /// How long requests arrive in each measured run.
    pub window: Duration,
    /// A request that waited longer than this in a queue is dropped (its caller gave up).
    pub queue_timeout: Duration,
    /// Split variant: threads of the cache-step pool; `None` = the per-class formula.
    pub split_fast_threads: Option<usize>,
    /// Split variant: the miss pool's size; `None` = Little's law for misses, plus headroom.
    pub split_db_connections: Option<usize>,
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
    /// The article's shape (hit 1-2 ms, miss 40-80 ms, 92% then 97% hits) at 80% of this
    /// machine's CPUs, each case run three times for 3 s.
    fn default() -> Self {
        Self {
            variants: Variant::available(),
            pool_sizes: None,
            short_sweep: false,
            hit_rates: vec![0.92, 0.97],
            cpu_work: Duration::from_micros(500),
            hit_wait_ms: [1.0, 2.0],
            miss_wait_ms: [40.0, 80.0],
            rate_per_s: None,
            target_utilization: 0.8,
            window: Duration::from_secs(3),
            queue_timeout: Duration::from_secs(1),
            split_fast_threads: None,
            split_db_connections: None,
            trials: 3,
            probe_round_trips: 20_000,
            warmup: Duration::from_millis(300),
            budget: Duration::from_secs(240),
            seed: 0x005E_ED0F_9001,
        }
    }
}

impl Config {
    /// Seconds, not minutes: one hit rate, five pool sizes, 0.6 s runs, a 0.3 s queue timeout.
    pub fn quick() -> Self {
        Self {
            short_sweep: true,
            hit_rates: vec![0.92],
            window: Duration::from_millis(600),
            queue_timeout: Duration::from_millis(300),
            probe_round_trips: 5_000,
            warmup: Duration::from_millis(100),
            budget: Duration::from_secs(20),
            ..Self::default()
        }
    }

    /// Mean simulated wait per request at `hit_rate`, in milliseconds.
    pub fn mean_wait_ms(&self, hit_rate: f64) -> f64 {
        let mid = |[low, high]: [f64; 2]| (low + high) / 2.0;
        hit_rate * mid(self.hit_wait_ms) + (1.0 - hit_rate) * mid(self.miss_wait_ms)
    }

    pub fn cpu_work_ms(&self) -> f64 {
        self.cpu_work.as_secs_f64() * 1e3
    }

    /// The arrival rate: as configured, else `target_utilization` of this machine's CPUs.
    pub fn offered_rate_per_s(&self, cpus: usize) -> f64 {
        self.rate_per_s.unwrap_or_else(|| self.target_utilization * cpus as f64 / self.cpu_work.as_secs_f64())
    }

    /// Goetz's answer for this machine from the *mean* W/C at `hit_rate`.
    pub fn formula_threads(&self, cpus: usize, hit_rate: f64) -> usize {
        let threads = formula::goetz_threads(
            cpus as f64,
            self.target_utilization,
            self.mean_wait_ms(hit_rate),
            self.cpu_work_ms(),
        );
        (threads.round() as usize).max(1)
    }

    /// The fixed-pool sizes: as configured, else cores+1, 2, 4 and 8 per CPU (the article's
    /// fix, 64 on 8 cores), the formula's answer for the first hit rate and twice that, and 40
    /// per CPU (the article's 320 on 8 cores). A short sweep skips 2 and 4 per CPU.
    pub fn sweep(&self, cpus: usize) -> Vec<usize> {
        if let Some(sizes) = &self.pool_sizes {
            return sizes.clone();
        }
        let formula = self.formula_threads(cpus, self.hit_rates.first().copied().unwrap_or(1.0));
        let mut sizes = vec![cpus + 1, 8 * cpus, formula, 2 * formula, 40 * cpus];
        if !self.short_sweep {
            sizes.extend([2 * cpus, 4 * cpus]);
        }
        sizes.retain(|&size| size <= MAX_POOL_THREADS);
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.variants.is_empty() {
            return Err(ConfigError::new("variant", "(none)", "fixed, split, async or all"));
        }
        if self.variants.contains(&Variant::Async) && !cfg!(feature = "async") {
            return Err(ConfigError::new("variant", "async", "fixed or split: this build lacks the `async` feature"));
        }
        self.validate_pool_sizes()?;
        if self.hit_rates.is_empty() {
            return Err(ConfigError::new("hit", "(none)", "at least one hit rate between 0 and 1"));
        }
        if let Some(&bad) = self.hit_rates.iter().find(|hit| !(0.0..=1.0).contains(*hit)) {
            return Err(ConfigError::new("hit", bad, "a probability between 0 and 1"));
        }
        validate_range("hit-wait-ms", self.hit_wait_ms)?;
        validate_range("miss-wait-ms", self.miss_wait_ms)?;
        if self.cpu_work < Duration::from_micros(1) {
            return Err(ConfigError::new("cpu_work", self.cpu_work.as_micros(), "at least 1 microsecond"));
        }
        if !(self.target_utilization > 0.0 && self.target_utilization <= 1.0) {
            return Err(ConfigError::new(
                "target_utilization",
                self.target_utilization,
                "a share above 0 and at most 1",
            ));
        }
        self.validate_load()?;
        for (field, size) in
            [("split_fast_threads", self.split_fast_threads), ("split_db_connections", self.split_db_connections)]
        {
            if let Some(bad) = size.filter(|&n| n == 0 || n > MAX_POOL_THREADS) {
                return Err(ConfigError::new(field, bad, format!("1 to {MAX_POOL_THREADS} threads")));
            }
        }
        crate::limits::check_trials(self.trials, 1)?;
        if self.probe_round_trips == 0 {
            return Err(ConfigError::new("probe_round_trips", 0, "at least 1"));
        }
        Ok(())
    }

    fn validate_pool_sizes(&self) -> Result<(), ConfigError> {
        let Some(sizes) = &self.pool_sizes else { return Ok(()) };
        if sizes.is_empty() {
            return Err(ConfigError::new("pool-sizes", "(none)", "at least one pool size, e.g. 3,16,80"));
        }
        if let Some(&bad) = sizes.iter().find(|&&size| size == 0 || size > MAX_POOL_THREADS) {
            return Err(ConfigError::new("pool-sizes", bad, format!("1 to {MAX_POOL_THREADS} threads")));
        }
        Ok(())
    }

    fn validate_load(&self) -> Result<(), ConfigError> {
        if let Some(rate) = self.rate_per_s.filter(|rate| !(rate.is_finite() && *rate > 0.0)) {
            return Err(ConfigError::new("rate", rate, "requests per second above 0"));
        }
        if self.window.is_zero() {
            return Err(ConfigError::new("seconds", 0, "a run length above 0 seconds"));
        }
        if self.queue_timeout.is_zero() {
            return Err(ConfigError::new("queue_timeout", 0, "above 0 seconds"));
        }
        let requests = self.offered_rate_per_s(logical_cpus()) * self.window.as_secs_f64();
        if requests > MAX_REQUESTS_PER_RUN {
            return Err(ConfigError::new(
                "rate",
                format!("{:.0} x {} s", self.offered_rate_per_s(logical_cpus()), self.window.as_secs_f64()),
                format!("at most {MAX_REQUESTS_PER_RUN:.0} requests per run (rate x seconds)"),
            ));
        }
        Ok(())
    }
}

fn validate_range(field: &'static str, [low, high]: [f64; 2]) -> Result<(), ConfigError> {
    if !(low.is_finite() && high.is_finite() && low >= 0.0) {
        return Err(ConfigError::new(field, format!("{low},{high}"), "two finite milliseconds, at least 0"));
    }
    if low > high {
        return Err(ConfigError::new(
            field,
            format!("{low},{high}"),
            "MIN,MAX with MIN <= MAX (the range is reversed)",
        ));
    }
    Ok(())
}
