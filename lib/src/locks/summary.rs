//! Summaries per cell: medians with their intervals over the trials, never the best trial.

use serde::{Deserialize, Serialize};

use super::{Case, Primitive, Row};
use crate::evidence::Evidence;
use crate::stats::Summary;

/// The trials of one cell, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSummary {
    pub case: Case,
    pub primitive: Primitive,
    pub threads: u64,
    pub read_share: f64,
    pub ns_per_op: Summary,
    pub ops_per_sec: Summary,
    /// Reads per second: the read-mostly case's figure.
    pub reads_per_sec: Summary,
    /// Sleeping hand-offs per operation (`None` where the OS did not count them).
    pub handoffs_per_op: Option<Summary>,
    /// The smallest and largest share of a trial's operations one worker did.
    pub min_share: Summary,
    pub max_share: Summary,
    pub blocked_share: Summary,
    /// Torn optimistic reads caught and retried, and reads done, over every trial.
    pub torn_retries: u64,
    pub reads: u64,
    /// Lock across a wait: remote calls per trial, distinct keys asked per trial.
    pub remote_calls: Summary,
    pub keys_requested: Summary,
    pub wait_ms: f64,
    pub keys: u64,
    pub shards: u64,
    pub logical_cpus: u64,
    /// Every trial ran with every worker pinned to its own logical CPU.
    pub all_pinned: bool,
    /// Trials, coverage and budget cuts behind this cell's figures.
    pub evidence: Evidence,
}

impl CellSummary {
    /// "std Mutex, 2 threads" or "seqlock (optimistic), 2 threads, 99% reads".
    pub fn label(&self) -> String {
        let threads = if self.threads == 1 { "1 thread".into() } else { format!("{} threads", self.threads) };
        match self.case {
            Case::ReadMostly => format!(
                "{}, {threads}, {}% reads",
                self.primitive.label(),
                crate::format::short_number(self.read_share * 100.0)
            ),
            _ => format!("{}, {threads}", self.primitive.label()),
        }
    }
}

/// The identity of a cell in the rows.
type Key = (Case, Primitive, u64, u64);

fn key_of(row: &Row) -> Key {
    (row.case, row.primitive, row.threads, row.read_share.to_bits())
}

/// Groups rows by cell, in the order the cells first appear (the run's cell order).
pub fn summarize(rows: &[Row]) -> Vec<CellSummary> {
    let mut keys: Vec<Key> = Vec::new();
    for row in rows {
        if !keys.contains(&key_of(row)) {
            keys.push(key_of(row));
        }
    }
    keys.into_iter()
        .filter_map(|key| {
            let group: Vec<&Row> = rows.iter().filter(|row| key_of(row) == key).collect();
            summarize_cell(&group)
        })
        .collect()
}

fn summarize_cell(group: &[&Row]) -> Option<CellSummary> {
    let first = *group.first()?;
    let of = |value: &dyn Fn(&Row) -> f64| Summary::of(&group.iter().map(|row| value(row)).collect::<Vec<f64>>());
    let ns_per_op = of(&|row| row.ns_per_op)?;
    let handoffs: Option<Vec<f64>> = group.iter().map(|row| row.handoffs_per_op).collect();
    let planned = group.iter().map(|row| row.trials_planned).max().unwrap_or(0);
    Some(CellSummary {
        case: first.case,
        primitive: first.primitive,
        threads: first.threads,
        read_share: first.read_share,
        evidence: Evidence::of(&ns_per_op, planned),
        ns_per_op,
        ops_per_sec: of(&|row| row.ops_per_sec)?,
        reads_per_sec: of(&|row| row.reads as f64 / (row.elapsed_ns.max(1) as f64 / 1e9))?,
        handoffs_per_op: handoffs.and_then(|values| Summary::of(&values)),
        min_share: of(&|row| row.min_share)?,
        max_share: of(&|row| row.max_share)?,
        blocked_share: of(&|row| row.blocked_share)?,
        torn_retries: group.iter().map(|row| row.torn_retries).sum(),
        reads: group.iter().map(|row| row.reads).sum(),
        remote_calls: of(&|row| row.remote_calls as f64)?,
        keys_requested: of(&|row| row.keys_requested as f64)?,
        wait_ms: first.wait_ms,
        keys: first.keys,
        shards: first.shards,
        logical_cpus: first.logical_cpus,
        all_pinned: group.iter().all(|row| row.pinned),
    })
}

/// The summary of one cell; `read_share` matters only for read-mostly cells.
pub fn find(
    summaries: &[CellSummary],
    case: Case,
    primitive: Primitive,
    threads: u64,
    read_share: f64,
) -> Option<&CellSummary> {
    summaries.iter().find(|s| {
        s.case == case
            && s.primitive == primitive
            && s.threads == threads
            && (case != Case::ReadMostly || s.read_share == read_share)
    })
}

/// The thread counts measured for `case`, ascending.
pub fn threads_of(summaries: &[CellSummary], case: Case) -> Vec<u64> {
    let mut threads: Vec<u64> = summaries.iter().filter(|s| s.case == case).map(|s| s.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    threads
}

/// The read shares measured in the read-mostly case, descending.
pub fn read_shares_of(summaries: &[CellSummary]) -> Vec<f64> {
    let mut shares: Vec<f64> = summaries.iter().filter(|s| s.case == Case::ReadMostly).map(|s| s.read_share).collect();
    shares.sort_by(|a, b| b.total_cmp(a));
    shares.dedup();
    shares
}
