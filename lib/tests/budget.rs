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

/// Issue 35, item 4: a flag that makes one trial long (`--wait-ms 1000`: every miss waits a
/// second) used to run its trials whole, 44 s against a 12 s budget. A trial is now cut
/// where the budget ends, and the first round shares what is left among the cells not yet
/// measured, so both variants get a row and the run ends about one remote call late. The
/// budget is not a whole number of calls: a first variant's share of exactly one call would
/// make whether its workers start a second one a matter of microseconds.
#[test]
fn a_second_long_remote_call_ends_the_locks_at_their_budget() {
    use contention::locks::{self, Case, Config, Primitive};
    let config = Config {
        cases: vec![Case::LockAcrossWait],
        wait_ms: 1000.0,
        warmup: Duration::ZERO,
        budget: Duration::from_millis(2500),
        ..Config::quick()
    };
    let started = Instant::now();
    let outcome = locks::run(&config, &mut no_progress).expect("the locks run");
    let elapsed = started.elapsed();
    assert!(elapsed < config.budget + Duration::from_millis(2500), "{elapsed:?}");
    let asked = config.requests_per_thread * config.wait_threads as u64;
    for primitive in [Primitive::EntryUnderLock, Primitive::ComputeOutsideLock] {
        let row = outcome.rows.iter().find(|row| row.primitive == primitive);
        let seen: Vec<_> = outcome.rows.iter().map(|r| (r.primitive, r.ops, r.elapsed_ns)).collect();
        let row = row.unwrap_or_else(|| panic!("no {primitive:?} row: {seen:?}"));
        assert!(row.ops >= 1 && row.ops < asked, "{primitive:?}: {} of {asked}", row.ops);
        assert_eq!(row.hits + row.remote_calls, row.ops, "{primitive:?}: every request counted is answered");
    }
}

/// A list of thread counts makes many cells; the budget is checked inside the first round
/// too (sizing included), not only after it.
#[test]
fn many_lock_cells_stop_at_the_budget_in_the_first_round() {
    use contention::locks::{self, Case, Config};
    let config = Config {
        cases: vec![Case::Contended],
        threads: (2..=40).collect(),
        warmup: Duration::ZERO,
        budget: Duration::from_millis(300),
        ..Config::quick()
    };
    let started = Instant::now();
    let outcome = locks::run(&config, &mut no_progress).expect("the locks run");
    let elapsed = started.elapsed();
    assert!(outcome.budget_exhausted && !outcome.rows.is_empty());
    assert!(outcome.rows.len() < config.threads.len(), "the first round was cut: {} rows", outcome.rows.len());
    assert!(elapsed < config.budget + Duration::from_secs(1), "{elapsed:?}");
}
