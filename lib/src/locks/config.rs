//! What the locks experiment measures: which cases, at which thread counts and read shares,
//! how long the remote call of the lock-across-wait case waits, and over how many keys.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::Case;
use crate::error::ConfigError;
use crate::limits::{check_duration, check_range, check_rows, check_trials, check_warmup_and_budget, MAX_TRIAL};
use crate::machine::logical_cpus;

/// Most worker threads in one team (see [`crate::limits::MAX_TEAM_THREADS`]).
pub const MAX_THREADS: usize = crate::limits::MAX_TEAM_THREADS;
/// The longest remote call the lock-across-wait case may simulate: a slow remote service,
/// far above the article's cache and database calls (1-80 ms).
pub const MAX_WAIT_MS: f64 = 1_000.0;
/// Most distinct keys of the lock-across-wait case (its map holds at most this many).
pub const MAX_KEYS: u64 = 1_000_000;
/// Most requests one thread of the lock-across-wait case makes per trial.
pub const MAX_REQUESTS_PER_THREAD: u64 = 1_000_000;
/// The read shares of the issue and the article's "reads dominate".
const DEFAULT_READ_SHARES: [f64; 3] = [1.0, 0.99, 0.90];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// The cases to measure (`--cases`).
    pub cases: Vec<Case>,
    /// Thread counts (`--threads`): read-mostly runs at each; contended at each of at least
    /// 2; fair-vs-barging at the smallest of at least 2 and at the largest; uncontended at 1.
    pub threads: Vec<usize>,
    /// Shares of read operations in the read-mostly case (`--read-share`), each 0..=1.
    pub read_shares: Vec<f64>,
    /// Threads of the lock-across-wait case: its work is mostly waiting, so it may have more
    /// threads than CPUs, as an IO-bound pool does.
    pub wait_threads: usize,
    /// The remote call's latency in the lock-across-wait case (`--wait-ms`).
    pub wait_ms: f64,
    /// Distinct keys the lock-across-wait requests draw from, skewed (`--keys`).
    pub keys: u64,
    /// Requests each lock-across-wait thread makes per trial (the same in both variants, so
    /// both ask for the same keys).
    pub requests_per_thread: u64,
    /// The time one trial of every other cell is sized to take (per-cell calibration).
    pub trial: Duration,
    /// Measured trials per cell.
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance, calibration included; checked before every trial but the first,
    /// and a trial under way is cut where it ends ([`super::run`]).
    pub budget: Duration,
}

impl Default for Config {
    /// The article's cases at this machine's sizes: 1, 2, 4, ... up to the logical CPUs
    /// (and the CPU count itself), the three read shares, a 1 ms remote call (the article's
    /// Redis hit) on 16 threads over 1 000 keys, 9 trials of 40 ms per cell.
    fn default() -> Self {
        Self {
            cases: Case::ALL.to_vec(),
            threads: default_thread_counts(logical_cpus()),
            read_shares: DEFAULT_READ_SHARES.to_vec(),
            wait_threads: 16,
            wait_ms: 1.0,
            keys: 1_000,
            requests_per_thread: 100,
            trial: Duration::from_millis(40),
            trials: 9,
            warmup: Duration::from_millis(300),
            budget: Duration::from_secs(150),
        }
    }
}

impl Config {
    /// Seconds, not minutes: 12 ms trials, 5 of them (the minimum-evidence rule's count),
    /// 8 waiting threads making 30 requests each over 200 keys.
    pub fn quick() -> Self {
        Self {
            wait_threads: 8,
            keys: 200,
            requests_per_thread: 30,
            trial: Duration::from_millis(12),
            trials: 5,
            warmup: Duration::from_millis(50),
            budget: Duration::from_secs(12),
            ..Self::default()
        }
    }

    /// The same config with one thread count (a notebook's exercise on a small machine).
    pub fn with_threads(self, threads: &[usize]) -> Self {
        Self { threads: threads.to_vec(), ..self }
    }

