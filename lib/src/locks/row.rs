//! One trial of one cell, as saved in `locks.csv`, and the per-worker tallies it is built
//! from.

use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::{Case, Cell, Primitive};
use crate::harness::TeamTiming;

/// One trial of one cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub case: Case,
    pub primitive: Primitive,
    pub threads: u64,
    /// See [`Cell::read_share`].
    pub read_share: f64,
    pub trial: u64,
    /// Trials the config asked for per cell (fewer ran when the budget was spent).
    pub trials_planned: u64,
    /// Operations the whole team did: acquisitions (uncontended, contended, fair vs
    /// barging), reads plus writes (read-mostly), requests (lock across a wait).
    pub ops: u64,
    pub reads: u64,
    pub writes: u64,
    pub elapsed_ns: u64,
    /// Elapsed time over `ops`: the team's wall time per operation (for one thread, the
    /// cost of one; for a lock that serialises the team, the time per hand-off).
    pub ns_per_op: f64,
    pub ops_per_sec: f64,
    /// Voluntary context switches of the workers per operation: the share of operations that
    /// slept in the kernel (empty where the OS does not count them per thread). In the
    /// lock-across-wait case they include the remote call's own wait.
    pub handoffs_per_op: Option<f64>,
    pub voluntary_switches: Option<u64>,
    /// Optimistic reads thrown away because a writer came between (seqlock only).
    pub torn_retries: u64,
    /// The smallest and largest share of `ops` one worker did (1 and 1 for one thread).
    pub min_share: f64,
    pub max_share: f64,
    /// Lock across a wait: the share of the workers' time spent waiting for the map's
    /// locks (0 elsewhere).
    pub blocked_share: f64,
    /// Lock across a wait: the remote call's latency; its key set, the distinct keys the
    /// trial asked for, the remote calls made, the requests that found their key, and the
    /// map's shard count (all 0 elsewhere).
    pub wait_ms: f64,
    pub keys: u64,
    pub keys_requested: u64,
    pub remote_calls: u64,
    pub hits: u64,
    pub shards: u64,
    /// Logical CPUs this process could run on.
    pub logical_cpus: u64,
    /// Every worker ran pinned to its own logical CPU.
    pub pinned: bool,
    /// The logical CPUs the workers ran on, in worker order ("0,2,4,6").
    pub cpus: String,
}

crate::checked::checked_row!(
    Row,
    counts: [ops],
    amounts: [ns_per_op, ops_per_sec, wait_ms],
    threads: [threads, logical_cpus],
    cpu_lists: [cpus],
    probabilities: [read_share, min_share, max_share, blocked_share],
    cases: |row| (row.case, row.primitive, row.threads, (row.read_share + 0.0).to_bits())
);

/// What one worker reports when it finishes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub ops: u64,
    pub reads: u64,
    pub writes: u64,
    /// Voluntary switches during the work (`None`: not countable here).
    pub switches: Option<u64>,
    pub torn_retries: u64,
    pub blocked_ns: u64,
    pub remote_calls: u64,
    pub hits: u64,
    /// Stopped at the trial's cap before its work was done (summed: any worker did).
    pub cut: bool,
}

/// One slot per worker, each written once when its worker finishes.
#[derive(Debug)]
pub(crate) struct Tallies(Vec<Mutex<Tally>>);

impl Tallies {
    pub fn new(workers: usize) -> Self {
        Self((0..workers).map(|_| Mutex::default()).collect())
    }

    pub fn set(&self, worker: usize, tally: Tally) {
        *self.0[worker].lock().unwrap_or_else(PoisonError::into_inner) = tally;
    }

    pub fn into_vec(self) -> Vec<Tally> {
        self.0.into_iter().map(|slot| slot.into_inner().unwrap_or_else(PoisonError::into_inner)).collect()
    }
}

/// Switches between two readings, when both were countable.
pub(crate) fn switches_between(before: Option<u64>, after: Option<u64>) -> Option<u64> {
    Some(after?.saturating_sub(before?))
}

/// The sums over the workers and their spread, ready for a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Totals {
    pub sum: Tally,
    pub min_share: f64,
    pub max_share: f64,
}

impl Totals {
    pub fn of(tallies: &[Tally]) -> Self {
        let mut sum = Tally::default();
        for tally in tallies {
            sum.ops += tally.ops;
            sum.reads += tally.reads;
            sum.writes += tally.writes;
            sum.torn_retries += tally.torn_retries;
            sum.blocked_ns += tally.blocked_ns;
            sum.remote_calls += tally.remote_calls;
            sum.hits += tally.hits;
            sum.cut |= tally.cut;
        }
        sum.switches = tallies.iter().map(|tally| tally.switches).sum();
        let share = |ops: Option<u64>| ops.map_or(0.0, |ops| ops as f64 / sum.ops.max(1) as f64);
        Self {
            sum,
            min_share: share(tallies.iter().map(|t| t.ops).min()),
            max_share: share(tallies.iter().map(|t| t.ops).max()),
        }
    }
}

/// Facts of a lock-across-wait trial that other cases leave at 0.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct MapFacts {
    pub wait_ms: f64,
    pub keys: u64,
    pub keys_requested: u64,
    pub shards: u64,
}

/// The row of a verified trial of `cell`.
pub(crate) fn verified_row(
    cell: &Cell,
    (trial, trials_planned): (usize, usize),
    totals: &Totals,
    timing: &TeamTiming,
    map: MapFacts,
) -> Row {
    let elapsed_ns = timing.elapsed.as_nanos().max(1) as u64;
    let ops = totals.sum.ops;
    let busy_ns = elapsed_ns as f64 * cell.threads as f64;
    Row {
        case: cell.case,
        primitive: cell.primitive,
        threads: cell.threads as u64,
        read_share: cell.read_share,
        trial: trial as u64,
        trials_planned: trials_planned as u64,
        ops,
        reads: totals.sum.reads,
        writes: totals.sum.writes,
        elapsed_ns,
        ns_per_op: elapsed_ns as f64 / ops.max(1) as f64,
        ops_per_sec: ops as f64 / (elapsed_ns as f64 / 1e9),
        handoffs_per_op: totals.sum.switches.map(|switches| switches as f64 / ops.max(1) as f64),
        voluntary_switches: totals.sum.switches,
        torn_retries: totals.sum.torn_retries,
        min_share: totals.min_share,
        max_share: totals.max_share,
        blocked_share: (totals.sum.blocked_ns as f64 / busy_ns).min(1.0),
        wait_ms: map.wait_ms,
        keys: map.keys,
        keys_requested: map.keys_requested,
        remote_calls: totals.sum.remote_calls,
        hits: totals.sum.hits,
        shards: map.shards,
        logical_cpus: crate::machine::logical_cpus() as u64,
        pinned: timing.pinned,
        cpus: timing.cpu_list(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_sum_and_spread() {
        let tallies = [
            Tally { ops: 30, switches: Some(2), ..Tally::default() },
            Tally { ops: 70, switches: Some(1), ..Tally::default() },
        ];
        let totals = Totals::of(&tallies);
        assert_eq!((totals.sum.ops, totals.sum.switches), (100, Some(3)));
        assert_eq!((totals.min_share, totals.max_share), (0.3, 0.7));
        let unknown = Totals::of(&[Tally { ops: 1, switches: None, ..Tally::default() }, tallies[0]]);
        assert_eq!(unknown.sum.switches, None);
        assert_eq!(switches_between(Some(3), Some(5)), Some(2));
        assert_eq!(switches_between(None, Some(5)), None);
    }
}
