//! Runs every layout with the harness and checks each trial's total.

use super::layouts::{build, Counter};
use super::{Config, Layout, Row, EXPERIMENT};
use crate::error::RunError;
use crate::fault;
use std::time::Duration;

use crate::harness::{calibrate, interleaved_trials, max_scale, run_team, warm_up, Outcome, Progress};

/// Runs the seven layouts. Trials are interleaved (round 1 over all layouts, then round
/// 2, ...) so a slow drift of the machine affects every layout alike. The increments per
/// thread are raised (the same for every layout) until the fastest layout's trial takes at
/// least [`MIN_TRIAL_TIME`](crate::harness::MIN_TRIAL_TIME); rows record the count used.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let counters = Layout::ALL.iter().map(|&layout| build(layout, config)).collect::<Result<Vec<_>, _>>()?;
    let warmup_per_thread = (config.increments_per_thread() / 10).max(1);
    for counter in &counters {
        warm_up(config.warmup / counters.len() as u32, || {
            trial(counter.as_ref(), config.threads, warmup_per_thread, (0, 1)).map(drop)
        })?;
    }
    let per_thread = config.increments_per_thread();
    let scale = calibrate(counters.len(), max_scale(per_thread, config.threads), |case, scale| {
        let row = trial(counters[case].as_ref(), config.threads, per_thread * scale, (0, 1))?;
        Ok(Duration::from_nanos(row.elapsed_ns))
    })?;
    let per_thread = per_thread * scale;
    interleaved_trials(
        EXPERIMENT,
        &counters,
        config.trials,
        config.budget,
        progress,
        |counter| counter.layout().name().to_string(),
        |counter, round| trial(counter.as_ref(), config.threads, per_thread, (round, config.trials)),
    )
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
    })
}
