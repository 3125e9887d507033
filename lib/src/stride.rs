//! The stride sweep (article A's minimal repro): one counter per thread, counters placed
//! `stride` bytes apart in one page-aligned allocation. Counters closer than a cache line
//! share it, and every increment must take the line from the other cores.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::arena::StridedSlots;
use crate::error::{ConfigError, RunError};
use crate::evidence::{self, Evidence, TooFewTrials};
use crate::harness::{calibrate_each, interleaved_trials, max_scale, run_team, warm_up, Outcome, Progress};
use crate::limits::{check_range, check_trials, check_warmup_and_budget, MAX_INCREMENTS_PER_TRIAL};
use crate::machine::logical_cpus;
use crate::perf::CounterReading;
use crate::stats::{Ratio, Summary};
use crate::verdict::{then_what_may_hide_it, Verdict};

pub const EXPERIMENT: &str = "stride";

/// The stride sweep, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct StrideSweep;

crate::experiment::measure!(
    StrideSweep,
    about: "False sharing: counters at growing distances (article A).",
    summary: StrideSummary,
    beside_row: crate::experiment::NoRows;
    fn placements(rows: &[Row]) -> Vec<(&str, bool)> {
        rows.iter().map(|row| (row.cpus.as_str(), row.pinned)).collect()
    }

    fn cache_misses(rows: &[Row]) -> Vec<crate::perf::CounterReading> {
        rows.iter().map(|row| row.cache_misses).collect()
    }
);

pub use crate::arena::MAX_ARENA_BYTES;
/// Most worker threads accepted (see [`crate::limits::MAX_TEAM_THREADS`]).
pub const MAX_THREADS: usize = crate::limits::MAX_TEAM_THREADS;
/// Most strides one sweep measures; every stride's arena is allocated before the trials.
pub const MAX_STRIDES: usize = 32;

