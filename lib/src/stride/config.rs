//! The stride sweep's config: the article's sizes, the quick ones, and what may run.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{ARTICLE_CLEAN_THREADS, MAX_ARENA_BYTES, MAX_STRIDES, MAX_THREADS};
use crate::error::ConfigError;
use crate::limits::{check_range, check_trials, check_warmup_and_budget, MAX_INCREMENTS_PER_TRIAL};
use crate::machine::logical_cpus;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Worker threads, each incrementing its own counter.
    pub threads: usize,
    /// A second sweep at this many threads, where it differs from `threads`: the article's
    /// 64-byte stride still paid at 8 threads where 2 threads were clean (claim A10), so a
    /// machine with the CPUs for 8 sweeps at both. `None`: one sweep.
    #[serde(default)]
    pub clean_threads: Option<usize>,
    /// Distances between neighbouring counters, in bytes (multiples of 8).
    pub strides_bytes: Vec<usize>,
    /// Adds per thread per trial, at least: raised until a trial takes [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME).
    pub iters_per_thread: u64,
    /// Measured trials per stride.
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance; checked after each round of trials over all strides.
    pub budget: Duration,
}

impl Default for Config {
    /// The article's sizes: 8 threads (fewer if the machine has fewer CPUs), 10 M adds each,
    /// and again at the article's clean 2 threads where that is fewer.
    fn default() -> Self {
        let threads = logical_cpus().min(8);
        Self {
            threads,
            clean_threads: Some(ARTICLE_CLEAN_THREADS).filter(|&clean| clean < threads),
            strides_bytes: vec![8, 16, 32, 64, 128, 256],
            iters_per_thread: 10_000_000,
            trials: 5,
            warmup: Duration::from_millis(300),
            budget: Duration::from_secs(300),
        }
    }
}

impl Config {
    /// Seconds, not minutes: each stride's trial sized to about
    /// [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME) (from at least 100 000 adds per
    /// thread), 9 trials a stride.
    pub fn quick() -> Self {
        Self {
            iters_per_thread: 100_000,
            trials: 9,
            warmup: Duration::from_millis(50),
            budget: Duration::from_secs(10),
            ..Self::default()
        }
    }

    /// The thread counts of the sweeps, `threads` first.
    pub fn teams(&self) -> Vec<usize> {
        [self.threads].into_iter().chain(self.clean_threads.filter(|&n| n != self.threads)).collect()
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        for threads in self.teams() {
            check_range("threads", threads, 1, MAX_THREADS, "threads")?;
            check_strides(&self.strides_bytes, threads)?;
            let max_iters = MAX_INCREMENTS_PER_TRIAL / threads as u64;
            let unit = format!(
                "increments per thread (threads = {threads}; a trial does at most {MAX_INCREMENTS_PER_TRIAL} in all)"
            );
            check_range("iters", self.iters_per_thread, 1, max_iters, &unit)?;
        }
        check_trials(self.trials, 1)?;
        check_warmup_and_budget(self.warmup, self.budget)
    }
}

/// At least one stride, at most [`MAX_STRIDES`], each a multiple of 8 that leaves room in
/// the arena for every thread's counter. Checked after the threads, so a stride too wide
/// is blamed on the stride the user gave, not on a thread count they never set.
fn check_strides(strides_bytes: &[usize], threads: usize) -> Result<(), ConfigError> {
    if strides_bytes.is_empty() {
        return Err(ConfigError::new("strides", "(none)", "at least one stride, e.g. 8,16,32,64,128,256"));
    }
    if strides_bytes.len() > MAX_STRIDES {
        return Err(ConfigError::new(
            "strides",
            format!("{} strides", strides_bytes.len()),
            format!("at most {MAX_STRIDES} strides (each gets its own arena of up to {MAX_ARENA_BYTES} bytes)"),
        ));
    }
    let widest = MAX_ARENA_BYTES / threads.max(1) / 8 * 8;
    if let Some(&bad) = strides_bytes.iter().find(|&&stride| stride < 8 || stride % 8 != 0 || stride > widest) {
        return Err(ConfigError::new(
            "strides",
            bad,
            format!(
                "multiples of 8 bytes from 8 to {widest} (with threads = {threads}, threads x stride must fit \
                 the {MAX_ARENA_BYTES}-byte arena)"
            ),
        ));
    }
    Ok(())
}
