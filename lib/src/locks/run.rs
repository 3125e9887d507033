//! Running the cells: a warm-up, each cell's work sized on its own so that every trial takes
//! about the configured trial time (an uncontended acquisition costs nanoseconds, a fair
//! hand-off microseconds: one shared size would make one case run for seconds while another
//! ran for microseconds), then rounds of one trial per cell, interleaved so a slow drift of
//! the machine affects every cell alike.

use std::time::{Duration, Instant};

use super::{cells, handoff, read_mostly, wait, Case, Cell, Config, Row, EXPERIMENT};
use crate::error::RunError;
use crate::harness::{warm_up, Deadline, Outcome, Progress, ProgressEvent, MAX_PREALLOCATED_ROWS};
use crate::limits::MAX_INCREMENTS_PER_TRIAL;

/// Work a cell's sizing starts from: acquisitions, or operations per thread.
const START_WORK: u64 = 1_000;
/// Sizing grows the work until a trial takes this share of the trial time, then scales it.
const SIZING_SHARE: u32 = 4;
/// A hand-off trial stops at this many times the trial time (as the JVM's do).
pub const TRIAL_CAP: u32 = 5;

/// Measures every cell of `config`: `trials` rounds of one trial per cell. The budget counts
/// from the start (warm-up and sizing included) and is checked before every trial but the
/// first, inside a round too, as [`crate::harness::interleaved_trials`] checks it; a trial
/// under way is cut where the budget ends ([`trial`]), so no flag (a remote call of a
/// second, a long list of threads) makes the run outlive its budget by more than the
/// operation each worker had under way. In the first round a trial may take only its share
/// of what is left among the cells not measured yet, so one slow cell cannot leave the
/// others without a row. Each cell is sized just before its first trial, so sizing is
/// inside the budget too.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let deadline = Deadline::after(config.budget);
    let cells = cells(config);
    if let Some(first) = cells.iter().find(|cell| cell.case != Case::LockAcrossWait) {
        warm_up(config.warmup, || trial(first, config, START_WORK, (0, 1), deadline.remaining()).map(drop))?;
    }
    let mut work: Vec<Option<u64>> = vec![None; cells.len()];
    let total = cells.len().saturating_mul(config.trials);
    let mut rows = Vec::with_capacity(total.min(MAX_PREALLOCATED_ROWS));
    for round in 0..config.trials {
        for (index, (cell, work)) in cells.iter().zip(&mut work).enumerate() {
            if !rows.is_empty() && deadline.expired() {
                return Ok(Outcome { rows, budget_exhausted: true });
            }
            let work = match *work {
                Some(work) => work,
                None => *work.insert(size(cell, config, &deadline)?),
            };
            let unmeasured = if round == 0 { cells.len() - index } else { 1 };
            let allowed = deadline.remaining().div_f64(unmeasured as f64);
            rows.push(trial(cell, config, work, (round, config.trials), allowed)?);
            let label = format!("{}, trial {}/{}", cell.label(), round + 1, config.trials);
            progress(&ProgressEvent { experiment: EXPERIMENT, done: rows.len(), total, label });
        }
    }
    Ok(Outcome { rows, budget_exhausted: false })
}

/// One trial of `cell` with `work` units of work: acquisitions in all (uncontended,
/// contended, fair vs barging) or operations per thread (read-mostly and the uncontended
/// `RwLock` read); the lock-across-wait case takes its requests from `config` instead.
/// `(trial, trials_planned)` label the row. A hand-off or lock-across-wait trial still
/// going after `allowed` (what is left of the budget) is cut there, counting what was done;
/// a read-mostly trial is sized to the trial time and has no cut.
pub fn trial(
    cell: &Cell,
    config: &Config,
    work: u64,
    trial: (usize, usize),
    allowed: Duration,
) -> Result<Row, RunError> {
    if cell.case == Case::LockAcrossWait {
        wait::trial(cell, config, trial, Instant::now() + allowed)
    } else if cell.reads_and_writes() {
        read_mostly::trial(cell, work, trial)
    } else {
        handoff::trial(cell, work, (config.trial * TRIAL_CAP).min(allowed), trial)
    }
}

/// The work for `cell` that makes one trial take about `config.trial`: grown from
/// [`START_WORK`] until a trial takes a quarter of that, then scaled in proportion.
fn size(cell: &Cell, config: &Config, deadline: &Deadline) -> Result<u64, RunError> {
    if cell.case == Case::LockAcrossWait {
        return Ok(config.requests_per_thread);
    }
    let most = MAX_INCREMENTS_PER_TRIAL / cell.threads.max(1) as u64;
    let enough = config.trial / SIZING_SHARE;
    let mut work = START_WORK.min(most);
    loop {
        let row = trial(cell, config, work, (0, 1), deadline.remaining())?;
        let elapsed = Duration::from_nanos(row.elapsed_ns);
        if elapsed >= enough || work >= most {
            // The work done: less than asked when the trial was cut at its cap.
            let done = work as f64 * (row.ops as f64 / (work * planned_ops_per_unit(cell)) as f64).min(1.0);
            let scaled = done * config.trial.as_secs_f64() / elapsed.as_secs_f64().max(1e-9);
            return Ok((scaled.ceil() as u64).clamp(1, most));
        }
        work = work.saturating_mul(growth(elapsed, enough)).min(most);
    }
}

/// Operations a trial does per unit of its work: one per acquisition asked, or one per
/// thread for work counted per thread ([`Cell::reads_and_writes`]).
fn planned_ops_per_unit(cell: &Cell) -> u64 {
    if cell.reads_and_writes() {
        cell.threads as u64
    } else {
        1
    }
}

/// How much to grow work that took `elapsed` towards `enough`: a quarter past it, 2x to
/// 1024x (the harness's calibration grows the same way).
fn growth(elapsed: Duration, enough: Duration) -> u64 {
    let wanted = enough.as_secs_f64() * 1.25 / elapsed.as_secs_f64().max(1e-9);
    (wanted.ceil() as u64).clamp(2, 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_bounded() {
        assert_eq!(growth(Duration::from_nanos(1), Duration::from_millis(3)), 1024);
        assert_eq!(growth(Duration::from_millis(2), Duration::from_millis(3)), 2);
        assert_eq!(growth(Duration::from_micros(100), Duration::from_millis(3)), 38);
    }
}
