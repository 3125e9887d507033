//! What a GC sweep measures: thread counts x GC ratios, the heap's sizes and the work per
//! operation. Defaults follow the article where the machine allows.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::mutator::object_sizes;
use super::span::span_bytes_for;
use super::trigger::MIN_HEAP_BYTES;
pub use super::types::{GcRatio, Workload};
use crate::error::ConfigError;
use crate::machine::logical_cpus;

/// The most worker threads one cell may use.
pub const MAX_THREADS: usize = 1024;

/// Bytes one ECDSA P-256 `Sign` allocates in Go 1.19, measured with `runtime/metrics`
/// (`/gc/heap/allocs:bytes` over signatures) on this project's machine, not taken from the
/// article; `gc-go.csv` records it again on every machine that has Go.
pub const GO_SIGN_ALLOC_BYTES: u64 = 2573;
/// Objects per `Sign` in the same measurements: 32.7 to 33.5, so 33 whole objects.
pub const GO_SIGN_OBJECTS: u32 = 33;
/// Spans the ceiling must leave room for per worker: the one it fills, one held by a
/// stopped operation, and the one it refills into after the cycle, plus one spare.
const SPANS_PER_WORKER: u64 = 4;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Worker counts to sweep (each a separate cell).
    pub threads: Vec<usize>,
    pub ratios: Vec<GcRatio>,
    /// How long each trial lets the workers run.
    pub trial: Duration,
    /// Size of the live object graph every cycle must trace.
    pub live_bytes: u64,
    /// Bytes each operation allocates (object payloads, without headers).
    pub alloc_per_op_bytes: u64,
    pub objects_per_op: u32,
    /// The heap never holds more than this; with ratio `off` it is what forces a cycle.
    pub ceiling_bytes: u64,
    /// Go's minimum heap: the trigger never falls below this x ratio / 100.
    pub min_heap_bytes: u64,
    pub workload: Workload,
    /// Measured trials per (threads, ratio) cell.
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance for the measured rounds: a round of trials over every cell
    /// starts only while one more round of the average length so far still fits, and a
    /// round under way stops once it is spent (so the sweep ends at most one trial late).
    pub budget: Duration,
}

impl Default for Config {
    /// The article's shape sized to this machine: 1 up to 4 x the logical CPUs, GOGC 100 to
    /// the article's best (11300) and off, and what Go 1.19's P-256 `Sign` allocates.
    fn default() -> Self {
        Self {
            threads: default_thread_counts(logical_cpus()),
            ratios: [100, 200, 400, 800, 2400, 4800, 11300]
                .map(GcRatio::Percent)
                .into_iter()
                .chain([GcRatio::Off])
                .collect(),
            trial: Duration::from_secs(1),
            live_bytes: 1 << 20,
            alloc_per_op_bytes: GO_SIGN_ALLOC_BYTES,
            objects_per_op: GO_SIGN_OBJECTS,
            ceiling_bytes: 1 << 30,
            min_heap_bytes: MIN_HEAP_BYTES,
            workload: Workload::preferred(),
            trials: 3,
            warmup: Duration::from_millis(500),
            budget: Duration::from_secs(270),
        }
    }
}

impl Config {
    /// Seconds, not minutes: three thread counts (one, the CPUs, four times the CPUs: the
    /// article's 1, its peak and its oversubscribed 48), three ratios (the default, the
    /// article's first large win 2400, and off), 0.2 s trials, and a 256 MiB ceiling so `off`
    /// stays light in a notebook (and shows the ceiling forcing cycles).
    pub fn quick() -> Self {
        let cpus = logical_cpus().max(1);
        let mut threads: Vec<usize> = [1, cpus, 4 * cpus].into_iter().map(|n| n.min(MAX_THREADS)).collect();
        threads.dedup();
        Self {
            threads,
            ceiling_bytes: 256 << 20,
            ratios: [100, 2400].map(GcRatio::Percent).into_iter().chain([GcRatio::Off]).collect(),
            trial: Duration::from_millis(200),
            workload: Workload::preferred(),
            warmup: Duration::from_millis(100),
            budget: Duration::from_secs(15),
            ..Self::default()
        }
    }

    /// Bytes of one span: 8 KiB, or whole 8 KiB pages around the largest object.
    pub fn span_bytes(&self) -> u64 {
        let largest = object_sizes(self.alloc_per_op_bytes, self.objects_per_op).into_iter().max().unwrap_or(1);
        span_bytes_for(largest as u64)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.threads.is_empty() {
            return Err(ConfigError::new("threads", "(none)", "at least one thread count, e.g. 1,2,4"));
        }
        if let Some(&bad) = self.threads.iter().find(|&&threads| threads == 0 || threads > MAX_THREADS) {
            return Err(ConfigError::new("threads", bad, format!("between 1 and {MAX_THREADS}")));
        }
        if self.ratios.is_empty() {
            return Err(ConfigError::new("ratios", "(none)", "at least one ratio, e.g. 100,400,off"));
        }
        if let Some(bad) = self.ratios.iter().find(|ratio| **ratio == GcRatio::Percent(0)) {
            return Err(ConfigError::new("ratios", bad, "a whole percentage of at least 1, or off"));
        }
        if self.ratios.len() > super::ratios::MAX_RATIOS {
            return Err(ConfigError::new("ratios", format!("{} ratios", self.ratios.len()), super::ratios::allowed()));
        }
        if self.trial.is_zero() {
            return Err(ConfigError::new("seconds", 0, "more than 0 seconds per trial"));
        }
        if self.objects_per_op == 0 {
            return Err(ConfigError::new("objects-per-op", 0, "at least 1"));
        }
        if self.alloc_per_op_bytes < u64::from(self.objects_per_op) {
            let allowed = format!("at least 1 byte per object ({} objects per operation)", self.objects_per_op);
            return Err(ConfigError::new("alloc-per-op", self.alloc_per_op_bytes, allowed));
        }
        self.validate_sizes()?;
        crate::limits::check_trials(self.trials, 1)?;
        crate::limits::check_rows("trials", self.threads.len().saturating_mul(self.ratios.len()), self.trials)?;
        let distinct = |mut keys: Vec<u64>| {
            keys.sort_unstable();
            keys.dedup();
            keys.len()
        };
        let threads = distinct(self.threads.iter().map(|&threads| threads as u64).collect());
        let ratios = distinct(self.ratios.iter().map(|ratio| ratio.order_key()).collect());
        crate::limits::check_cases(
            "threads",
            threads.saturating_mul(ratios),
            &format!("cells ({threads} thread counts x {ratios} ratios)"),
        )?;
        crate::limits::check_warmup_and_budget(self.warmup, self.budget)
    }

