//! Runs every layout, then the shard-count sweep, with the harness, and checks each trial's
//! total.

use super::counter::Counter;
use super::layouts::{build, build_shards};
use super::shards::SHARD_SWEEP_LAYOUTS;
use super::{Config, Layout, Part, Row, EXPERIMENT};
use crate::error::RunError;
use crate::fault;
use std::time::Duration;

use crate::harness::{calibrate_each, interleaved_trials, max_scale, run_team, warm_up, Outcome, Progress};

/// One case: a counter, the part of the experiment it belongs to, and its own work per
/// thread.
struct Case {
    counter: Box<dyn Counter>,
    part: Part,
    per_thread: u64,
}

impl Case {
    fn label(&self) -> String {
        match self.part {
            Part::Layouts => self.counter.layout().name().to_string(),
            Part::ShardSweep => format!("{} with {} shards", self.counter.layout().name(), self.counter.cells()),
        }
    }
}

/// Runs the seven layouts and the shard-count sweep. Trials are interleaved (round 1 over
/// all cases, then round 2, ...) so a slow drift of the machine affects every case alike.
/// Each case's increments per thread are raised on their own until its trial takes at
/// least [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME): the layouts differ by two
/// orders of magnitude in speed (a `Mutex` against a local count), so one count for all
/// would make the slowest trials seconds long. Rows record the count used; cases compare
/// per add.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let mut counters: Vec<(Box<dyn Counter>, Part)> = Layout::ALL
        .iter()
        .map(|&layout| build(layout, config).map(|counter| (counter, Part::Layouts)))
        .collect::<Result<_, _>>()?;
    for &shards in &config.shard_counts {
        for layout in SHARD_SWEEP_LAYOUTS {
            counters.extend(build_shards(layout, shards)?.map(|counter| (counter, Part::ShardSweep)));
        }
    }
    let warmup_per_thread = (config.increments_per_thread() / 10).max(1);
    for (counter, _) in &counters {
        warm_up(config.warmup / counters.len() as u32, || {
            trial(counter.as_ref(), config.threads, warmup_per_thread, (0, 1)).map(drop)
        })?;
    }
    let per_thread = config.increments_per_thread();
    let scales = calibrate_each(counters.len(), max_scale(per_thread, config.threads), |case, scale| {
        let row = trial(counters[case].0.as_ref(), config.threads, per_thread * scale, (0, 1))?;
        Ok(Duration::from_nanos(row.elapsed_ns))
    })?;
    let cases: Vec<Case> = counters
        .into_iter()
        .zip(scales)
        .map(|((counter, part), scale)| Case { counter, part, per_thread: per_thread * scale })
        .collect();
    interleaved_trials(EXPERIMENT, &cases, config.trials, config.budget, progress, Case::label, |case, round| {
        match trial(case.counter.as_ref(), config.threads, case.per_thread, (round, config.trials)) {
            Ok(row) => Ok(Row { part: case.part, ..row }),
            Err(RunError::Verification { experiment, trial, expected, actual, .. }) => {
                Err(RunError::Verification { experiment, case: case.label(), trial, expected, actual })
            }
            Err(other) => Err(other),
        }
    })
}

/// Resets `counter`, has `threads` threads add `per_thread` each, and checks the total.
/// `(trial, trials_planned)`: this trial's index and how many the config asked for.
pub fn trial(
    counter: &dyn Counter,
    threads: usize,
    per_thread: u64,
    (trial, trials_planned): (usize, usize),
) -> Result<Row, RunError> {
    counter.reset();
    let timing = run_team(EXPERIMENT, threads, |worker| counter.add_ones(worker, per_thread))?;
    counter.add_ones(0, fault::extra_increments());
    let expected = per_thread * threads as u64;
    let actual = counter.read();
    if actual != expected {
        let case = counter.layout().name().to_string();
        return Err(RunError::Verification { experiment: EXPERIMENT, case, trial, expected, actual });
    }
    Ok(Row {
        layout: counter.layout(),
        threads: threads as u64,
        trial: trial as u64,
        trials_planned: trials_planned as u64,
        total_increments: expected,
        increments_per_thread: per_thread,
        cells: counter.cells() as u64,
        bytes_used: counter.bytes_used() as u64,
        increments_per_write: counter.increments_per_write(),
        elapsed_ns: timing.elapsed.as_nanos() as u64,
        ns_per_increment: timing.elapsed.as_nanos() as f64 / per_thread as f64,
        pinned: timing.pinned,
        cpus: timing.cpu_list(),
        part: Part::Layouts,
    })
}
