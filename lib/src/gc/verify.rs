//! The checks every trial passes before its row is kept: every allocated byte freed or
//! still accounted, the live graph marked whole at every cycle, every worker's roots
//! scanned at every cycle, the ceiling held, the work's outputs correct. A failed check voids the trial (an error, never a
//! silently dropped row).

use super::config::Config;
use super::mutator::WorkerTally;
use super::row::Row;
use super::workload::Work;
use super::EXPERIMENT;
use crate::error::RunError;

/// What a trial's row is checked against besides its own columns.
#[derive(Clone, Copy)]
pub(crate) struct TrialChecks<'a> {
    pub expected_nodes: u64,
    pub damaged_spans: u64,
    pub mark_mismatches: u64,
    pub work: &'a Work,
    pub tallies: &'a [WorkerTally],
    /// Every operation allocated the configured objects (a handler allocates what it chooses).
    pub fixed_operation: bool,
}

/// Every check a kept row has passed; the first failure voids the trial.
pub(crate) fn verify(row: &Row, config: &Config, evidence: &TrialChecks<'_>) -> Result<(), RunError> {
    let per_op = u64::from(config.objects_per_op);
    let failed_outputs = evidence
        .tallies
        .iter()
        .filter(|tally| tally.last.is_some_and(|(message, output)| !evidence.work.check(&message, &output)))
        .count() as u64;
    let fixed = |expected: u64, actual: u64| if evidence.fixed_operation { expected } else { actual };
    let checks: [(&str, u64, u64); 12] = [
        (
            "objects allocated = operations x objects per operation",
            fixed(row.operations * per_op, row.objects_allocated),
            row.objects_allocated,
        ),
        (
            "bytes allocated = operations x bytes per operation",
            fixed(row.operations * row.alloc_per_op_bytes, row.bytes_allocated),
            row.bytes_allocated,
        ),
        ("objects freed + outstanding = allocated", row.objects_allocated, row.objects_freed + row.objects_outstanding),
        ("bytes freed + outstanding = allocated", row.bytes_allocated, row.bytes_freed + row.bytes_outstanding),
        ("cycles whose marking did not reach every live node", 0, evidence.mark_mismatches),
        ("nodes marked = cycles x live nodes", row.cycles * evidence.expected_nodes, row.nodes_marked),
        ("stacks scanned = cycles x threads", row.cycles * row.threads, row.stacks_scanned),
        ("live nodes traced after the trial = built", evidence.expected_nodes, row.live_nodes),
        ("spans whose object headers did not add up", 0, evidence.damaged_spans),
        ("peak heap above the ceiling (1 = yes)", 0, u64::from(row.peak_heap_bytes > row.ceiling_bytes)),
        ("workers whose last output did not check", 0, failed_outputs),
        ("ceiling cycles above all cycles (1 = yes)", 0, u64::from(row.ceiling_cycles > row.cycles)),
    ];
    match checks.into_iter().find(|&(_, expected, actual)| expected != actual) {
        None => Ok(()),
        Some((what, expected, actual)) => Err(RunError::Verification {
            experiment: EXPERIMENT,
            case: format!("{} threads, ratio {}: {what}", row.threads, row.ratio),
            trial: row.trial as usize,
            expected,
            actual,
        }),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::gc::config::{GcRatio, Workload};
    use crate::gc::run::run;
    use crate::harness::no_progress;

    fn one_row() -> (Row, Config) {
        let config = Config {
            threads: vec![2],
            ratios: vec![GcRatio::Percent(10)],
            trial: Duration::from_millis(100),
            live_bytes: 6400,
            trials: 1,
            warmup: Duration::ZERO,
            ..Config::quick()
        };
        (run(&config, &mut no_progress).unwrap().rows.remove(0), config)
    }

    /// The checks are not vacuous: altering any accounted column voids the row.
    #[test]
    fn tampered_rows_fail_verification() {
        let (row, config) = one_row();
        let work = Work::new(Workload::Hash).unwrap();
        let evidence = TrialChecks {
            expected_nodes: 100,
            damaged_spans: 0,
            mark_mismatches: 0,
            work: &work,
            tallies: &[],
            fixed_operation: true,
        };
        verify(&row, &config, &evidence).unwrap();
        let tampered = [
            Row { bytes_outstanding: row.bytes_outstanding + 1, ..row.clone() },
            Row { objects_freed: row.objects_freed + 1, ..row.clone() },
            Row { operations: row.operations + 1, ..row.clone() },
            Row { live_nodes: 99, ..row.clone() },
            Row { stacks_scanned: row.stacks_scanned + 1, ..row.clone() },
            Row { nodes_marked: row.nodes_marked + 1, ..row.clone() },
            Row { peak_heap_bytes: row.ceiling_bytes + 1, ..row.clone() },
        ];
        for bad in tampered {
            let error = verify(&bad, &config, &evidence).unwrap_err().to_string();
            assert!(error.starts_with("gc: trial 0 (2 threads, ratio 10: "), "{error}");
        }
        assert!(row.cycles > 0, "ratio 10 collects: the per-cycle checks were exercised");
        let damaged = TrialChecks { damaged_spans: 1, ..evidence };
        assert!(verify(&row, &config, &damaged).is_err());
        let unmarked = TrialChecks { mark_mismatches: 1, ..evidence };
        assert!(verify(&row, &config, &unmarked).is_err());
    }
}