    /// The smallest ceiling the other sizes allow: the live graph plus
    /// [`SPANS_PER_WORKER`] spans per worker and one more, and twice an operation's
    /// allocation.
    pub fn smallest_ceiling_bytes(&self) -> u64 {
        let most_threads = self.threads.iter().copied().max().unwrap_or(1) as u64;
        let room = self.span_bytes().saturating_mul(SPANS_PER_WORKER.saturating_mul(most_threads).saturating_add(1));
        self.live_bytes.saturating_add(room).max(self.alloc_per_op_bytes.saturating_mul(2))
    }

    /// Each heap size within half the machine's memory; the live graph plus a few spans per
    /// worker must fit under the ceiling, or a cycle forced by the ceiling could free nothing
    /// and the trial could not go on.
    fn validate_sizes(&self) -> Result<(), ConfigError> {
        crate::limits::check_heap_bytes("live-bytes", self.live_bytes)?;
        crate::limits::check_heap_bytes("ceiling-bytes", self.ceiling_bytes)?;
        let ceiling = self.ceiling_bytes;
        if self.alloc_per_op_bytes > ceiling / 2 {
            let allowed = format!("at most half the heap ceiling ({ceiling} bytes)");
            return Err(ConfigError::new("alloc-per-op", self.alloc_per_op_bytes, allowed));
        }
        let most_threads = self.threads.iter().copied().max().unwrap_or(1) as u64;
        let span = self.span_bytes();
        let room = span.saturating_mul(SPANS_PER_WORKER * most_threads + 1);
        if self.live_bytes.saturating_add(room) > ceiling {
            let allowed = format!(
                "at most the heap ceiling ({ceiling} bytes) minus {SPANS_PER_WORKER} {span}-byte spans per worker \
                 and one more ({most_threads} workers): {} bytes",
                ceiling.saturating_sub(room)
            );
            return Err(ConfigError::new("live-bytes", self.live_bytes, allowed));
        }
        Ok(())
    }
}

/// 1, 2, 4, ... up to 4 x the logical CPUs, with the CPU count itself and its multiples
/// (where the article's curve bends: cores, then hyper-threads, then oversubscription).
pub fn default_thread_counts(cpus: usize) -> Vec<usize> {
    let cpus = cpus.max(1);
    let most = (4 * cpus).min(MAX_THREADS);
    let mut counts: Vec<usize> =
        std::iter::successors(Some(1usize), |n| n.checked_mul(2)).take_while(|&n| n <= most).collect();
    counts.extend([cpus, 2 * cpus, most].into_iter().filter(|&n| n <= most));
    counts.sort_unstable();
    counts.dedup();
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_parse_percent_or_off_and_reject_the_rest() {
        assert_eq!("100".parse::<GcRatio>().unwrap(), GcRatio::Percent(100));
        assert_eq!(" OFF ".parse::<GcRatio>().unwrap(), GcRatio::Off);
        let message = "0".parse::<GcRatio>().unwrap_err().to_string();
        assert_eq!(message, "invalid ratios = 0: a whole percentage of at least 1 (GOGC-style, e.g. 100), or off");
        assert!("-5".parse::<GcRatio>().is_err());
        assert!("fast".parse::<GcRatio>().is_err());
        assert_eq!(GcRatio::Off.to_string(), "off");
    }

    #[test]
    fn default_threads_reach_four_times_the_cpus() {
        assert_eq!(default_thread_counts(2), vec![1, 2, 4, 8]);
        assert_eq!(default_thread_counts(6), vec![1, 2, 4, 6, 8, 12, 16, 24]);
        assert_eq!(default_thread_counts(1), vec![1, 2, 4]);
    }

    #[test]
    fn defaults_and_quick_are_valid() {
        Config::default().validate().unwrap();
        Config::quick().validate().unwrap();
    }

    #[test]
    fn bad_values_are_named() {
        let check = |config: Config, field: &str| assert_eq!(config.validate().unwrap_err().field, field);
        check(Config { threads: vec![2, 0], ..Config::quick() }, "threads");
        check(Config { trial: Duration::ZERO, ..Config::quick() }, "seconds");
        check(Config { live_bytes: 2 << 30, ..Config::quick() }, "live-bytes");
        check(Config { alloc_per_op_bytes: 1 << 30, ..Config::quick() }, "alloc-per-op");
        check(Config { ratios: vec![GcRatio::Percent(0)], ..Config::quick() }, "ratios");
        let error = Config { live_bytes: 2 << 30, ..Config::quick() }.validate().unwrap_err();
        assert!(error.to_string().starts_with("invalid live-bytes = 2147483648: at most the heap ceiling"), "{error}");
    }
}
