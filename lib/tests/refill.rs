//! The cache-refill experiment's invariants: every case runs every trial, each pass came back
//! to its start (the run fails otherwise), the rows are complete and the summary keeps every
//! case; bad configs are refused by name. No test compares the two passes' speed.

use std::time::Duration;

use contention::harness::no_progress;
use contention::refill::{self, summarize, Config, Evicts};
use contention::RunError;

/// Small and fast: two tiny sets, the other thread touching nothing or 256 KiB.
fn tiny() -> Config {
    Config {
        working_sets_bytes: vec![4 << 10, 32 << 10],
        evicts: vec![Evicts::None, Evicts::PastL2],
        past_l2_bytes: 256 << 10,
        past_l3_bytes: 512 << 10,
        line_bytes: 64,
        trials: 3,
        warmup: Duration::ZERO,
        budget: Duration::from_secs(60),
    }
}

#[test]
fn every_case_runs_every_trial_with_complete_rows() {
    let outcome = refill::run(&tiny(), &mut no_progress).expect("refill run");
    assert!(!outcome.budget_exhausted);
    assert_eq!(outcome.rows.len(), 2 * 2 * 3);
    for row in &outcome.rows {
        assert_eq!(row.lines, row.working_set_bytes / 64, "{row:?}");
        assert!(row.warm_ns_per_line > 0.0 && row.switched_ns_per_line > 0.0, "{row:?}");
        assert_eq!(row.evict_bytes, if row.evicts == Evicts::None { 0 } else { 256 << 10 }, "{row:?}");
        // Two hand-overs: each thread slept once while the other ran (when they shared a CPU).
        if row.pinned && cfg!(target_os = "linux") {
            assert!(row.switches >= 1, "{row:?}");
        }
    }
    let cases = summarize(&outcome.rows);
    assert_eq!(cases.len(), 4);
    assert!(cases.iter().all(|case| case.warm_ns_per_line.samples == 3));
    assert!(!refill::finding(&cases, None).is_empty());
}

#[test]
fn bad_configs_are_refused_by_name() {
    let refused = |config: Config, field: &str| {
        assert!(matches!(refill::run(&config, &mut no_progress), Err(RunError::Config(e)) if e.field == field));
    };
    refused(Config { working_sets_bytes: vec![64], ..tiny() }, "working-sets");
    refused(Config { line_bytes: 100, ..tiny() }, "line-bytes");
    refused(Config { evicts: Vec::new(), ..tiny() }, "evicts");
    refused(Config { trials: 0, ..tiny() }, "trials");
}
