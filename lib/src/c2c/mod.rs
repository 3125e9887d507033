//! Core-to-core latency: how long one CPU takes to see a cache line another CPU just wrote.
//! Every false-sharing penalty is made of such transfers; when they are slow or erratic
//! (time-sliced virtual CPUs, a busy host) the other experiments cannot show a clean effect.
//!
//! # Timing model
//!
//! Two threads, pinned to the two CPUs of a pair and released together on a barrier, pass
//! a counter on its own padded cache line, by two methods in turn (see [`hops`]): a
//! compare-and-swap ping-pong, the standard tools' measure, where each hop takes the line
//! exclusive in one transfer; and a handshake that spins on a load and then stores, where
//! each hop pays a shared read and then an upgrade. Each sample times
//! `round_trips_per_sample` round trips by each; one-way latency = sample / (2 x round
//! trips). The first sample of every pair (cold line, threads still waking) is dropped.
//! The verdict and the heatmap read the handshake's figure, as they always have: their
//! thresholds were set on it.
//!
//! Where the OS will not pin (macOS; the fallback build that reads the CPU number) or by
//! choice (`Config::unpinned`), the [`unpinned`] method runs the same loops on threads the
//! scheduler places, keeping only samples where neither thread moved.

pub mod chart;
mod config;
mod flags;
mod hops;
mod matrix;
pub mod present;
pub mod unpinned;

pub use config::{Config, QUICK_MAX_CPUS};
pub use matrix::{dropped_samples, pairs_never_seen, unpinned_dropped_share, DroppedSamples};

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::RunError;
use crate::evidence;
use crate::harness::{run_team_on, Deadline, Outcome, Progress, ProgressEvent, MAX_PREALLOCATED_ROWS};
use crate::stats::Summary;
use crate::verdict::SLOW_ONE_WAY_NS;

pub const EXPERIMENT: &str = "c2c";

/// The core-to-core latency, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct CoreToCore;

crate::experiment::measure!(
    CoreToCore,
    about: "Core-to-core latency: a cache line passed between every pair of CPUs.",
    summary: PairSummary,
    runtime_row: crate::experiment::NoRows,
    const MAY_HAVE_NO_ROWS: bool = true;
    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// Every unordered pair of `cpus`, in list order: n(n-1)/2 of them.
pub fn pairs(cpus: &[usize]) -> Vec<(usize, usize)> {
    cpus.iter().enumerate().flat_map(|(i, &a)| cpus[i + 1..].iter().map(move |&b| (a, b))).collect()
}

/// One sample of one pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The initiator's CPU.
    pub cpu_a: u64,
    /// The responder's CPU.
    pub cpu_b: u64,
    /// 0-based, after the dropped warm-up sample.
    pub sample: u64,
    pub round_trips: u64,
    /// The handshake's time for the round trips, and its one-way latency.
    pub elapsed_ns: u64,
    pub one_way_ns: f64,
    /// The compare-and-swap ping-pong's, over as many round trips (0 in a run saved before
    /// it was measured).
    #[serde(default)]
    pub cas_elapsed_ns: u64,
    #[serde(default)]
    pub cas_one_way_ns: f64,
    /// Both threads ran pinned to their CPUs.
    pub pinned: bool,
    /// Measured by the unpinned method: the CPUs are where the scheduler ran the threads,
    /// the lower first (false in a run saved before the method).
    #[serde(default)]
    pub unpinned_method: bool,
    /// Unpinned only: a thread moved during the sample, or both ran on one CPU; counted,
    /// never summarised.
    #[serde(default)]
    pub dropped: bool,
    /// The pair's core kinds ("P-P", "P-E", "E-E") where the OS names them; empty otherwise.
    #[serde(default)]
    pub kinds: String,
}

crate::checked::checked_row!(
    Row, counts: [round_trips], amounts: [one_way_ns, cas_one_way_ns], cpu_ids: [cpu_a, cpu_b], cases: |row| (row.cpu_a, row.cpu_b)
);

