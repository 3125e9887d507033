//! The pool experiment's invariants: every request is accounted for in every variant, the
//! latency histogram holds every completion, bad configs are refused by name, and the
//! findings claim only what the trials support. No test compares pool sizes' speed.

use std::time::Duration;

use contention::harness::no_progress;
use contention::pool::{self, summarize, Config, Row, Variant};
use contention::RunError;

/// Small and fast: 400 requests/s for 0.3 s, half of them 40-80 ms misses, so a pool of
/// one thread (about 30 ms per request) must drop most of its queue after 30 ms.
fn tiny() -> Config {
    Config {
        variants: Variant::available(),
        pool_sizes: Some(vec![1, 6]),
        hit_rates: vec![0.5],
        cpu_work: Duration::from_micros(100),
        rate_per_s: Some(400.0),
        window: Duration::from_millis(300),
        queue_timeout: Duration::from_millis(30),
        trials: 1,
        probe_round_trips: 200,
        warmup: Duration::from_millis(10),
        ..Config::default()
    }
}

#[test]
fn every_arrived_request_completes_or_is_counted_as_dropped_in_every_variant() {
    let config = tiny();
    let outcome = pool::run(&config, &mut no_progress).expect("pool run");
    assert!(!outcome.budget_exhausted);
    // Fixed at two sizes, then one split and (with the feature) one async case.
    assert_eq!(outcome.rows.len(), 2 + config.variants.len() - 1);
    for variant in Variant::available() {
        assert!(outcome.rows.iter().any(|row| row.variant == variant), "{variant:?} did not run");
    }
    for row in &outcome.rows {
        assert!(row.arrived > 0, "{row:?}");
        assert_eq!(row.arrived, row.completed + row.dropped, "{row:?}");
        assert_eq!(row.histogram_count, row.completed, "{row:?}");
        assert!(row.completed_in_window <= row.completed, "{row:?}");
        assert!(row.verified);
        assert!(row.p50_ms <= row.p99_ms && row.p99_ms <= row.p999_ms && row.p999_ms <= row.max_ms, "{row:?}");
        assert!(row.cpu_used_ns > 0 && row.switch_cost_ns > 0.0, "{row:?}");
    }
    // The one-thread pool's queue outgrows the timeout: the dropped path really ran.
    assert!(outcome.rows.iter().map(|row| row.dropped).sum::<u64>() > 0);
}

#[test]
fn every_variant_serves_the_same_requests_in_a_trial() {
    let outcome = pool::run(&tiny(), &mut no_progress).expect("pool run");
    let arrived: Vec<u64> = outcome.rows.iter().map(|row| row.arrived).collect();
    assert!(arrived.windows(2).all(|pair| pair[0] == pair[1]), "{arrived:?}");
}

fn rejected(config: Config, field: &str, value: &str) {
    let error = config.validate().expect_err("config should be rejected");
    assert_eq!(error.field, field);
    assert_eq!(error.value, value);
    assert!(!error.allowed.is_empty());
    assert!(matches!(pool::run(&config, &mut no_progress), Err(RunError::Config(_))));
}

#[test]
fn bad_inputs_are_rejected_naming_the_value() {
    rejected(Config { hit_rates: vec![1.5], ..tiny() }, "hit", "1.5");
    rejected(Config { hit_rates: vec![-0.1], ..tiny() }, "hit", "-0.1");
    rejected(Config { hit_rates: vec![], ..tiny() }, "hit", "(none)");
    rejected(Config { rate_per_s: Some(0.0), ..tiny() }, "rate", "0");
    rejected(Config { rate_per_s: Some(f64::NAN), ..tiny() }, "rate", "NaN");
    rejected(Config { pool_sizes: Some(vec![4, 0]), ..tiny() }, "pool-sizes", "0");
    rejected(Config { pool_sizes: Some(vec![]), ..tiny() }, "pool-sizes", "(none)");
    rejected(Config { window: Duration::ZERO, ..tiny() }, "seconds", "0");
    rejected(Config { hit_wait_ms: [2.0, 1.0], ..tiny() }, "hit-wait-ms", "2,1");
    rejected(Config { miss_wait_ms: [80.0, 40.0], ..tiny() }, "miss-wait-ms", "80,40");
    rejected(Config { variants: vec![], ..tiny() }, "variant", "(none)");
    rejected(Config { trials: 0, ..tiny() }, "trials", "0");
}

