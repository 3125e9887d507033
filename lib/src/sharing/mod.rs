//! The four-way control (article A): a fixed total of increments done four ways, so the
//! false-sharing penalty can be told apart from "atomics are slow" (the no-sharing case uses
//! atomics too), from "threads cost" (it uses the same threads) and from a compiler that
//! removed the loop (every case verifies its total).
//!
//! - single: one thread does all the increments on one counter;
//! - true sharing: N threads increment one counter;
//! - false sharing: N threads, each its own counter, counters 8 bytes apart;
//! - no sharing: N threads, each its own counter, counters `padding_bytes` apart.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::arena::StridedSlots;
use crate::error::{ConfigError, RunError};
use crate::harness::{calibrate, interleaved_trials, max_scale, warm_up, Outcome, Progress};
use crate::perf::CounterReading;

pub mod answers;
pub mod chart;
mod config;
mod finding;
mod flags;
pub mod present;
mod summary;
pub use config::Config;
pub use finding::{
    article_headline, finding, ArticleHeadline, ARTICLE_HEADLINE_PRINTED, ARTICLE_HEADLINE_SHARDED_MS,
    ARTICLE_HEADLINE_SINGLE_MS, ARTICLE_HEADLINE_THREADS,
};
pub use summary::{false_sharing_over, summarize, summarize_team, teams, CaseSummary};

pub const EXPERIMENT: &str = "sharing";

/// The four-way control, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct FourWay;

crate::experiment::measure!(
    FourWay,
    about: "False sharing: one total four ways (single, true, false, no sharing) (article A).",
    summary: CaseSummary,
    runtime_row: crate::experiment::NoRows;
    fn placements(rows: &[Row]) -> Vec<(&str, bool)> {
        rows.iter().map(|row| (row.cpus.as_str(), row.pinned)).collect()
    }

    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// Most worker threads accepted (see [`crate::limits::MAX_TEAM_THREADS`]).
pub const MAX_THREADS: usize = crate::limits::MAX_TEAM_THREADS;
/// Widest padding accepted (a page; no machine has coherence units larger than that).
pub const MAX_PADDING_BYTES: usize = 4096;
/// Distance between counters in the false-sharing case: adjacent 64-bit words.
pub const FALSE_SHARING_DISTANCE_BYTES: usize = 8;

/// The four ways of doing the same increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Case {
    Single,
    TrueSharing,
    FalseSharing,
    NoSharing,
}

impl Case {
    pub const ALL: [Case; 4] = [Case::Single, Case::TrueSharing, Case::FalseSharing, Case::NoSharing];

    /// The name rows and CSV files use ("true-sharing").
    pub fn name(self) -> &'static str {
        match self {
            Case::Single => "single",
            Case::TrueSharing => "true-sharing",
            Case::FalseSharing => "false-sharing",
            Case::NoSharing => "no-sharing",
        }
    }

    /// What the case does, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Case::Single => "one thread does all the work",
            Case::TrueSharing => "all threads increment one counter",
            Case::FalseSharing => "each thread its own counter, 8 bytes apart",
            Case::NoSharing => "each thread its own counter, one padding apart",
        }
    }
}

/// One trial of one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub case: Case,
    /// Threads that ran this case (1 for `single`).
    pub threads: u64,
    pub trial: u64,
    /// Trials the config asked for per case (fewer ran when the budget was spent).
    pub trials_planned: u64,
    pub total_increments: u64,
    pub increments_per_thread: u64,
    /// Bytes between neighbouring counters; 0 when there is only one counter.
    pub distance_bytes: u64,
    pub elapsed_ns: u64,
    /// Elapsed time divided by the increments each thread did (threads run concurrently).
    pub ns_per_increment: f64,
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
    Row, counts: [], amounts: [ns_per_increment], threads: [threads], cpu_lists: [cpus]
);

/// One case's counters and how its threads map onto them.
#[derive(Debug)]
struct Setup {
    case: Case,
    threads: usize,
    distance_bytes: usize,
    slots: StridedSlots,
}