/// A median within this fraction of the best counts as "as fast as the best".
pub const KNEE_TOLERANCE: f64 = 0.10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Worker threads, each incrementing its own counter.
    pub threads: usize,
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
    /// The article's sizes: 8 threads (fewer if the machine has fewer CPUs), 10 M adds each.
    fn default() -> Self {
        Self {
            threads: logical_cpus().min(8),
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

    pub fn validate(&self) -> Result<(), ConfigError> {
        check_range("threads", self.threads, 1, MAX_THREADS, "threads")?;
        check_strides(&self.strides_bytes, self.threads)?;
        let max_iters = MAX_INCREMENTS_PER_TRIAL / self.threads as u64;
        let unit = format!(
            "increments per thread (threads = {}; a trial does at most {MAX_INCREMENTS_PER_TRIAL} in all)",
            self.threads
        );
        check_range("iters", self.iters_per_thread, 1, max_iters, &unit)?;
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

/// One trial at one stride.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub stride_bytes: u64,
    pub threads: u64,
    pub trial: u64,
    /// Trials the config asked for per stride (fewer ran when the budget was spent).
    pub trials_planned: u64,
    pub iters_per_thread: u64,
    pub elapsed_ns: u64,
    /// Elapsed time divided by the increments each thread did (threads run concurrently).
    pub ns_per_op: f64,
    /// Every thread ran pinned to its own logical CPU.
    pub pinned: bool,
    /// The logical CPUs the workers ran on, in worker order ("0,2,4,6").
    pub cpus: String,
    /// Last-level cache misses during the workers' work, or "unavailable" (see
    /// [`crate::perf`]): a transfer between cores of one socket is mostly an LLC hit.
    pub cache_misses: CounterReading,
    /// Loads that found their line modified in another core's cache (the coherence
    /// transfer false sharing is made of), or "unavailable" where the PMU has no such event.
    pub snoop_hit_modified: CounterReading,
}

crate::checked::checked_row!(
    Row, counts: [stride_bytes], amounts: [ns_per_op], threads: [threads], cpu_lists: [cpus],
    cases: |row| row.stride_bytes
);

/// Runs the sweep. Trials are interleaved (round 1 over all strides, then round 2, ...)
/// so a slow drift of the machine affects every stride alike. Each stride's adds per thread
/// are raised on their own until its trial takes at least
/// [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME) (the article's strides differ 122x in
/// speed: one count for all would make the slowest trials seconds long); rows record the
/// count used, and strides are compared per add.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let layouts = config
        .strides_bytes
        .iter()
        .map(|&stride| StridedSlots::new(config.threads, stride))
        .collect::<Result<Vec<_>, _>>()?;
    let warmup_iters = (config.iters_per_thread / 10).max(1);
    for slots in &layouts {
        warm_up(config.warmup / layouts.len() as u32, || {
            slots.reset();
            run_team(EXPERIMENT, config.threads, |worker| slots.add_ones(worker, warmup_iters)).map(drop)
        })?;
    }
    let strides: Vec<(&StridedSlots, usize)> = layouts.iter().zip(config.strides_bytes.iter().copied()).collect();
    let scales = calibrate_each(strides.len(), max_scale(config.iters_per_thread, config.threads), |case, scale| {
        let (slots, stride) = strides[case];
        Ok(measure(config, config.iters_per_thread * scale, slots, stride, 0)?.elapsed())
    })?;
    let cases: Vec<(&StridedSlots, usize, u64)> = strides
        .iter()
        .zip(scales)
        .map(|(&(slots, stride), scale)| (slots, stride, config.iters_per_thread * scale))
        .collect();
    interleaved_trials(
        EXPERIMENT,
        &cases,
        config.trials,
        config.budget,
        progress,
        |&(_, stride, _)| format!("stride {stride} B"),
        |&(slots, stride, iters), trial| measure(config, iters, slots, stride, trial),
    )
}

fn measure(config: &Config, iters: u64, slots: &StridedSlots, stride: usize, trial: usize) -> Result<Row, RunError> {
    let case = || format!("stride {stride} B");
    let timing = slots.verified_trial(EXPERIMENT, config.threads, iters, |worker| worker, case, trial)?;
    Ok(Row {
        stride_bytes: stride as u64,
        threads: config.threads as u64,
        trial: trial as u64,
        trials_planned: config.trials as u64,
        iters_per_thread: iters,
        elapsed_ns: timing.elapsed.as_nanos() as u64,
        ns_per_op: timing.elapsed.as_nanos() as f64 / iters as f64,
        pinned: timing.pinned,
        cpus: timing.cpu_list(),
        cache_misses: timing.counts.llc_misses,
        snoop_hit_modified: timing.counts.snoop_hit_modified,
    })
}

impl Row {
    /// The trial's elapsed time.
    pub fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.elapsed_ns)
    }
}

/// The trials of one stride, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrideSummary {
    pub stride_bytes: u64,
    pub threads: u64,
    /// Elapsed time per trial, in milliseconds.
    pub elapsed_ms: Summary,
    /// Elapsed time per increment each thread did: the unit runs of any size share, and
    /// the one the sweep is compared in (the article's times convert with
    /// [`article_ns_per_add`]).
    pub ns_per_op: Summary,
    /// Median time per add relative to the fastest stride's median (1.0 for the fastest).
    pub relative_to_fastest: f64,
    pub all_pinned: bool,
    /// Trials, coverage and budget cuts behind this stride's figures.
    pub evidence: Evidence,
}

/// Increments per goroutine in article A's sweep (8 goroutines, 10 M adds each).
pub const ARTICLE_ITERS_PER_THREAD: u64 = 10_000_000;

/// One of the article's sweep times (milliseconds per run) in ns per add, converted as this
/// lab's rows are: elapsed time over the adds each thread did.
pub fn article_ns_per_add(time_ms: f64) -> f64 {
    time_ms * 1e6 / ARTICLE_ITERS_PER_THREAD as f64
}

