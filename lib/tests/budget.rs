//! Issue 25, item 4: a time budget is checked before every trial, inside rounds too, so a
//! flag list of any length (`--threads 1,1,...` with 10 000 entries) ends the experiment at
//! most one trial past its budget. Bounds are generous (a loaded two-CPU machine); an
//! unchecked round would take minutes.

use std::time::{Duration, Instant};

use contention::gc::{self, GcRatio, Workload};
use contention::harness::{interleaved_trials, ProgressEvent};

fn no_progress(_: &ProgressEvent) {}

#[test]
fn a_round_of_many_cases_stops_at_the_budget() {
    let cases: Vec<usize> = (0..10_000).collect();
    let trial = Duration::from_millis(2);
    let budget = Duration::from_millis(100);
    let started = Instant::now();
    let outcome = interleaved_trials(
        "test",
        &cases,
        3,
        budget,
        &mut no_progress,
        |case| case.to_string(),
        |&case, _| {
            std::thread::sleep(trial);
            Ok(case)
        },
    )
    .unwrap();
    let elapsed = started.elapsed();
    assert!(outcome.budget_exhausted && !outcome.rows.is_empty());
    assert!(outcome.rows.len() < cases.len(), "the first round was cut: {} rows", outcome.rows.len());
    assert!(elapsed < budget + Duration::from_secs(1), "{elapsed:?}");
}

#[test]
fn the_gc_sweep_with_ten_thousand_thread_counts_ends_at_its_budget() {
    let config = gc::Config {
        threads: vec![1; 10_000],
        ratios: vec![GcRatio::DEFAULT],
        trial: Duration::from_millis(5),
        live_bytes: 64 << 10,
        ceiling_bytes: 64 << 20,
        workload: Workload::Hash,
        trials: 1,
        warmup: Duration::ZERO,
        budget: Duration::from_millis(300),
        ..gc::Config::quick()
    };
    let started = Instant::now();
    let outcome = gc::run(&config, &mut no_progress).expect("the sweep runs");
    let elapsed = started.elapsed();
    assert!(outcome.budget_exhausted, "{} rows", outcome.rows.len());
    assert!(outcome.rows.len() < config.threads.len());
    // Budget, one trial, and the live graph's setup: seconds, not the 50 s the round would take.
    assert!(elapsed < config.budget + Duration::from_secs(3), "{elapsed:?}");
}