impl Setup {
    /// `case` for a team of `team` threads.
    fn new(case: Case, team: usize, config: &Config) -> Result<Self, ConfigError> {
        let (threads, counters, distance_bytes) = match case {
            Case::Single => (1, 1, 0),
            Case::TrueSharing => (team, 1, 0),
            Case::FalseSharing => (team, team, FALSE_SHARING_DISTANCE_BYTES),
            Case::NoSharing => (team, team, config.padding_bytes),
        };
        let slots = StridedSlots::new(counters, distance_bytes.max(8))?;
        Ok(Self { case, threads, distance_bytes, slots })
    }

    fn slot_of(&self, worker: usize) -> usize {
        if self.case == Case::TrueSharing {
            0
        } else {
            worker
        }
    }

    /// Resets the counters, runs the team once, and checks the sum.
    fn trial(&self, total: u64, trial: usize, trials_planned: usize) -> Result<Row, RunError> {
        let per_thread = total / self.threads as u64;
        let case = || self.case.name().to_string();
        let slot_of = |worker| self.slot_of(worker);
        let timing = self.slots.verified_trial(EXPERIMENT, self.threads, per_thread, slot_of, case, trial)?;
        Ok(Row {
            case: self.case,
            threads: self.threads as u64,
            trial: trial as u64,
            trials_planned: trials_planned as u64,
            total_increments: total,
            increments_per_thread: per_thread,
            distance_bytes: self.distance_bytes as u64,
            elapsed_ns: timing.elapsed.as_nanos() as u64,
            ns_per_increment: timing.elapsed.as_nanos() as f64 / per_thread as f64,
            pinned: timing.pinned,
            cpus: timing.cpu_list(),
            cache_misses: timing.counts.llc_misses,
            snoop_hit_modified: timing.counts.snoop_hit_modified,
        })
    }
}

/// Runs the four cases. Trials are interleaved (round 1 over all cases, then round 2, ...)
/// so a slow drift of the machine affects every case alike. The total is raised (the same
/// for every case, so they still share it) until the fastest case's trial takes at least
/// [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME); rows record the total used. One
/// factor, unlike the stride sweep's and the counters' one per case: a fixed total is the
/// control's premise, and at the article's 2 threads its cases differ by a few times (the
/// article: 18 to 74 ms), not the orders of magnitude that make one factor's slowest trial
/// seconds long.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let setups = setups(config)?;
    let unit = config.split_unit().unwrap_or(1);
    let warmup_total = (config.total_increments / 10 / unit).max(1) * unit;
    for setup in &setups {
        warm_up(config.warmup / setups.len() as u32, || setup.trial(warmup_total, 0, 1).map(drop))?;
    }
    let scale = calibrate(setups.len(), max_scale(config.total_increments, 1), |case, scale| {
        let row = setups[case].trial(config.total_increments * scale, 0, 1)?;
        Ok(Duration::from_nanos(row.elapsed_ns))
    })?;
    let total = config.total_increments * scale;
    let teams = config.teams().len();
    interleaved_trials(
        EXPERIMENT,
        &setups,
        config.trials,
        config.budget,
        progress,
        |setup| match teams {
            1 => setup.case.name().to_string(),
            _ => format!("{} at {} threads", setup.case.name(), setup.threads),
        },
        |setup, trial| setup.trial(total, trial, config.trials),
    )
}

/// The single-thread case once, then the three team cases for each team: every team's
/// ratios are over the one single-thread time, since they share the total.
fn setups(config: &Config) -> Result<Vec<Setup>, ConfigError> {
    let single = Setup::new(Case::Single, 1, config)?;
    let teams = config.teams().into_iter().flat_map(|team| Case::ALL[1..].iter().map(move |&case| (case, team)));
    let mut setups = vec![single];
    for (case, team) in teams {
        setups.push(Setup::new(case, team, config)?);
    }
    Ok(setups)
}
