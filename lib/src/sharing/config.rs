//! What the four-way control measures: its teams' threads, the one total they share, the
//! padding of the no-sharing case, trials and budget; the article's where the machine allows.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{ARTICLE_HEADLINE_THREADS, MAX_PADDING_BYTES, MAX_THREADS};
use crate::error::ConfigError;
use crate::limits::{check_even_total, check_range, check_trials, check_warmup_and_budget};
use crate::machine::logical_cpus;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Threads in the true-, false- and no-sharing cases (the single case uses one): the
    /// article's control ran 2 (claims A6, A7).
    pub threads: usize,
    /// A second team for the same three cases, where the machine has more CPUs than
    /// `threads`: the article's headline ran 8 threads on 8 adjacent counters (claim A1).
    /// Both teams share the one total and the one single-thread case. `None`: one team.
    #[serde(default)]
    pub headline_threads: Option<usize>,
    /// Increments in every case, split evenly over the threads; at least this many, raised
    /// until a trial takes [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME).
    pub total_increments: u64,
    /// Distance between the counters of the no-sharing case, in bytes.
    pub padding_bytes: usize,
    /// Measured trials per case.
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance; checked after each round of trials over all cases.
    pub budget: Duration,
}

impl Default for Config {
    /// The article's control: 2 threads, 2 x 10 M increments, counters 128 bytes apart; and
    /// its headline's 8 threads where the machine has more than 2 CPUs (as many as it has, up to 8).
    fn default() -> Self {
        Self {
            threads: 2,
            headline_threads: Some(logical_cpus().min(ARTICLE_HEADLINE_THREADS as usize)).filter(|&n| n > 2),
            total_increments: 20_000_000,
            padding_bytes: 128,
            trials: 5,
            warmup: Duration::from_millis(200),
            budget: Duration::from_secs(120),
        }
        .split_evenly()
    }
}

impl Config {
    /// Seconds, not minutes: 400 000 increments in total, so a trial takes milliseconds,
    /// and 9 trials. Short trials are rarely cut by the scheduler on a busy machine, and 9
    /// of them give the median a tighter interval than min..max.
    pub fn quick() -> Self {
        Self {
            total_increments: 400_000,
            trials: 9,
            warmup: Duration::from_millis(40),
            budget: Duration::from_secs(5),
            ..Self::default()
        }
        .split_evenly()
    }

    /// The same config with one team of another thread count, keeping the total (the
    /// control's point), rounded down to a multiple of the threads so it still splits evenly.
    pub fn with_threads(self, threads: usize) -> Self {
        Self { threads, headline_threads: None, ..self }.split_evenly()
    }

    /// The thread counts of the teams, the control's first.
    pub fn teams(&self) -> Vec<usize> {
        [self.threads].into_iter().chain(self.headline_threads.filter(|&n| n != self.threads)).collect()
    }

    /// The smallest total every team splits evenly (the least common multiple of their
    /// threads); `None` when a team has none.
    pub(super) fn split_unit(&self) -> Option<u64> {
        self.teams().into_iter().try_fold(1u64, |unit, threads| match threads as u64 {
            0 => None,
            threads => Some(unit / gcd(unit, threads) * threads),
        })
    }

    /// The total rounded down to a multiple of every team's threads (kept when it cannot be).
    fn split_evenly(self) -> Self {
        match self.split_unit() {
            Some(unit) if self.total_increments >= unit => {
                Self { total_increments: self.total_increments / unit * unit, ..self }
            }
            _ => self,
        }
    }

    pub fn increments_per_thread(&self) -> u64 {
        self.total_increments / self.threads.max(1) as u64
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        for threads in self.teams() {
            check_range("threads", threads, 1, MAX_THREADS, "threads")?;
            check_even_total(self.total_increments, threads)?;
        }
        check_padding(self.padding_bytes)?;
        check_trials(self.trials, 1)?;
        check_warmup_and_budget(self.warmup, self.budget)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn check_padding(padding_bytes: usize) -> Result<(), ConfigError> {
    if !(8..=MAX_PADDING_BYTES).contains(&padding_bytes) || !padding_bytes.is_power_of_two() {
        return Err(ConfigError::new(
            "padding",
            padding_bytes,
            format!("a power of two from 8 to {MAX_PADDING_BYTES} bytes (e.g. 64 or 128)"),
        ));
    }
    Ok(())
}
