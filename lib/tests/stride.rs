//! The stride sweep with tiny configs: rows complete, a wrong sum an error, bad configs
//! rejected, and findings that claim only what enough trials support.
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

use std::time::Duration;

use contention::harness::{no_progress, ProgressEvent};
use contention::perf::CounterReading;
use contention::stride::{self, knee, summarize, Config, Knee, Row};
use contention::{fault, RunError};

fn tiny(threads: usize) -> Config {
    Config {
        threads,
        clean_threads: None,
        strides_bytes: vec![8, 64, 128],
        iters_per_thread: 2_000,
        trials: 3,
        warmup: Duration::ZERO,
        budget: Duration::from_secs(60),
    }
}

#[test]
fn every_stride_has_every_trial_verified() {
    for threads in [1, 2, 3] {
        let outcome = stride::run(&tiny(threads), &mut no_progress).expect("tiny sweep runs");
        assert!(!outcome.budget_exhausted);
        assert_eq!(outcome.rows.len(), 3 * 3, "3 strides x 3 trials at {threads} threads");
        for stride in [8, 64, 128] {
            let trials: Vec<u64> =
                outcome.rows.iter().filter(|row| row.stride_bytes == stride).map(|row| row.trial).collect();
            assert_eq!(trials, vec![0, 1, 2], "stride {stride}");
        }
        assert!(outcome.rows.iter().all(|row| row.threads == threads as u64 && row.trials_planned == 3));
        for row in &outcome.rows {
            assert!(row.iters_per_thread >= 2_000, "calibration only raises the adds: {row:?}");
            assert_eq!(row.iters_per_thread % 2_000, 0, "calibration multiplies the adds: {row:?}");
            let same_stride = outcome.rows.iter().filter(|r| r.stride_bytes == row.stride_bytes);
            assert!(same_stride.clone().all(|r| r.iters_per_thread == row.iters_per_thread), "one size per stride");
        }
        // Each worker's CPU is recorded where the OS says which CPU a thread runs on; elsewhere
        // none is, and the row says the team was not pinned.
        match contention::platform::current_cpu() {
            Ok(_) => {
                for row in &outcome.rows {
                    assert_eq!(row.cpus.split(',').count(), threads, "one CPU per worker recorded: {:?}", row.cpus);
                }
            }
            Err(why) => {
                println!("no CPU recorded per worker: {why}");
                let unpinnable = contention::platform::pinning_unavailable().is_some();
                let honest = |row: &Row| row.cpus.is_empty() && !(unpinnable && row.pinned);
                assert!(outcome.rows.iter().all(honest), "{:?}", outcome.rows);
            }
        }
    }
}

#[test]
fn a_wrong_sum_is_a_verification_error_naming_the_case() {
    let error = fault::with_extra_increments(3, || stride::run(&tiny(2), &mut no_progress)).unwrap_err();
    match error {
        RunError::Verification { experiment, case, expected, actual, .. } => {
            assert_eq!((experiment, actual), ("stride", expected + 3));
            assert!(case.starts_with("stride "), "{case}");
        }
        other => panic!("expected a verification error, got {other:?}"),
    }
}

#[test]
fn progress_reports_every_trial_in_order() {
    let mut events: Vec<ProgressEvent> = Vec::new();
    stride::run(&tiny(2), &mut |event| events.push(event.clone())).unwrap();
    assert_eq!(events.len(), 9);
    assert!(events.iter().enumerate().all(|(index, event)| event.done == index + 1 && event.total == 9));
    assert_eq!(events[0].label, "stride 8 B, trial 1/3");
}

#[test]
fn an_exhausted_budget_stops_before_the_next_trial() {
    let config = Config { budget: Duration::ZERO, ..tiny(1) };
    let outcome = stride::run(&config, &mut no_progress).unwrap();
    assert!(outcome.budget_exhausted);
    // The budget is checked before every trial, inside rounds too (issue 25): the first
    // trial always runs, nothing after a spent budget.
    assert_eq!(outcome.rows.len(), 1, "one trial, then the budget stops the round");
}

#[test]
fn bad_configs_name_the_field_and_the_allowed_values() {
    let cases: Vec<(Config, &str)> = vec![
        (Config { threads: 0, ..tiny(1) }, "invalid threads = 0: 1 to 256 threads"),
        (Config { threads: 257, ..tiny(1) }, "invalid threads = 257: 1 to 256 threads"),
        (
            Config { strides_bytes: vec![8, 12], ..tiny(1) },
            "invalid strides = 12: multiples of 8 bytes from 8 to 1048576 (with threads = 1, threads x stride must fit \
             the 1048576-byte arena)",
        ),
        (
            Config { strides_bytes: vec![2_097_152], ..tiny(2) },
            "invalid strides = 2097152: multiples of 8 bytes from 8 to 524288 (with threads = 2, threads x stride \
             must fit the 1048576-byte arena)",
        ),
        (
            Config { strides_bytes: vec![8; 33], ..tiny(1) },
            "invalid strides = 33 strides: at most 32 strides (each gets its own arena of up to 1048576 bytes)",
        ),
        (
            Config { iters_per_thread: 0, ..tiny(2) },
            "invalid iters = 0: 1 to 3000000000 increments per thread (threads = 2; a trial does at most \
             6000000000 in all)",
        ),
        (Config { trials: 0, ..tiny(1) }, "invalid trials = 0: 1 to 10000 trials per case"),
        (Config { trials: usize::MAX, ..tiny(1) }, "invalid trials = 18446744073709551615: 1 to 10000 trials per case"),
        (Config { budget: Duration::MAX, ..tiny(1) }, "invalid budget = 18446744073709552000: 0 to 86400 seconds"),
    ];
    for (config, message) in cases {
        assert_eq!(config.validate().unwrap_err().to_string(), message);
        assert!(stride::run(&config, &mut no_progress).is_err());
    }
}

