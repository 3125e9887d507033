//! The trials of each case summarised, and the ratios the control is read by.

use serde::{Deserialize, Serialize};

use super::{Case, Row};
use crate::evidence::Evidence;
use crate::stats::{Ratio, Summary};

/// The trials of one case, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub case: Case,
    pub threads: u64,
    pub distance_bytes: u64,
    pub total_increments: u64,
    /// Elapsed time per trial, in milliseconds (the article's unit).
    pub elapsed_ms: Summary,
    pub ns_per_increment: Summary,
    pub all_pinned: bool,
    /// Trials, coverage and budget cuts behind this case's figures.
    pub evidence: Evidence,
}

/// The control's summaries: its first team's ([`teams`]), as [`summarize_team`] gives them.
pub fn summarize(rows: &[Row]) -> Vec<CaseSummary> {
    summarize_team(rows, teams(rows).first().copied())
}

/// The thread counts of the teams that ran the cases beside the single thread, ascending.
pub fn teams(rows: &[Row]) -> Vec<u64> {
    let mut teams: Vec<u64> = rows.iter().filter(|row| row.case != Case::Single).map(|row| row.threads).collect();
    teams.sort_unstable();
    teams.dedup();
    teams
}

/// The summaries of the team of `threads` (with the single thread they share), by case in
/// [`Case::ALL`] order; cases without rows are left out. `None`: every row.
pub fn summarize_team(rows: &[Row], threads: Option<u64>) -> Vec<CaseSummary> {
    let in_team = |row: &&Row| row.case == Case::Single || threads.map_or(true, |threads| row.threads == threads);
    Case::ALL
        .iter()
        .filter_map(|&case| {
            let group: Vec<&Row> = rows.iter().filter(in_team).filter(|row| row.case == case).collect();
            let elapsed: Vec<f64> = group.iter().map(|row| row.elapsed_ns as f64 / 1e6).collect();
            let per_increment: Vec<f64> = group.iter().map(|row| row.ns_per_increment).collect();
            let first = group.first()?;
            let elapsed_ms = Summary::of(&elapsed)?;
            let planned = group.iter().map(|row| row.trials_planned).max().unwrap_or(0);
            Some(CaseSummary {
                case,
                threads: first.threads,
                distance_bytes: first.distance_bytes,
                total_increments: first.total_increments,
                evidence: Evidence::of(&elapsed_ms, planned),
                elapsed_ms,
                ns_per_increment: Summary::of(&per_increment)?,
                all_pinned: group.iter().all(|row| row.pinned),
            })
        })
        .collect()
}

/// False sharing's time over another case's time (same total), with an interval.
pub fn false_sharing_over(summaries: &[CaseSummary], other: Case) -> Option<Ratio> {
    let find = |case: Case| summaries.iter().find(|s| s.case == case);
    Some(Ratio::between(&find(Case::FalseSharing)?.elapsed_ms, &find(other)?.elapsed_ms))
}