/// Measures every pair. A machine with one CPU has no pair: the outcome is empty.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    if config.measures_unpinned() {
        return unpinned::run(config, &config.cpus_to_measure(), progress);
    }
    let kinds = crate::platform::core_kinds().ok();
    let pairs = pairs(&config.cpus_to_measure());
    let deadline = Deadline::after(config.budget);
    let mut rows = Vec::with_capacity(pairs.len().saturating_mul(config.samples_per_pair).min(MAX_PREALLOCATED_ROWS));
    for (index, &(cpu_a, cpu_b)) in pairs.iter().enumerate() {
        if index > 0 && deadline.expired() {
            return Ok(Outcome { rows, budget_exhausted: true });
        }
        let kinds = unpinned::pair_kinds(kinds.as_ref(), cpu_a, cpu_b);
        rows.extend(measure_pair(config, cpu_a, cpu_b)?.into_iter().map(|row| Row { kinds: kinds.clone(), ..row }));
        progress(&ProgressEvent {
            experiment: EXPERIMENT,
            done: index + 1,
            total: pairs.len(),
            label: format!("CPUs {cpu_a} and {cpu_b}"),
        });
    }
    Ok(Outcome { rows, budget_exhausted: false })
}

fn measure_pair(config: &Config, cpu_a: usize, cpu_b: usize) -> Result<Vec<Row>, RunError> {
    let flags = hops::Flags::default();
    let samples_taken = config.samples_per_pair + 1;
    let round_trips = config.round_trips_per_sample;
    let timings = Mutex::new(Vec::new());
    let team = run_team_on(EXPERIMENT, &[cpu_a, cpu_b], |worker| {
        if worker == 0 {
            let samples = flags.initiate(round_trips, samples_taken);
            *timings.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = samples;
        } else {
            flags.respond(round_trips, samples_taken);
        }
    })?;
    let expected = 2 * round_trips * samples_taken as u64;
    let (cas_hops, handshake_hops) = flags.hops();
    for (method, actual) in [("compare-and-swap", cas_hops), ("handshake", handshake_hops)] {
        if actual != expected {
            let case = format!("CPUs {cpu_a} and {cpu_b}, {method}");
            return Err(RunError::Verification { experiment: EXPERIMENT, case, trial: 0, expected, actual });
        }
    }
    let one_way = |elapsed_ns: u64| elapsed_ns as f64 / (2 * round_trips) as f64;
    let timings = timings.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    Ok(timings
        .into_iter()
        .skip(1)
        .enumerate()
        .map(|(sample, ns)| Row {
            cpu_a: cpu_a as u64,
            cpu_b: cpu_b as u64,
            sample: sample as u64,
            round_trips,
            elapsed_ns: ns.handshake,
            one_way_ns: one_way(ns.handshake),
            cas_elapsed_ns: ns.cas,
            cas_one_way_ns: one_way(ns.cas),
            pinned: team.pinned,
            unpinned_method: false,
            dropped: false,
            kinds: String::new(),
        })
        .collect())
}

/// The samples of one pair, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairSummary {
    pub cpu_a: u64,
    pub cpu_b: u64,
    /// The handshake's one-way latency: what the verdict and the heatmap read.
    pub one_way_ns: Summary,
    /// The compare-and-swap ping-pong's; `None` for a run saved before it was measured.
    pub cas_one_way_ns: Option<Summary>,
    pub all_pinned: bool,
    /// Measured by the unpinned method (where the scheduler placed the threads).
    #[serde(default)]
    pub unpinned: bool,
    /// Unpinned: samples begun on this pair and dropped because a thread moved.
    #[serde(default)]
    pub dropped: u64,
    /// "P-P", "P-E", "E-E" where the OS named the cores' kinds; empty otherwise.
    #[serde(default)]
    pub kinds: String,
}

/// One summary per measured pair (dropped samples counted, never summarised), in the order
/// the pairs were measured; with core kinds, grouped by them (P-P, P-E, E-E).
pub fn summarize(rows: &[Row]) -> Vec<PairSummary> {
    let mut summaries: Vec<PairSummary> = crate::group::by_key_first_seen(rows, |row| (row.cpu_a, row.cpu_b))
        .into_iter()
        .filter(|((cpu_a, cpu_b), _)| cpu_a != cpu_b)
        .filter_map(|((cpu_a, cpu_b), group)| {
            let kept: Vec<&&Row> = group.iter().filter(|row| !row.dropped).collect();
            let one_way: Vec<f64> = kept.iter().map(|row| row.one_way_ns).collect();
            let cas: Vec<f64> = kept.iter().map(|row| row.cas_one_way_ns).collect();
            Some(PairSummary {
                cpu_a,
                cpu_b,
                one_way_ns: Summary::of(&one_way)?,
                cas_one_way_ns: cas.iter().all(|&ns| ns > 0.0).then(|| Summary::of(&cas)).flatten(),
                all_pinned: kept.iter().all(|row| row.pinned),
                unpinned: kept.iter().any(|row| row.unpinned_method),
                dropped: (group.len() - kept.len()) as u64,
                kinds: kept.first().map(|row| row.kinds.clone()).unwrap_or_default(),
            })
        })
        .collect();
    summaries.sort_by_key(|pair| matrix::kinds_order(&pair.kinds));
    summaries
}

