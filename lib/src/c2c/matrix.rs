//! What an unpinned matrix adds to the pinned one's story: the samples it dropped, the
//! pairs the scheduler never gave, and the pairs grouped by their cores' kinds.

use super::{PairSummary, Row};
use crate::stats::Summary;

/// The unpinned method's samples of a run, as the rows record them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DroppedSamples {
    /// Every sample taken (kept or dropped).
    pub taken: u64,
    /// Dropped because a thread moved to another CPU during the sample.
    pub moved: u64,
    /// Dropped because both threads ran on one CPU (no pair).
    pub one_cpu: u64,
}

impl DroppedSamples {
    /// The share of samples dropped, 0 to 1.
    pub fn share(&self) -> f64 {
        (self.moved + self.one_cpu) as f64 / self.taken.max(1) as f64
    }
}

/// The unpinned method's tally of `rows`; `None` for a run measured pinned.
pub fn dropped_samples(rows: &[Row]) -> Option<DroppedSamples> {
    let unpinned: Vec<&Row> = rows.iter().filter(|row| row.unpinned_method).collect();
    if unpinned.is_empty() {
        return None;
    }
    let one_cpu = unpinned.iter().filter(|row| row.dropped && row.cpu_a == row.cpu_b).count() as u64;
    let dropped = unpinned.iter().filter(|row| row.dropped).count() as u64;
    Some(DroppedSamples { taken: unpinned.len() as u64, moved: dropped - one_cpu, one_cpu })
}

/// The pairs of `cpus` that no summary holds: the scheduler never ran the threads there
/// (or every sample there was dropped).
pub fn pairs_never_seen(summaries: &[PairSummary], cpus: &[usize]) -> Vec<(usize, usize)> {
    let seen = |a: usize, b: usize| {
        summaries.iter().any(|pair| (pair.cpu_a, pair.cpu_b) == (a.min(b) as u64, a.max(b) as u64))
    };
    super::pairs(cpus).into_iter().filter(|&(a, b)| !seen(a, b)).collect()
}

/// P-P first, then P-E, then E-E, then pairs of unknown kind.
pub(super) fn kinds_order(kinds: &str) -> u8 {
    match kinds {
        "P-P" => 0,
        "P-E" => 1,
        "E-E" => 2,
        _ => 3,
    }
}

/// The share of an unpinned matrix's samples (on its pairs) dropped because a thread
/// moved; `None` for a pinned matrix.
pub fn unpinned_dropped_share(summaries: &[PairSummary]) -> Option<f64> {
    if !summaries.iter().any(|pair| pair.unpinned) {
        return None;
    }
    let kept: u64 = summaries.iter().map(|pair| pair.one_way_ns.samples as u64).sum();
    let dropped: u64 = summaries.iter().map(|pair| pair.dropped).sum();
    Some(dropped as f64 / (kept + dropped).max(1) as f64)
}

/// " Unpinned: ..." for the finding: what the matrix means and what it dropped; empty for
/// a pinned matrix.
pub(super) fn unpinned_sentence(summaries: &[PairSummary]) -> String {
    if !summaries.iter().any(|pair| pair.unpinned) {
        return String::new();
    }
    let kept: usize = summaries.iter().map(|pair| pair.one_way_ns.samples).sum();
    let dropped: u64 = summaries.iter().map(|pair| pair.dropped).sum();
    let share = dropped as f64 / (kept as u64 + dropped).max(1) as f64;
    format!(
        " Unpinned: the threads ran where the scheduler put them, each sample read both threads' CPUs, and a sample \
         where a thread moved was dropped ({dropped} of {} on these pairs, {:.1}%); each pair is the two CPUs the \
         threads stayed on.",
        kept as u64 + dropped,
        share * 100.0
    )
}

/// " By core kind: P-P 40 ns (3 pairs), ..." where the pairs carry kinds; empty otherwise.
pub(super) fn kinds_sentence(summaries: &[PairSummary]) -> String {
    let groups: Vec<String> = ["P-P", "P-E", "E-E"]
        .into_iter()
        .filter_map(|kind| {
            let medians: Vec<f64> =
                summaries.iter().filter(|pair| pair.kinds == kind).map(|pair| pair.one_way_ns.median).collect();
            let typical = Summary::of(&medians)?.median;
            let pairs = if medians.len() == 1 { "pair".to_string() } else { format!("{} pairs", medians.len()) };
            Some(format!("{kind} {typical:.0} ns ({pairs})"))
        })
        .collect();
    if groups.is_empty() {
        return String::new();
    }
    format!(" By core kind (P performance, E efficiency): {}.", groups.join(", "))
}