#[test]
fn async_is_available_exactly_with_the_feature() {
    assert_eq!(Variant::available().contains(&Variant::Async), cfg!(feature = "async"));
    assert!(Config::default().variants.iter().all(|v| Variant::available().contains(v)));
}

#[test]
fn valid_edges_are_accepted() {
    for hit in [0.0, 1.0] {
        Config { hit_rates: vec![hit], ..tiny() }.validate().expect("hit rates 0 and 1 are probabilities");
    }
    Config { hit_wait_ms: [1.0, 1.0], ..tiny() }.validate().expect("a one-point range");
    Config::default().validate().expect("default config");
    Config::quick().validate().expect("quick config");
}

#[test]
fn derived_sweep_runs_from_cores_plus_one_past_twice_the_formula() {
    let config = Config::default();
    let formula = config.formula_threads(2, 0.92);
    // 2 CPUs x 0.8 x (1 + 6.18 ms / 0.5 ms) = 21.376
    assert_eq!(formula, 21);
    let sweep = config.sweep(2);
    assert_eq!(sweep, vec![3, 4, 8, 16, 21, 42, 80]);
    assert_eq!(Config::quick().sweep(2), vec![3, 16, 21, 42, 80]);
    assert_eq!(Config { pool_sizes: Some(vec![5, 7]), ..config }.sweep(2), vec![5, 7]);
}

fn synthetic(pool_threads: u64, trial: u64, p99_ms: f64) -> Row {
    Row {
        variant: Variant::Fixed,
        hit_rate: 0.92,
        pool_threads,
        db_connections: 0,
        trial,
        cpus: 2,
        offered_rate_per_s: 3200.0,
        formula_threads: 21,
        mean_wait_ms: 6.18,
        cpu_work_ns: 500_000,
        arrived: 100,
        completed: 100,
        completed_in_window: 100,
        dropped: 0,
        window_ns: 1_000_000_000,
        elapsed_ns: 1_000_000_000,
        completed_per_s: 100.0,
        p50_ms: 1.0,
        p99_ms,
        p999_ms: p99_ms,
        max_ms: p99_ms,
        histogram_count: 100,
        voluntary_switches: 1000,
        involuntary_switches: 10,
        cpu_used_ns: 1_000_000_000,
        cpu_share: 0.5,
        peak_queue: 3,
        peak_db_queue: 0,
        peak_rss_bytes: 1 << 20,
        switch_cost_ns: 3000.0,
        switch_probe_pinned: true,
        verified: true,
    }
}

#[test]
fn findings_claim_a_ratio_only_when_intervals_separate() {
    let separated: Vec<Row> =
        (0..3).flat_map(|t| [synthetic(16, t, 80.0 + t as f64), synthetic(80, t, 300.0 + t as f64)]).collect();
    let headline = pool::finding(&summarize(&separated));
    assert!(headline.contains("p99 at N=80") && headline.contains("times p99 at N=16"), "{headline}");
    let overlapping: Vec<Row> =
        (0..3).flat_map(|t| [synthetic(16, t, 80.0 + 30.0 * t as f64), synthetic(80, t, 90.0 + t as f64)]).collect();
    let headline = pool::finding(&summarize(&overlapping));
    assert!(headline.contains("could not be told apart"), "{headline}");
    let too_few: Vec<Row> = [synthetic(16, 0, 80.0), synthetic(80, 0, 300.0)].to_vec();
    assert!(pool::finding(&summarize(&too_few)).contains("too few"));
}

#[test]
fn summaries_group_trials_by_case_in_sweep_order() {
    let rows: Vec<Row> = (0..3).flat_map(|t| [synthetic(80, t, 9.0), synthetic(16, t, 8.0)]).collect();
    let summaries = summarize(&rows);
    let sizes: Vec<u64> = summaries.iter().map(|s| s.key.pool_threads).collect();
    assert_eq!(sizes, vec![16, 80]);
    assert!(summaries.iter().all(|s| s.trials == 3));
    // 1010 switches/s x 3 us = 0.00303 CPUs.
    assert!((summaries[0].switching_cpus - 0.00303).abs() < 1e-9);
}