fn rows<const N: usize>(times_ms: &[(u64, [f64; N])]) -> Vec<Row> {
    times_ms
        .iter()
        .flat_map(|(stride, times)| {
            times.iter().enumerate().map(move |(trial, ms)| Row {
                stride_bytes: *stride,
                threads: 2,
                trial: trial as u64,
                trials_planned: 5,
                iters_per_thread: 1_000_000,
                elapsed_ns: (ms * 1e6) as u64,
                ns_per_op: ms * 1e6 / 1e6,
                pinned: true,
                cpus: "0,1".into(),
                cache_misses: CounterReading::Unavailable,
                snoop_hit_modified: CounterReading::Unavailable,
            })
        })
        .collect()
}

#[test]
fn knee_is_the_smallest_stride_near_the_best() {
    let summaries = summarize(&rows(&[
        (8, [40.0, 41.0, 42.0, 43.0, 44.0]),
        (32, [20.0, 21.0, 22.0, 23.0, 24.0]),
        (64, [10.5, 10.6, 10.7, 10.8, 10.9]),
        (128, [10.0, 10.1, 10.2, 10.3, 10.4]),
    ]));
    assert_eq!(summaries.iter().map(|s| s.stride_bytes).collect::<Vec<_>>(), vec![8, 32, 64, 128]);
    assert_eq!(summaries[3].relative_to_fastest, 1.0);
    assert!((summaries[0].relative_to_fastest - 42.0 / 10.2).abs() < 1e-9);
    match knee(&summaries) {
        Some(Knee::At { stride_bytes, penalty, smallest_stride_bytes }) => {
            assert_eq!((stride_bytes, smallest_stride_bytes), (64, 8));
            assert!(penalty.clearly_above_one());
        }
        other => panic!("expected a knee at 64, got {other:?}"),
    }
    assert!(stride::finding(&summaries, None).contains("disappears at 64-byte strides"));
}

#[test]
fn overlapping_intervals_mean_no_knee() {
    let summaries = summarize(&rows(&[(8, [10.0, 12.0, 11.0, 10.5, 11.5]), (64, [10.2, 10.8, 11.1, 10.4, 10.9])]));
    assert!(matches!(knee(&summaries), Some(Knee::NoPenalty { .. })));
    assert!(stride::finding(&summaries, None).starts_with("No false-sharing penalty was observed on this machine"));
    assert_eq!(knee(&[]), None);
}

#[test]
fn too_few_trials_claim_nothing() {
    for (trials, expected) in [(1, "n=1"), (2, "n=2")] {
        let times: Vec<(u64, [f64; 2])> = vec![(8, [40.0, 41.0]), (128, [10.0, 10.1])];
        let cut: Vec<Row> = rows(&times).into_iter().filter(|row| row.trial < trials).collect();
        let summaries = summarize(&cut);
        assert!(summaries.iter().all(|s| s.evidence.budget_cut && !s.evidence.sufficient));
        assert_eq!(knee(&summaries), Some(Knee::TooFewTrials { samples: trials as usize }));
        let text = stride::finding(&summaries, None);
        assert!(text.contains(&format!("too few trials ({expected}")) && !text.contains("disappears"), "{text}");
    }
    let nine = rows(&[(8, [40.0; 9]), (128, [10.0; 9])]);
    let summaries = summarize(&nine);
    assert!(summaries.iter().all(|s| s.evidence.sufficient));
    assert!(!stride::finding(&summaries, None).contains("too few trials"));
}

#[test]
fn the_article_s_times_convert_to_ns_per_add_like_rows() {
    // 20 ms for 10 M adds per goroutine: 2 ns per add.
    assert_eq!(stride::article_ns_per_add(20.0), 2.0);
}

/// A second sweep at the article's clean thread count: rows at both counts, every trial
/// verified; the summaries are the sweep at the most threads, and the other gets its sentence.
#[test]
fn a_second_sweep_runs_at_its_own_thread_count() {
    let config = Config { clean_threads: Some(1), ..tiny(2) };
    assert_eq!(config.teams(), [2, 1]);
    let rows = stride::run(&config, &mut no_progress).unwrap().rows;
    assert_eq!(rows.len(), 2 * 3 * 3, "two sweeps of three strides, three trials each");
    assert_eq!(stride::teams(&rows), [1, 2]);
    assert!(stride::summarize(&rows).iter().all(|summary| summary.threads == 2 && summary.ns_per_op.samples == 3));
    assert!(stride::summarize_team(&rows, 1).iter().all(|summary| summary.threads == 1));
    let findings = stride::fewer_threads_findings(&rows);
    assert_eq!(findings.len(), 1);
    assert!(findings[0].starts_with("With 1 threads: "), "{}", findings[0]);
}