    /// The largest thread count, the "N" of the cases (1 when none).
    pub fn most_threads(&self) -> usize {
        self.threads.iter().copied().max().unwrap_or(1)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.cases.is_empty() {
            let names: Vec<&str> = Case::ALL.iter().map(|case| case.name()).collect();
            return Err(ConfigError::new("cases", "(none)", format!("one or more of {}", names.join(", "))));
        }
        if self.threads.is_empty() {
            return Err(ConfigError::new("threads", "(none)", "at least one thread count, e.g. 1,2,4"));
        }
        for &threads in &self.threads {
            check_range("threads", threads, 1, MAX_THREADS, "threads")?;
        }
        if self.read_shares.is_empty() {
            return Err(ConfigError::new("read-share", "(none)", "at least one share of reads, e.g. 1,0.99,0.9"));
        }
        for &share in &self.read_shares {
            if !(0.0..=1.0).contains(&share) {
                return Err(ConfigError::new("read-share", share, "a share of reads from 0 to 1 (e.g. 0.99)"));
            }
        }
        self.validate_wait()?;
        check_duration("trial", self.trial, crate::limits::MIN_TRIAL, MAX_TRIAL)?;
        check_trials(self.trials, 1)?;
        let cells = super::cells(self).len();
        if cells == 0 {
            let threads: Vec<String> = self.threads.iter().map(ToString::to_string).collect();
            let allowed = "a count of 2 or more: the cases chosen (contended, fair-vs-barging) need two threads";
            return Err(ConfigError::new("threads", threads.join(","), allowed));
        }
        check_rows("trials", cells, self.trials)?;
        check_warmup_and_budget(self.warmup, self.budget)
    }

    /// The lock-across-wait case's sizes: its threads, wait, keys and requests, with the
    /// longest trial they could make (every request a miss, one after another) within
    /// [`MAX_TRIAL`].
    fn validate_wait(&self) -> Result<(), ConfigError> {
        check_range("wait-threads", self.wait_threads, 1, MAX_THREADS, "threads")?;
        if !(0.0..=MAX_WAIT_MS).contains(&self.wait_ms) {
            let allowed = format!("0 to {MAX_WAIT_MS} milliseconds (the remote call's latency)");
            return Err(ConfigError::new("wait-ms", self.wait_ms, allowed));
        }
        check_range("keys", self.keys, 1, MAX_KEYS, "distinct keys")?;
        check_range("requests-per-thread", self.requests_per_thread, 1, MAX_REQUESTS_PER_THREAD, "requests")?;
        let serial_ms = self.wait_ms * (self.requests_per_thread as f64) * (self.wait_threads as f64);
        if serial_ms > MAX_TRIAL.as_secs_f64() * 1e3 {
            let allowed = format!(
                "at most {} ms of waiting in one trial (wait-ms x requests-per-thread x wait-threads = {serial_ms} ms)",
                MAX_TRIAL.as_millis()
            );
            return Err(ConfigError::new("wait-ms", self.wait_ms, allowed));
        }
        Ok(())
    }
}

/// 1, 2, 4, ... up to `cpus`, and `cpus` itself.
pub fn default_thread_counts(cpus: usize) -> Vec<usize> {
    let cpus = cpus.clamp(1, MAX_THREADS);
    let mut counts: Vec<usize> =
        std::iter::successors(Some(1usize), |n| n.checked_mul(2)).take_while(|&n| n <= cpus).collect();
    counts.push(cpus);
    counts.dedup();
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_threads_double_up_to_the_cpus() {
        assert_eq!(default_thread_counts(1), vec![1]);
        assert_eq!(default_thread_counts(2), vec![1, 2]);
        assert_eq!(default_thread_counts(6), vec![1, 2, 4, 6]);
        assert_eq!(default_thread_counts(8), vec![1, 2, 4, 8]);
    }

    #[test]
    fn defaults_and_quick_are_valid() {
        Config::default().validate().unwrap();
        Config::quick().validate().unwrap();
    }

    #[test]
    fn bad_values_name_the_field_the_value_and_the_range() {
        let error = |config: Config| config.validate().unwrap_err().to_string();
        assert_eq!(error(Config { threads: vec![2, 0], ..Config::quick() }), "invalid threads = 0: 1 to 256 threads");
        assert_eq!(
            error(Config { read_shares: vec![1.5], ..Config::quick() }),
            "invalid read-share = 1.5: a share of reads from 0 to 1 (e.g. 0.99)"
        );
        assert_eq!(
            error(Config { wait_ms: 5000.0, ..Config::quick() }),
            "invalid wait-ms = 5000: 0 to 1000 milliseconds (the remote call's latency)"
        );
        assert!(error(Config { keys: 0, ..Config::quick() }).starts_with("invalid keys = 0: 1 to 1000000"));
        assert!(error(Config { cases: vec![], ..Config::quick() }).starts_with("invalid cases = (none): one or more"));
        let long = Config { wait_ms: 1000.0, requests_per_thread: 10_000, ..Config::quick() };
        assert!(error(long).contains("at most 600000 ms of waiting in one trial"));
        assert!(Config { read_shares: vec![f64::NAN], ..Config::quick() }.validate().is_err());
        let nothing = Config { cases: vec![Case::Contended], threads: vec![1], ..Config::quick() };
        assert!(error(nothing).starts_with("invalid threads = 1: a count of 2 or more"));
    }
}
