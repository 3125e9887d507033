//! The scaling and noise check: padded per-thread counters (no sharing at all) at 1 thread,
//! 2 threads and every CPU. Fixed work per thread, so on independent cores every team takes
//! as long as one thread and the speedup is the thread count. Repeating identical trials
//! also measures how noisy the machine is.

use std::time::Duration;

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use super::EXPERIMENT;
use crate::arena::StridedSlots;
use crate::arena::MAX_ARENA_BYTES;
use crate::error::{ConfigError, RunError};
use crate::evidence::{self, Evidence};
use crate::harness::{calibrate, interleaved_trials, max_scale, run_team, warm_up, Outcome, Progress};
use crate::limits::{check_range, check_trials, check_warmup_and_budget, MAX_CPUS, MAX_INCREMENTS_PER_TRIAL};
use crate::machine::logical_cpus;
use crate::perf::CounterReading;
use crate::stats::{Ratio, Summary};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// The largest team; the check compares 1, 2 and this many threads.
    pub max_threads: usize,
    /// Distance between counters: the ecosystem's padding for this architecture
    /// (`CachePadded`), so no two counters share a line.
    pub stride_bytes: usize,
    pub iters_per_thread: u64,
    /// Identical trials per team size.
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance; checked after each round of trials over all team sizes.
    pub budget: Duration,
}

impl Default for Config {
    /// Every CPU, 20 M increments per thread, 11 trials.
    fn default() -> Self {
        Self {
            max_threads: logical_cpus(),
            stride_bytes: std::mem::size_of::<CachePadded<u8>>(),
            iters_per_thread: 20_000_000,
            trials: 11,
            warmup: Duration::from_millis(200),
            budget: Duration::from_secs(60),
        }
    }
}

impl Config {
    /// About a second: 2 M increments per thread, 7 trials.
    pub fn quick() -> Self {
        Self {
            iters_per_thread: 2_000_000,
            trials: 7,
            warmup: Duration::from_millis(30),
            budget: Duration::from_secs(4),
            ..Self::default()
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        check_range("threads", self.max_threads, 1, MAX_CPUS, "threads")?;
        let widest = MAX_ARENA_BYTES / self.max_threads / 8 * 8;
        if self.stride_bytes < 8 || self.stride_bytes % 8 != 0 || self.stride_bytes > widest {
            let allowed =
                format!("a multiple of 8 bytes from 8 to {widest} (threads x stride fit {MAX_ARENA_BYTES} bytes)");
            return Err(ConfigError::new("stride_bytes", self.stride_bytes, allowed));
        }
        // Threads work on separate lines here, so each thread's share bounds a trial's time.
        check_range("iters", self.iters_per_thread, 1, MAX_INCREMENTS_PER_TRIAL, "increments per thread")?;
        if self.trials < 2 {
            return Err(ConfigError::new("trials", self.trials, "at least 2 (the spread needs repeated trials)"));
        }
        check_trials(self.trials, 2)?;
        check_warmup_and_budget(self.warmup, self.budget)
    }

    /// 1, 2 and `max_threads`, without repeats.
    pub fn team_sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = [1, 2, self.max_threads].into_iter().filter(|&n| n <= self.max_threads).collect();
        sizes.dedup();
        sizes
    }
}

/// One trial of one team size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub threads: u64,
    pub trial: u64,
    /// Trials the config asked for per team size (fewer ran when the budget was spent).
    pub trials_planned: u64,
    pub iters_per_thread: u64,
    pub elapsed_ns: u64,
    /// Elapsed time divided by the increments each thread did (threads run concurrently).
    pub ns_per_op: f64,
    pub pinned: bool,
    /// The logical CPUs the workers ran on, in worker order ("0,2").
    pub cpus: String,
    /// Last-level cache misses during the workers' work, or "unavailable" (see
    /// [`crate::perf`]): a transfer between cores of one socket is mostly an LLC hit.
    pub cache_misses: CounterReading,
    /// Loads that found their line modified in another core's cache (the coherence
    /// transfer false sharing is made of), or "unavailable" where the PMU has no such event.
    pub snoop_hit_modified: CounterReading,
}