/// Groups rows by stride (ascending) and summarises each group.
pub fn summarize(rows: &[Row]) -> Vec<StrideSummary> {
    let mut summaries: Vec<StrideSummary> = crate::group::by_key(rows, |row| row.stride_bytes)
        .into_iter()
        .filter_map(|(stride, group)| {
            let elapsed: Vec<f64> = group.iter().map(|row| row.elapsed_ns as f64 / 1e6).collect();
            let per_op: Vec<f64> = group.iter().map(|row| row.ns_per_op).collect();
            let ns_per_op = Summary::of(&per_op)?;
            let planned = group.iter().map(|row| row.trials_planned).max().unwrap_or(0);
            Some(StrideSummary {
                stride_bytes: stride,
                threads: group.first()?.threads,
                elapsed_ms: Summary::of(&elapsed)?,
                evidence: Evidence::of(&ns_per_op, planned),
                ns_per_op,
                relative_to_fastest: 1.0,
                all_pinned: group.iter().all(|row| row.pinned),
            })
        })
        .collect();
    let fastest = summaries.iter().map(|s| s.ns_per_op.median).fold(f64::INFINITY, f64::min);
    for summary in &mut summaries {
        summary.relative_to_fastest = summary.ns_per_op.median / fastest;
    }
    summaries
}

/// Where the false-sharing penalty ends, as far as the data can tell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Knee {
    /// The smallest stride whose median is within [`KNEE_TOLERANCE`] of the best, with the
    /// smallest stride's penalty over the best.
    At { stride_bytes: u64, penalty: Ratio, smallest_stride_bytes: u64 },
    /// The smallest stride's interval overlaps the best one's: no penalty can be claimed.
    NoPenalty { smallest_stride_bytes: u64, best_stride_bytes: u64 },
    /// The smallest or the best stride has too few trials for any claim.
    TooFewTrials { samples: usize },
}

pub fn knee(summaries: &[StrideSummary]) -> Option<Knee> {
    let smallest = summaries.first()?;
    let best = summaries.iter().min_by(|a, b| a.ns_per_op.median.total_cmp(&b.ns_per_op.median))?;
    if let Err(short) = evidence::check([&smallest.ns_per_op, &best.ns_per_op]) {
        return Some(Knee::TooFewTrials { samples: short.samples });
    }
    if smallest.ns_per_op.overlaps(&best.ns_per_op) {
        return Some(Knee::NoPenalty {
            smallest_stride_bytes: smallest.stride_bytes,
            best_stride_bytes: best.stride_bytes,
        });
    }
    let limit = best.ns_per_op.median * (1.0 + KNEE_TOLERANCE);
    let knee = summaries.iter().find(|s| s.ns_per_op.median <= limit)?;
    Some(Knee::At {
        stride_bytes: knee.stride_bytes,
        penalty: Ratio::between(&smallest.ns_per_op, &best.ns_per_op),
        smallest_stride_bytes: smallest.stride_bytes,
    })
}

/// One sentence saying what the sweep showed, for the report and the notebooks; where it
/// shows no penalty, what the machine's `verdict` says may hide it.
pub fn finding(summaries: &[StrideSummary], verdict: Option<&Verdict>) -> String {
    if summaries.len() == 1 {
        return "Only one stride was measured: the sweep needs two or more to compare.".into();
    }
    match knee(summaries) {
        None => "The stride sweep was not measured.".into(),
        Some(Knee::TooFewTrials { samples }) => {
            format!("The stride sweep claims nothing: {}.", TooFewTrials { samples })
        }
        Some(Knee::At { stride_bytes, penalty, smallest_stride_bytes }) => format!(
            "On this machine the false-sharing penalty disappears at {stride_bytes}-byte strides: \
             counters {smallest_stride_bytes} bytes apart took {:.1}x as long per add as the fastest layout \
             (interval {:.1}x to {:.1}x).",
            penalty.value, penalty.low, penalty.high
        ),
        Some(Knee::NoPenalty { smallest_stride_bytes, best_stride_bytes }) => then_what_may_hide_it(
            format!(
                "No false-sharing penalty was observed on this machine: counters {smallest_stride_bytes} bytes \
                 apart were not measurably slower than {best_stride_bytes} bytes apart (their intervals overlap)."
            ),
            verdict,
        ),
    }
}
