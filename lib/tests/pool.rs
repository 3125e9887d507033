//! The pool experiment's invariants: every arrival is accounted for in every variant and in
//! the histograms (drops recorded at the timeout, counted as censored), percentiles are
//! ordered, the capacity probe ran, bad configs are refused by name, the default regime
//! follows the article per CPU, and the findings claim only what the trials support. No
//! test compares pool sizes' speed.
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

use std::time::Duration;

use contention::harness::no_progress;
use contention::pool::schedstat::thread_run_delay_ns;
use contention::pool::{self, summarize, Config, Row, Variant};
use contention::RunError;

/// Small and fast: 400 requests/s for 0.3 s, half of them 40-80 ms misses, so a pool of
/// one thread (about 30 ms per request) must drop most of its queue after 30 ms.
fn tiny() -> Config {
    Config {
        variants: Variant::available(),
        pool_sizes: Some(vec![1, 6]),
        hit_rates: vec![0.5],
        cpu_work: Some(Duration::from_micros(100)),
        lock_hold: Duration::from_micros(10),
        db_connections: Some(2),
        rate_per_s: Some(400.0),
        window: Duration::from_millis(300),
        queue_timeout: Duration::from_millis(30),
        capacity_window: Duration::from_millis(300),
        capacity_clients: Some(8),
        trials: 1,
        probe_round_trips: 200,
        warmup: Duration::from_millis(10),
        ..Config::default()
    }
}

fn check_accounting(row: &Row) {
    assert!(row.arrived > 0, "{row:?}");
    assert_eq!(row.arrived, row.completed + row.dropped, "{row:?}");
    assert_eq!(row.histogram_count, row.arrived, "every arrival is in the histogram: {row:?}");
    assert_eq!(row.hits + row.misses, row.arrived, "{row:?}");
    assert!(row.completed_in_window <= row.completed, "{row:?}");
    assert!(row.p50_ms <= row.p99_ms && row.p99_ms <= row.p999_ms && row.p999_ms <= row.max_ms, "{row:?}");
    assert!(row.hit_p99_ms <= row.max_ms && row.miss_p99_ms <= row.max_ms, "{row:?}");
    // More than 1% recorded at the timeout puts the p99 at or above it: drops are in the percentiles.
    if row.dropped * 100 > row.arrived {
        assert!(row.p99_ms >= row.queue_timeout_ms * 0.999 && row.is_lower_bound(row.p99_ms), "{row:?}");
    }
    // Capacity is a count of completions over the probe's counted two thirds (0.2 s here).
    let completions = row.capacity_per_sec * 0.2;
    assert!(completions >= 0.0 && (completions - completions.round()).abs() < 1e-6, "{row:?}");
    assert!(row.switch_cost_ns > 0.0, "{row:?}");
    // The process's CPU time where the OS counts it; 0, the rows' unknown, where it does not.
    match contention::platform::process_times() {
        Ok(_) => assert!(row.cpu_used_ns > 0, "{row:?}"),
        Err(why) => {
            println!("no CPU time recorded: {why}");
            assert!(row.cpu_used_ns == 0 && row.cpu_share == 0.0, "{row:?}");
        }
    }
    assert!(row.lock_wait_ms >= 0.0 && row.db_wait_ms >= 0.0, "{row:?}");
    assert_eq!(row.run_delay_measured, thread_run_delay_ns().is_some(), "{row:?}");
    assert!(row.thread_stack_bytes > 0, "{row:?}");
    // At every sample the address space reserved holds the resident set, where the OS tells
    // both; 0, the rows' unknown, where it does not.
    match contention::platform::memory_in_use() {
        // Wine counts the working set from Linux's resident set, which holds Wine's own
        // mappings, and the address space from its Windows books: no bound between the two.
        Ok(_) if contention::platform::emulator().is_some() => assert!(row.peak_rss_bytes > 0, "{row:?}"),
        Ok(_) => assert!(row.reserved_bytes >= row.peak_rss_bytes && row.peak_rss_bytes > 0, "{row:?}"),
        Err(why) => {
            println!("no memory recorded: {why}");
            assert_eq!((row.peak_rss_bytes, row.reserved_bytes), (0, 0), "{row:?}");
        }
    }
}

#[test]
fn every_arrival_completes_or_is_censored_at_the_timeout_in_every_variant() {
    let config = tiny();
    let outcome = pool::run(&config, &mut no_progress).expect("pool run");
    assert!(!outcome.budget_exhausted);
    // Fixed at two sizes, then one split and (with the feature) one async case.
    assert_eq!(outcome.rows.len(), 2 + config.variants.len() - 1);
    for variant in Variant::available() {
        assert!(outcome.rows.iter().any(|row| row.variant == variant), "{variant:?} did not run");
    }
    outcome.rows.iter().for_each(check_accounting);
    // The one-thread pool's queue outgrows the timeout: the dropped path really ran.
    assert!(outcome.rows.iter().map(|row| row.dropped).sum::<u64>() > 0);
    // Every variant shares the database pool; split runs one miss thread per connection.
    assert!(outcome.rows.iter().all(|row| row.db_connections == 2));
}

