//! The stride sweep (article A's minimal repro): one counter per thread, counters placed
//! `stride` bytes apart in one page-aligned allocation. Counters closer than a cache line
//! share it, and every increment must take the line from the other cores.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::arena::StridedSlots;
use crate::error::{ConfigError, RunError};
use crate::harness::{calibrate_each, interleaved_trials, max_scale, run_team, warm_up, Outcome, Progress};
use crate::limits::{check_range, check_trials, check_warmup_and_budget, MAX_INCREMENTS_PER_TRIAL};
use crate::machine::logical_cpus;
use crate::perf::CounterReading;

mod summary;
pub use summary::{
    article_ns_per_add, fewer_threads_findings, finding, knee, summarize, summarize_team, teams, Knee, StrideSummary,
    ARTICLE_ITERS_PER_THREAD,
};

pub const EXPERIMENT: &str = "stride";

/// The stride sweep, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct StrideSweep;

crate::experiment::measure!(
    StrideSweep,
    about: "False sharing: counters at growing distances (article A).",
    summary: StrideSummary,
    runtime_row: crate::experiment::NoRows;
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

/// The threads of the article's clean half of claim A10 (its 64-byte stride paid nothing).
pub const ARTICLE_CLEAN_THREADS: usize = 2;

/// A median within this fraction of the best counts as "as fast as the best".
pub const KNEE_TOLERANCE: f64 = 0.10;

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
    let teams = config.teams();
    let strides: Vec<(usize, usize)> =
        teams.iter().flat_map(|&team| config.strides_bytes.iter().map(move |&stride| (team, stride))).collect();
    let layouts =
        strides.iter().map(|&(team, stride)| StridedSlots::new(team, stride)).collect::<Result<Vec<_>, _>>()?;
    let warmup_iters = (config.iters_per_thread / 10).max(1);
    for (slots, &(team, _)) in layouts.iter().zip(&strides) {
        warm_up(config.warmup / layouts.len() as u32, || {
            slots.reset();
            run_team(EXPERIMENT, team, |worker| slots.add_ones(worker, warmup_iters)).map(drop)
        })?;
    }
    let most_threads = teams.iter().copied().max().unwrap_or(1);
    let scales = calibrate_each(strides.len(), max_scale(config.iters_per_thread, most_threads), |case, scale| {
        let sweep = Sweep { slots: &layouts[case], threads: strides[case].0, stride: strides[case].1 };
        Ok(measure(config, config.iters_per_thread * scale, &sweep, 0)?.elapsed())
    })?;
    let cases: Vec<(Sweep<'_>, u64)> = layouts
        .iter()
        .zip(&strides)
        .zip(scales)
        .map(|((slots, &(threads, stride)), scale)| (Sweep { slots, threads, stride }, config.iters_per_thread * scale))
        .collect();
    let label = |sweep: &Sweep<'_>| match teams.len() {
        1 => format!("stride {} B", sweep.stride),
        _ => format!("stride {} B at {} threads", sweep.stride, sweep.threads),
    };
    interleaved_trials(
        EXPERIMENT,
        &cases,
        config.trials,
        config.budget,
        progress,
        |(sweep, _)| label(sweep),
        |(sweep, iters), trial| measure(config, *iters, sweep, trial),
    )
}

/// One stride of one sweep: its counters and the threads that add to them.
struct Sweep<'a> {
    slots: &'a StridedSlots,
    threads: usize,
    stride: usize,
}

fn measure(config: &Config, iters: u64, sweep: &Sweep<'_>, trial: usize) -> Result<Row, RunError> {
    let Sweep { slots, threads, stride } = *sweep;
    let case = || format!("stride {stride} B");
    let timing = slots.verified_trial(EXPERIMENT, threads, iters, |worker| worker, case, trial)?;
    Ok(Row {
        stride_bytes: stride as u64,
        threads: threads as u64,
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
