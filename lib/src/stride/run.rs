//! The stride sweep's run: every stride's counters, warmed, calibrated, then timed in
//! interleaved rounds.

use super::{Config, Row, EXPERIMENT};
use crate::arena::StridedSlots;
use crate::error::RunError;
use crate::harness::{calibrate_each, interleaved_trials, max_scale, run_team, warm_up, Outcome, Progress};

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
