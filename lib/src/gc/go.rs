//! The real Go collector beside the model: rows of the article's benchmark run in Go
//! (`report/gc-go/main.go`: ECDSA P-256 `Sign` of `"testing"` in a loop on GOMAXPROCS
//! goroutines), one per trial, with GOMAXPROCS = threads and GOGC = ratio, cycles and
//! pauses read from `runtime/metrics`. The report runs it and writes `gc-go.csv`; this
//! module only holds the rows and their summary, so notebooks can read them too.

use serde::{Deserialize, Serialize};

use super::config::GcRatio;
use super::summary::{cpu_share, MIN_CYCLES_TO_JUDGE};
use crate::stats::Summary;

/// Where the Go rows go in a run folder.
pub const GO_CSV: &str = "gc-go.csv";
/// How to add Go when it is missing (the CLI's manifest and the page say the same).
pub const HOW_TO_ADD_GO: &str =
    "install Go (Debian/Ubuntu: apt-get install golang-go; elsewhere https://go.dev/dl) and run `contention run gc` again";

/// One trial of the Go benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoRow {
    /// GOMAXPROCS, and the goroutines signing.
    pub threads: u64,
    /// GOGC.
    pub ratio: GcRatio,
    pub trial: u64,
    /// `runtime.Version()`, e.g. "go1.19.8".
    pub go_version: String,
    pub elapsed_ns: u64,
    pub operations: u64,
    pub ops_per_sec: f64,
    /// `/gc/cycles/total:gc-cycles` over the trial.
    pub cycles: u64,
    pub cycles_per_sec: f64,
    /// Stop-the-world time, estimated from the pause histogram's bucket midpoints.
    pub pause_total_ns: u64,
    pub pause_share: f64,
    /// The histogram it came from: `/gc/pauses:seconds` (Go 1.19 to 1.21) or
    /// `/sched/pauses/total/gc:seconds` (1.22 on).
    pub pause_metric: String,
    /// `/gc/heap/allocs:bytes` and `:objects` per signature.
    pub alloc_bytes_per_op: f64,
    pub alloc_objects_per_op: f64,
    /// Every goroutine's last signature verified.
    pub verified: bool,
    /// The Go process's CPU time (its own `getrusage` around the trial) over the wall time x
    /// `runtime.NumCPU()`; 0 where unknown (a run saved before this column).
    #[serde(default)]
    pub cpu_share: f64,
    /// `/gc/heap/goal:bytes` at the trial's end: the heap the pacer aims the next cycle at;
    /// 0 where unknown (a run saved before this column).
    #[serde(default)]
    pub heap_goal_bytes: f64,
}

crate::checked::checked_row!(
    GoRow,
    counts: [],
    amounts: [ops_per_sec, cycles_per_sec, pause_share, alloc_bytes_per_op, alloc_objects_per_op, cpu_share, heap_goal_bytes],
    threads: [threads],
    texts: [go_version, pause_metric],
    checked: [verified],
    cases: |row| (row.threads, row.ratio)
);

/// The Go trials of one (threads, ratio) cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoCell {
    pub threads: u64,
    pub ratio: GcRatio,
    pub go_version: String,
    pub ops_per_sec: Summary,
    pub cycles_per_sec: Summary,
    pub pause_share: Summary,
    /// The process's CPU share; `None` when some trial did not record it.
    pub cpu_share: Option<Summary>,
    pub cycles: u64,
    pub too_few_cycles: bool,
    pub alloc_bytes_per_op: f64,
    pub alloc_objects_per_op: f64,
    /// The pacer's heap goal at the trials' ends, bytes; `None` when some trial did not
    /// record it.
    pub heap_goal_bytes: Option<Summary>,
}

/// Groups Go rows by cell, ordered by threads then ratio (`off` last).
pub fn summarize_go(rows: &[GoRow]) -> Vec<GoCell> {
    crate::group::by_key(rows, |row| (row.threads, row.ratio.order_key()))
        .into_iter()
        .filter_map(|((threads, _), group)| {
            let ratio = group.first()?.ratio;
            let of = |value: fn(&GoRow) -> f64| Summary::of(&group.iter().map(|row| value(row)).collect::<Vec<_>>());
            let cycles = group.iter().map(|row| row.cycles).sum();
            Some(GoCell {
                threads,
                ratio,
                go_version: group.first()?.go_version.clone(),
                ops_per_sec: of(|row| row.ops_per_sec)?,
                cycles_per_sec: of(|row| row.cycles_per_sec)?,
                pause_share: of(|row| row.pause_share)?,
                cpu_share: cpu_share(group.iter().map(|row| row.cpu_share)),
                cycles,
                too_few_cycles: cycles < MIN_CYCLES_TO_JUDGE,
                alloc_bytes_per_op: of(|row| row.alloc_bytes_per_op)?.median,
                alloc_objects_per_op: of(|row| row.alloc_objects_per_op)?.median,
                heap_goal_bytes: if group.iter().all(|row| row.heap_goal_bytes > 0.0) {
                    of(|row| row.heap_goal_bytes)
                } else {
                    None
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(threads: u64, ratio: GcRatio, cycles: u64) -> GoRow {
        GoRow {
            threads,
            ratio,
            trial: 0,
            go_version: "go1.19.8".into(),
            elapsed_ns: 1_000_000_000,
            operations: 35_000,
            ops_per_sec: 35_000.0,
            cycles,
            cycles_per_sec: cycles as f64,
            pause_total_ns: 1_000_000,
            pause_share: 0.001,
            pause_metric: "/gc/pauses:seconds".into(),
            alloc_bytes_per_op: 2573.0,
            alloc_objects_per_op: 33.5,
            verified: true,
            cpu_share: 0.5,
            heap_goal_bytes: 4_194_304.0,
        }
    }

    #[test]
    fn cells_group_and_too_few_cycles_are_marked() {
        let rows = [row(2, GcRatio::Off, 0), row(1, GcRatio::DEFAULT, 20), row(1, GcRatio::DEFAULT, 22)];
        let cells = summarize_go(&rows);
        assert_eq!(cells.iter().map(|cell| (cell.threads, cell.cycles)).collect::<Vec<_>>(), vec![(1, 42), (2, 0)]);
        assert_eq!(cells.iter().map(|cell| cell.too_few_cycles).collect::<Vec<_>>(), vec![false, true]);
        assert_eq!(cells[0].ops_per_sec.samples, 2);
    }
}
