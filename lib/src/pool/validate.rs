//! What a pool config must hold before anything runs: each bad value is named, with what
//! would be accepted (the names are the CLI's flags).

use std::time::Duration;

use super::config::{Config, MAX_CAPACITY_CLIENTS, MAX_POOL_THREADS, MAX_REQUESTS_PER_RUN};
use crate::error::ConfigError;
use crate::limits::{check_duration, MAX_TRIAL, MAX_WAIT_MS, MIN_TRIAL};
use crate::machine::logical_cpus;

/// What `--queue-timeout-ms` accepts: a timeout no longer than one trial may run.
pub const QUEUE_TIMEOUT_RANGE: &str = "above 0 and at most 600000 milliseconds";

impl Config {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.variants.is_empty() {
            return Err(ConfigError::new("variant", "(none)", "fixed, split, async or all"));
        }
        if let Some(variant) = self.variants.iter().find(|variant| variant.is_async() && !cfg!(feature = "async")) {
            let allowed = "fixed or split: this build lacks the `async` feature";
            return Err(ConfigError::new("variant", variant.name(), allowed));
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
        share("work-share", self.work_cpu_share)?;
        share("target_utilization", self.target_utilization)?;
        self.validate_load()?;
        self.validate_downstream()?;
        crate::limits::check_trials(self.trials, 1)?;
        let cases = self.sweep(logical_cpus()).len().saturating_add(self.variants.len());
        crate::limits::check_rows("trials", cases.saturating_mul(self.hit_rates.len()), self.trials)?;
        crate::limits::check_cases(
            "pool-sizes",
            cases.saturating_mul(self.hit_rates.len()),
            "cases (sizes and variants x hit rates)",
        )?;
        crate::limits::check_warmup_and_budget(self.warmup, self.budget)?;
        if self.probe_round_trips == 0 {
            return Err(ConfigError::new("probe_round_trips", 0, "at least 1"));
        }
        Ok(())
    }

    fn validate_pool_sizes(&self) -> Result<(), ConfigError> {
        let threads = format!("1 to {MAX_POOL_THREADS} threads");
        if let Some(bad) = self.split_fast_threads.filter(|&n| n == 0 || n > MAX_POOL_THREADS) {
            return Err(ConfigError::new("split_fast_threads", bad, threads));
        }
        let Some(sizes) = &self.pool_sizes else { return Ok(()) };
        if sizes.is_empty() {
            return Err(ConfigError::new("pool-sizes", "(none)", "at least one pool size, e.g. 3,16,80"));
        }
        if let Some(&bad) = sizes.iter().find(|&&size| size == 0 || size > MAX_POOL_THREADS) {
            return Err(ConfigError::new("pool-sizes", bad, threads));
        }
        Ok(())
    }

    fn validate_load(&self) -> Result<(), ConfigError> {
        if !(self.rate_per_cpu_per_s.is_finite() && self.rate_per_cpu_per_s > 0.0) {
            return Err(ConfigError::new("rate-per-cpu", self.rate_per_cpu_per_s, "requests per second above 0"));
        }
        if let Some(rate) = self.rate_per_s.filter(|rate| !(rate.is_finite() && *rate > 0.0)) {
            return Err(ConfigError::new("rate", rate, "requests per second above 0"));
        }
        let cpus = logical_cpus();
        let work = self.cpu_work_for(cpus);
        if !(Duration::from_micros(1)..=Duration::from_secs(1)).contains(&work) {
            return Err(ConfigError::new(
                "cpu-work-ms",
                work.as_secs_f64() * 1e3,
                "CPU work per request from 0.001 to 1000 ms (set directly, or by --work-share and the rate)",
            ));
        }
        for (field, length) in [("seconds", self.window), ("capacity-seconds", self.capacity_window)] {
            check_duration(field, length, MIN_TRIAL, MAX_TRIAL)?;
        }
        if self.queue_timeout.is_zero() || self.queue_timeout > MAX_TRIAL {
            let millis = self.queue_timeout.as_secs_f64() * 1e3;
            return Err(ConfigError::new("queue-timeout-ms", millis, QUEUE_TIMEOUT_RANGE));
        }
        let requests = self.offered_rate_per_s(cpus) * self.window.as_secs_f64();
        if requests > MAX_REQUESTS_PER_RUN {
            return Err(ConfigError::new(
                "rate",
                format!("{:.0} x {} s", self.offered_rate_per_s(cpus), self.window.as_secs_f64()),
                format!("at most {MAX_REQUESTS_PER_RUN:.0} requests per run (rate x seconds)"),
            ));
        }
        Ok(())
    }

    fn validate_downstream(&self) -> Result<(), ConfigError> {
        if self.lock_hold > Duration::from_secs(1) {
            return Err(ConfigError::new("lock-hold-us", self.lock_hold.as_micros(), "0 to 1000000 microseconds"));
        }
        if let Some(bad) = self.db_connections.filter(|&n| n == 0 || n > MAX_POOL_THREADS) {
            return Err(ConfigError::new("db-connections", bad, format!("1 to {MAX_POOL_THREADS} connections")));
        }
        if let Some(bad) = self.capacity_clients.filter(|&n| n == 0 || n > MAX_CAPACITY_CLIENTS) {
            return Err(ConfigError::new("capacity-clients", bad, format!("1 to {MAX_CAPACITY_CLIENTS} callers")));
        }
        Ok(())
    }
}

fn share(field: &'static str, value: f64) -> Result<(), ConfigError> {
    if value > 0.0 && value <= 1.0 {
        return Ok(());
    }
    Err(ConfigError::new(field, value, "a share above 0 and at most 1"))
}

/// A wait's MIN,MAX in milliseconds, each from 0 to [`MAX_WAIT_MS`] (as long as one trial
/// may run).
fn validate_range(field: &'static str, [low, high]: [f64; 2]) -> Result<(), ConfigError> {
    let in_range = |ms: f64| (0.0..=MAX_WAIT_MS).contains(&ms);
    if !(in_range(low) && in_range(high)) {
        let allowed = format!("two milliseconds, MIN,MAX, each from 0 to {MAX_WAIT_MS} (one trial's longest run)");
        return Err(ConfigError::new(field, format!("{low},{high}"), allowed));
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
