//! The sweep's trials summarised per stride, one sweep (thread count) at a time, and what
//! they support: the knee where the penalty ends, and a sentence for the page.

use serde::{Deserialize, Serialize};

use super::{Row, KNEE_TOLERANCE};
use crate::evidence::{self, Evidence, TooFewTrials};
use crate::stats::{Ratio, Summary};
use crate::verdict::{then_what_may_hide_it, Verdict};

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

/// The thread counts the sweep ran at, ascending.
pub fn teams(rows: &[Row]) -> Vec<u64> {
    let mut teams: Vec<u64> = rows.iter().map(|row| row.threads).collect();
    teams.sort_unstable();
    teams.dedup();
    teams
}

/// The sweep at the most threads it ran (the article's 8 where the machine has them),
/// grouped by stride (ascending), each group summarised.
pub fn summarize(rows: &[Row]) -> Vec<StrideSummary> {
    summarize_team(rows, teams(rows).last().copied().unwrap_or(0))
}

/// A sentence for each sweep at fewer threads than the most ("With 2 threads: ..."), which
/// [`summarize`] leaves out; none when the run swept at one thread count.
pub fn fewer_threads_findings(rows: &[Row]) -> Vec<String> {
    let teams = teams(rows);
    let fewer = teams.split_last().map_or(&[][..], |(_, fewer)| fewer);
    fewer
        .iter()
        .map(|&threads| format!("With {threads} threads: {}", finding(&summarize_team(rows, threads), None)))
        .collect()
}

/// The sweep at `threads`, grouped by stride (ascending), each group summarised.
pub fn summarize_team(rows: &[Row], threads: u64) -> Vec<StrideSummary> {
    let team: Vec<&Row> = rows.iter().filter(|row| row.threads == threads).collect();
    let mut summaries: Vec<StrideSummary> = crate::group::by_key(&team, |row| row.stride_bytes)
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