crate::checked::checked_row!(
    Row, counts: [], amounts: [ns_per_op], threads: [threads], cpu_lists: [cpus], cases: |row| row.threads
);

/// Runs the check; trials are interleaved over team sizes so drift affects all alike.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let sizes = config.team_sizes();
    let slots = StridedSlots::new(config.max_threads, config.stride_bytes)?;
    let warmup_iters = (config.iters_per_thread / 10).max(1);
    warm_up(config.warmup, || {
        slots.reset();
        run_team(EXPERIMENT, config.max_threads, |worker| slots.add_ones(worker, warmup_iters)).map(drop)
    })?;
    let max = max_scale(config.iters_per_thread, config.max_threads);
    let scale = calibrate(sizes.len(), max, |case, scale| {
        let row = measure(config, config.iters_per_thread * scale, &slots, sizes[case], 0)?;
        Ok(Duration::from_nanos(row.elapsed_ns))
    })?;
    let iters = config.iters_per_thread * scale;
    interleaved_trials(
        EXPERIMENT,
        &sizes,
        config.trials,
        config.budget,
        progress,
        |threads| format!("{threads} thread(s)"),
        |&threads, trial| measure(config, iters, &slots, threads, trial),
    )
}

fn measure(config: &Config, iters: u64, slots: &StridedSlots, threads: usize, trial: usize) -> Result<Row, RunError> {
    let case = || format!("{threads} thread(s)");
    let timing = slots.verified_trial(EXPERIMENT, threads, iters, |worker| worker, case, trial)?;
    Ok(Row {
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

/// The trials of one team size, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScalingSummary {
    pub threads: u64,
    pub elapsed_ms: Summary,
    /// Work done per unit time relative to one thread: threads x (1-thread time / this time).
    pub speedup: Ratio,
    /// The speedup independent cores would give: the thread count.
    pub ideal_speedup: f64,
    pub all_pinned: bool,
    /// Trials, coverage and budget cuts behind this team size's figures.
    pub evidence: Evidence,
}

/// Groups rows by team size (ascending); speedups need the 1-thread group.
pub fn summarize(rows: &[Row]) -> Vec<ScalingSummary> {
    let groups: Vec<(u64, Summary, bool, u64)> = crate::group::by_key(rows, |row| row.threads)
        .into_iter()
        .filter_map(|(threads, group)| {
            let elapsed: Vec<f64> = group.iter().map(|row| row.elapsed_ns as f64 / 1e6).collect();
            let planned = group.iter().map(|row| row.trials_planned).max().unwrap_or(0);
            Some((threads, Summary::of(&elapsed)?, group.iter().all(|row| row.pinned), planned))
        })
        .collect();
    let Some((_, single, _, _)) = groups.iter().find(|(threads, ..)| *threads == 1).cloned() else {
        return Vec::new();
    };
    groups
        .into_iter()
        .map(|(threads, elapsed_ms, all_pinned, planned)| {
            let ratio = Ratio::between(&single, &elapsed_ms);
            let scale = threads as f64;
            ScalingSummary {
                threads,
                speedup: Ratio { value: ratio.value * scale, low: ratio.low * scale, high: ratio.high * scale },
                ideal_speedup: scale,
                evidence: Evidence::of(&elapsed_ms, planned),
                elapsed_ms,
                all_pinned,
            }
        })
        .collect()
}

/// The speedup measured with exactly `threads` threads; `None` when that team or the
/// single thread has too few trials for a claim.
pub fn speedup_at(summaries: &[ScalingSummary], threads: u64) -> Option<Ratio> {
    let find = |threads: u64| summaries.iter().find(|summary| summary.threads == threads);
    let (single, team) = (find(1)?, find(threads)?);
    evidence::check([&single.elapsed_ms, &team.elapsed_ms]).ok()?;
    Some(team.speedup)
}

/// The noise check: the largest coefficient of variation among the groups of identical
/// trials, with its team size; `None` when any group has too few trials for a claim.
pub fn trial_spread(summaries: &[ScalingSummary]) -> Option<(f64, u64)> {
    evidence::check(summaries.iter().map(|summary| &summary.elapsed_ms)).ok()?;
    summaries.iter().map(|summary| (summary.elapsed_ms.cv, summary.threads)).max_by(|a, b| a.0.total_cmp(&b.0))
}

/// One sentence for the report and the notebooks.
pub fn finding(summaries: &[ScalingSummary]) -> String {
    let Some(widest) = summaries.last() else {
        return "The scaling check was not measured.".into();
    };
    if widest.threads == 1 {
        return "Only one thread could run, so there is no parallel scaling to measure.".into();
    }
    if let Err(short) = evidence::check(summaries.iter().map(|summary| &summary.elapsed_ms)) {
        return format!("The scaling check claims nothing: {short}.");
    }
    let spread = trial_spread(summaries).map_or(String::new(), |(cv, threads)| {
        format!(" Identical trials varied by up to {:.1}% ({threads} thread(s)).", cv * 100.0)
    });
    format!(
        "{} threads on separate padded counters did {:.2}x the work of one thread (interval {:.2}x to {:.2}x; \
         ideal {:.0}x).{spread}",
        widest.threads, widest.speedup.value, widest.speedup.low, widest.speedup.high, widest.ideal_speedup
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::no_progress;

    #[test]
    fn team_sizes_are_one_two_and_all_without_repeats() {
        let sized = |max_threads| Config { max_threads, ..Config::quick() }.team_sizes();
        assert_eq!(sized(1), vec![1]);
        assert_eq!(sized(2), vec![1, 2]);
        assert_eq!(sized(16), vec![1, 2, 16]);
    }

    #[test]
    fn bad_configs_name_the_field() {
        assert_eq!(Config { trials: 1, ..Config::quick() }.validate().unwrap_err().field, "trials");
        assert_eq!(Config { iters_per_thread: 0, ..Config::quick() }.validate().unwrap_err().field, "iters");
        assert_eq!(Config { stride_bytes: 12, ..Config::quick() }.validate().unwrap_err().field, "stride_bytes");
    }

    #[test]
    fn every_trial_is_verified_and_summarised() {
        let config = Config { iters_per_thread: 10_000, trials: 5, warmup: Duration::ZERO, ..Config::quick() };
        let outcome = run(&config, &mut no_progress).unwrap();
        assert_eq!(outcome.rows.len(), 5 * config.team_sizes().len());
        assert!(outcome.rows.iter().all(|row| row.iters_per_thread >= 10_000 && row.trials_planned == 5));
        let summaries = summarize(&outcome.rows);
        assert_eq!(summaries.iter().map(|s| s.threads as usize).collect::<Vec<_>>(), config.team_sizes());
        assert_eq!(summaries[0].speedup.value, 1.0);
        assert!(trial_spread(&summaries).is_some());
    }

    #[test]
    fn speedup_scales_time_ratio_by_threads() {
        let row = |threads, trial, elapsed_ns| Row {
            threads,
            trial,
            trials_planned: 5,
            iters_per_thread: 1,
            elapsed_ns,
            ns_per_op: elapsed_ns as f64,
            pinned: true,
            cpus: String::new(),
            cache_misses: CounterReading::Unavailable,
            snoop_hit_modified: CounterReading::Unavailable,
        };
        let single = [90, 95, 100, 105, 110].into_iter().enumerate().map(|(trial, ns)| row(1, trial as u64, ns));
        let pair = (0..5).map(|trial| row(2, trial, 125));
        let rows: Vec<Row> = single.chain(pair).collect();
        let summaries = summarize(&rows);
        assert!(speedup_at(&summaries, 2).is_some_and(|ratio| (ratio.value - 1.6).abs() < 1e-9));
        assert_eq!(trial_spread(&summaries).map(|(_, threads)| threads), Some(1));
        assert!(finding(&summaries).starts_with("2 threads on separate padded counters did 1.60x"));
        assert!(summarize(&rows[5..]).is_empty(), "no speedup without the 1-thread group");
        let cut: Vec<Row> = rows.iter().filter(|row| row.trial < 2).cloned().collect();
        let cut = summarize(&cut);
        assert!(cut[0].evidence.budget_cut);
        assert_eq!((speedup_at(&cut, 2), trial_spread(&cut)), (None, None));
        assert!(finding(&cut).contains("too few trials (n=2"), "{}", finding(&cut));
    }
}