/// The median over pairs of each pair's median one-way latency: the typical transfer.
/// `None` when no pair was measured or any pair has too few samples for a claim.
pub fn typical_one_way_ns(summaries: &[PairSummary]) -> Option<f64> {
    evidence::check(summaries.iter().map(|pair| &pair.one_way_ns)).ok()?;
    let medians: Vec<f64> = summaries.iter().map(|pair| pair.one_way_ns.median).collect();
    Summary::of(&medians).map(|summary| summary.median)
}

/// The median over pairs of each pair's median compare-and-swap latency; `None` when any
/// pair lacks it (a run saved before it) or has too few samples.
pub fn typical_cas_one_way_ns(summaries: &[PairSummary]) -> Option<f64> {
    let cas: Option<Vec<&Summary>> = summaries.iter().map(|pair| pair.cas_one_way_ns.as_ref()).collect();
    let cas = cas?;
    evidence::check(cas.iter().copied()).ok()?;
    let medians: Vec<f64> = cas.iter().map(|summary| summary.median).collect();
    Summary::of(&medians).map(|summary| summary.median)
}

/// What the matrix showed, for the report and the notebooks.
pub fn finding(summaries: &[PairSummary]) -> String {
    if let (false, Err(short)) = (summaries.is_empty(), evidence::check(summaries.iter().map(|pair| &pair.one_way_ns)))
    {
        return format!("Core-to-core latency claims nothing: {short}.");
    }
    let Some(typical) = typical_one_way_ns(summaries) else {
        return "Core-to-core latency was not measured: it needs two CPUs this process may run on, and threads \
                it can pin or an OS that says which CPU a thread runs on (this run had one CPU, or could not pin \
                and could not tell where its threads ran)."
            .into();
    };
    let by_median = |a: &&PairSummary, b: &&PairSummary| a.one_way_ns.median.total_cmp(&b.one_way_ns.median);
    let (Some(fastest), Some(slowest)) = (summaries.iter().min_by(by_median), summaries.iter().max_by(by_median))
    else {
        return String::new();
    };
    let mut sentence = if summaries.len() == 1 {
        format!(
            "Passing a cache line between CPUs {} and {} takes {typical:.0} ns one way here (interval {:.0}-{:.0} ns).",
            fastest.cpu_a, fastest.cpu_b, fastest.one_way_ns.median_low, fastest.one_way_ns.median_high
        )
    } else {
        format!(
            "Passing a cache line between two CPUs takes {typical:.0} ns one way on a typical pair here \
             (median over {} pairs); fastest CPUs {} and {} at {:.0} ns, slowest CPUs {} and {} at {:.0} ns.",
            summaries.len(),
            fastest.cpu_a,
            fastest.cpu_b,
            fastest.one_way_ns.median,
            slowest.cpu_a,
            slowest.cpu_b,
            slowest.one_way_ns.median
        )
    };
    sentence.push_str(&cas_sentence(typical, typical_cas_one_way_ns(summaries)));
    sentence.push_str(&matrix::unpinned_sentence(summaries));
    sentence.push_str(&matrix::kinds_sentence(summaries));
    if typical > SLOW_ONE_WAY_NS {
        sentence.push_str(&format!(
            " That is slow (above {SLOW_ONE_WAY_NS:.0} ns): the CPUs are probably time-sliced by a hypervisor \
             or busy with other work, which blurs every contention effect."
        ));
    }
    sentence
}

/// Names the method of each figure: the handshake's, which the sentence leads with, and the
/// compare-and-swap ping-pong's where the run measured it.
fn cas_sentence(handshake_ns: f64, cas_ns: Option<f64>) -> String {
    let Some(cas_ns) = cas_ns else {
        return " That figure is by handshake (a load, then a store); this run has no compare-and-swap figure.".into();
    };
    format!(
        " That figure is by handshake (a load, then a store); by compare-and-swap ping-pong, the standard \
         tools' method, it is {cas_ns:.0} ns, so the handshake reads {:.2}x it.",
        handshake_ns / cas_ns
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_every_unordered_pair_once() {
        assert_eq!(pairs(&[0, 1]), vec![(0, 1)]);
        assert_eq!(pairs(&[3, 1, 2]), vec![(3, 1), (3, 2), (1, 2)]);
        assert_eq!(pairs(&[0, 1, 2, 3, 4]).len(), 10);
        assert!(pairs(&[0]).is_empty());
    }
}