#[test]
fn every_variant_serves_the_same_requests_in_a_trial() {
    let outcome = pool::run(&tiny(), &mut no_progress).expect("pool run");
    let arrived: Vec<(u64, u64)> = outcome.rows.iter().map(|row| (row.arrived, row.hits)).collect();
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
    rejected(Config { rate_per_s: None, rate_per_cpu_per_s: -1.0, ..tiny() }, "rate-per-cpu", "-1");
    rejected(Config { work_cpu_share: 0.0, ..tiny() }, "work-share", "0");
    rejected(Config { work_cpu_share: 1.5, ..tiny() }, "work-share", "1.5");
    rejected(Config { cpu_work: Some(Duration::ZERO), ..tiny() }, "cpu-work-ms", "0");
    rejected(Config { db_connections: Some(0), ..tiny() }, "db-connections", "0");
    rejected(Config { capacity_clients: Some(0), ..tiny() }, "capacity-clients", "0");
    rejected(Config { capacity_window: Duration::ZERO, ..tiny() }, "capacity-seconds", "0");
    rejected(Config { queue_timeout: Duration::ZERO, ..tiny() }, "queue-timeout-ms", "0");
    rejected(Config { lock_hold: Duration::from_secs(2), ..tiny() }, "lock-hold-us", "2000000");
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
fn the_default_load_follows_the_article_per_cpu_whatever_the_pool() {
    let config = Config::default();
    for cpus in [2, 8, 16] {
        // 1 180 requests/s on 8 cores: 147.5 per CPU.
        assert!((config.offered_rate_per_s(cpus) - 147.5 * cpus as f64).abs() < 1e-9);
        // The work takes 15% of the CPUs at that rate (about 1 ms per request).
        let busy = config.cpu_work_for(cpus).as_secs_f64() * config.offered_rate_per_s(cpus) / cpus as f64;
        assert!((busy - 0.15).abs() < 1e-6, "{busy}");
    }
    let sized = Config { pool_sizes: Some(vec![1, 4096]), ..Config::default() };
    assert_eq!(sized.offered_rate_per_s(2), config.offered_rate_per_s(2));
    assert_eq!(sized.cpu_work_for(2), config.cpu_work_for(2));
    // HikariCP's 10 connections on 8 cores, per CPU.
    assert_eq!(config.db_connections_for(8), 10);
    assert_eq!(config.db_connections_for(2), 3);
}

#[test]
fn derived_sweep_holds_the_fix_the_formula_and_the_incident() {
    let config = Config::default();
    // 2 CPUs x 0.8 x (1 + 6.18 ms / 1.017 ms) = 11.3; the article's inputs: 2 x 0.8 x 50 = 80.
    assert_eq!(config.formula_threads(2, 0.92), 11);
    assert_eq!(config.article_formula_threads(2), 80);
    assert_eq!(config.article_formula_threads(8), 320);
    assert_eq!(config.sweep(2), vec![3, 4, 8, 11, 16, 80]);
    assert_eq!(Config::quick().sweep(2), vec![3, 11, 16, 80]);
    assert_eq!(Config::quick().sweep(8), vec![9, 45, 64, 320]);
    assert_eq!(Config { pool_sizes: Some(vec![5, 7]), ..config }.sweep(2), vec![5, 7]);
}

fn synthetic(pool_threads: u64, trial: u64, p99_ms: f64) -> Row {
    Row {
        variant: Variant::Fixed,
        hit_rate: 0.92,
        pool_threads,
        db_connections: 3,
        trial,
        cpus: 2,
        offered_rate_per_s: 295.0,
        target_utilization: 0.8,
        formula_threads: 11,
        article_formula_threads: 80,
        mean_wait_ms: 6.18,
        cpu_work_ns: 1_017_000,
        lock_hold_ns: 50_000,
        queue_timeout_ms: 1000.0,
        arrived: 100,
        hits: 92,
        misses: 8,
        completed: 100,
        completed_in_window: 100,
        dropped: 0,
        window_ns: 1_000_000_000,
        elapsed_ns: 1_000_000_000,
        completed_per_s: 100.0,
        capacity_per_sec: 600.0,
        mean_ms: 8.0,
        p50_ms: 1.0,
        p99_ms,
        p999_ms: p99_ms,
        max_ms: p99_ms,
        hit_p99_ms: 2.0,
        miss_p99_ms: p99_ms,
        histogram_count: 100,
        lock_wait_ms: 0.01,
        db_wait_ms: 1.0,
        run_delay_ms: 0.1,
        run_delay_measured: true,
        voluntary_switches: 1000,
        involuntary_switches: 10,
        cpu_used_ns: 1_000_000_000,
        cpu_share: 0.5,
        peak_queue: 3,
        peak_db_queue: 0,
        peak_rss_bytes: 1 << 20,
        reserved_bytes: 8 << 20,
        thread_stack_bytes: 2 << 20,
        switch_cost_ns: 3000.0,
        switch_probe_pinned: true,
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
    assert!((summaries[0].switches_per_request.median - 10.1).abs() < 1e-9);
}

#[test]
fn a_p99_at_the_timeout_with_drops_is_called_a_lower_bound() {
    let rows: Vec<Row> = (0..3)
        .flat_map(|t| {
            let starved = Row { dropped: 5, completed: 95, ..synthetic(3, t, 1000.0) };
            [starved, synthetic(80, t, 90.0)]
        })
        .collect();
    let summaries = summarize(&rows);
    assert!(summaries[0].p99_lower_bound && !summaries[1].p99_lower_bound);
    let sentences = pool::findings(&summaries);
    assert!(sentences.iter().any(|s| s.contains("at least 1.00 s")), "{sentences:#?}");
    let unmeasured: Vec<Row> = rows.iter().map(|row| Row { run_delay_measured: false, ..row.clone() }).collect();
    let sentences = pool::findings(&summarize(&unmeasured));
    assert!(sentences.iter().any(|s| s.contains("Run-queue delay is unavailable")), "{sentences:#?}");
}
