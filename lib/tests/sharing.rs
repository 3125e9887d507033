//! The four-way control: every case's total is exact, rows are complete, bad configs are
//! refused by name, and the sentences follow the intervals (never the machine's speed).

use std::time::Duration;

use contention::harness::no_progress;
use contention::perf::CounterReading;
use contention::sharing::{self, article_headline, finding, summarize, Case, Config, Row};
use contention::verdict::{Fitness, Verdict};
use contention::{fault, RunError};

fn small(threads: usize) -> Config {
    Config {
        threads,
        headline_threads: None,
        total_increments: 6_000,
        padding_bytes: 128,
        trials: 2,
        warmup: Duration::ZERO,
        budget: Duration::from_secs(60),
    }
}

#[test]
fn every_case_verifies_its_total_at_one_two_and_three_threads() {
    for threads in 1..=3 {
        let outcome = sharing::run(&small(threads), &mut no_progress).unwrap();
        assert!(!outcome.budget_exhausted);
        assert_eq!(outcome.rows.len(), Case::ALL.len() * 2, "{threads} threads");
        let total = outcome.rows[0].total_increments;
        assert_eq!(total % 6_000, 0, "calibration multiplies the total: {total}");
        for row in &outcome.rows {
            assert_eq!(row.total_increments, total, "every case shares the total");
            assert_eq!(row.increments_per_thread * row.threads, total, "{:?} at {threads} threads", row.case);
            let expected_threads = if row.case == Case::Single { 1 } else { threads as u64 };
            assert_eq!(row.threads, expected_threads);
        }
        for case in Case::ALL {
            assert_eq!(outcome.rows.iter().filter(|row| row.case == case).count(), 2);
        }
    }
}

#[test]
fn a_wrong_sum_is_a_verification_error() {
    let error = fault::with_extra_increments(1, || sharing::run(&small(2), &mut no_progress)).unwrap_err();
    match error {
        RunError::Verification { experiment, expected, actual, .. } => {
            assert_eq!((experiment, actual), ("sharing", expected + 1));
        }
        other => panic!("expected a verification error, got {other:?}"),
    }
}

#[test]
fn counters_sit_eight_bytes_or_one_padding_apart() {
    let config = Config { padding_bytes: 256, ..small(2) };
    let rows = sharing::run(&config, &mut no_progress).unwrap().rows;
    let distance = |case| rows.iter().find(|row: &&Row| row.case == case).unwrap().distance_bytes;
    assert_eq!(distance(Case::FalseSharing), 8);
    assert_eq!(distance(Case::NoSharing), 256);
    assert_eq!(distance(Case::TrueSharing), 0);
    assert_eq!(distance(Case::Single), 0);
}

#[test]
fn bad_configs_are_refused_naming_the_value_and_the_allowed_range() {
    let refused = |config: Config| config.validate().unwrap_err().to_string();
    assert_eq!(refused(Config { threads: 0, ..small(1) }), "invalid threads = 0: 1 to 256 threads");
    let share = "so every thread does the same share";
    assert_eq!(
        refused(Config { total_increments: 7, ..small(2) }),
        format!("invalid total = 7: a positive multiple of threads = 2 up to 6000000000, {share} (e.g. 6 or 8)")
    );
    assert_eq!(
        refused(Config { total_increments: 0, ..small(2) }),
        format!("invalid total = 0: a positive multiple of threads = 2 up to 6000000000, {share} (e.g. 2)")
    );
    assert_eq!(
        refused(Config { total_increments: u64::MAX, ..small(2) }),
        format!(
            "invalid total = 18446744073709551615: a positive multiple of threads = 2 up to 6000000000, {share} \
             (e.g. 6000000000)"
        )
    );
    for padding in [0, 4, 96, 8192] {
        assert_eq!(
            refused(Config { padding_bytes: padding, ..small(2) }),
            format!("invalid padding = {padding}: a power of two from 8 to 4096 bytes (e.g. 64 or 128)")
        );
    }
    assert_eq!(refused(Config { trials: 0, ..small(2) }), "invalid trials = 0: 1 to 10000 trials per case");
    assert!(Config { padding_bytes: 8, ..small(2) }.validate().is_ok());
    assert!(Config::default().validate().is_ok());
    assert!(Config::quick().validate().is_ok());
}

#[test]
fn run_refuses_a_bad_config_before_measuring() {
    let error = sharing::run(&Config { total_increments: 5, ..small(3) }, &mut no_progress).unwrap_err();
    assert!(matches!(error, contention::RunError::Config(_)));
}

/// Rows with chosen times: `trials` per case, `spread` around each case's centre.
fn rows_with_times(times_ms: [(Case, f64); 4], spread: f64) -> Vec<Row> {
    let mut rows = Vec::new();
    for (case, centre) in times_ms {
        for (trial, offset) in [-spread, 0.0, spread, -spread / 2.0, spread / 2.0].into_iter().enumerate() {
            rows.push(row(case, trial, ((centre + offset) * 1e6) as u64));
        }
    }
    rows
}

fn row(case: Case, trial: usize, elapsed_ns: u64) -> Row {
    let threads = if case == Case::Single { 1 } else { 2 };
    Row {
        case,
        threads,
        trial: trial as u64,
        trials_planned: 5,
        total_increments: 20_000_000,
        increments_per_thread: 20_000_000 / threads,
        distance_bytes: match case {
            Case::FalseSharing => 8,
            Case::NoSharing => 128,
            _ => 0,
        },
        elapsed_ns,
        ns_per_increment: elapsed_ns as f64 / (20_000_000 / threads) as f64,
        pinned: true,
        cpus: if threads == 1 { "0".into() } else { "0,1".into() },
        cache_misses: CounterReading::Unavailable,
        snoop_hit_modified: CounterReading::Unavailable,
    }
}

#[test]
fn too_few_trials_claim_nothing_and_the_headline_says_so() {
    let all = rows_with_times(
        [(Case::Single, 35.0), (Case::TrueSharing, 74.0), (Case::FalseSharing, 70.0), (Case::NoSharing, 18.0)],
        1.0,
    );
    for trials in [1, 2] {
        let cut: Vec<Row> = all.iter().filter(|row| row.trial < trials).cloned().collect();
        let summaries = summarize(&cut);
        let text = finding(&summaries, None);
        assert!(text.contains(&format!("too few trials (n={trials}")) && !text.contains("took"), "{text}");
        let headline = article_headline(&summaries).unwrap();
        assert_eq!(headline.measured, None);
        assert!(headline.measured_text.starts_with(&format!("too few trials (n={trials}")));
    }
    let nine: Vec<Row> = Case::ALL
        .iter()
        .flat_map(|&case| (0..9).map(move |trial| row(case, trial, 10_000_000 + trial as u64)))
        .collect();
    assert!(!finding(&summarize(&nine), None).contains("too few trials"));
}

#[test]
fn the_article_s_headline_is_a_row_of_the_control() {
    let rows = rows_with_times(
        [(Case::Single, 35.0), (Case::TrueSharing, 74.0), (Case::FalseSharing, 70.0), (Case::NoSharing, 18.0)],
        1.0,
    );
    let headline = article_headline(&summarize(&rows)).unwrap();
    assert_eq!(headline.label, "one thread vs 2 threads on 2 adjacent shards");
    assert_eq!(headline.article, "13.7x at 8 threads (166 ms vs 2.264 s)");
    let ratio = headline.measured.unwrap();
    assert!((ratio.value - 70.0 / 35.0).abs() < 1e-9);
    assert!(headline.measured_text.starts_with("2.00x (interval"), "{}", headline.measured_text);
    assert!(article_headline(&[]).is_none());
}

#[test]
fn separated_intervals_support_the_article_s_claims() {
    let rows = rows_with_times(
        [(Case::Single, 35.0), (Case::TrueSharing, 74.0), (Case::FalseSharing, 70.0), (Case::NoSharing, 18.0)],
        1.0,
    );
    let summaries = summarize(&rows);
    assert_eq!(summaries.iter().map(|s| s.case).collect::<Vec<_>>(), Case::ALL);
    let over_none = sharing::false_sharing_over(&summaries, Case::NoSharing).unwrap();
    assert!((over_none.value - 70.0 / 18.0).abs() < 1e-9);
    let text = finding(&summaries, None);
    assert!(text.contains("took 3.89x"), "{text}");
    assert!(text.contains("the difference is false sharing"), "{text}");
    assert!(text.contains("False sharing took 0.95x"), "{text}");
    assert!(text.contains("adding threads made it slower"), "{text}");
}

#[test]
fn overlapping_intervals_claim_no_effect_and_give_the_verdict_inline() {
    let rows = rows_with_times(
        [(Case::Single, 20.0), (Case::TrueSharing, 20.5), (Case::FalseSharing, 20.0), (Case::NoSharing, 19.5)],
        2.0,
    );
    let text = finding(&summarize(&rows), None);
    assert!(text.starts_with("No false-sharing penalty was observed on this machine"), "{text}");
    let fit = Verdict { fitness: Fitness::Fit, reasons: Vec::new(), unchecked: Vec::new() };
    let inline = finding(&summarize(&rows), Some(&fit));
    assert!(inline.contains("stands in the way (verdict: fit), so here the effect is absent or smaller"), "{inline}");
    assert!(text.contains("could not be told apart from true sharing"), "{text}");
    assert!(text.contains("not measurably faster or slower than one thread"), "{text}");
}

#[test]
fn missing_data_says_so() {
    assert_eq!(finding(&[], None), "The four-way control was not measured.");
    let one_thread = sharing::run(&small(1), &mut no_progress).unwrap().rows;
    assert!(finding(&summarize(&one_thread), None).starts_with("With one thread nothing is shared"));
}

#[test]
fn rows_name_cases_as_the_lib_does() {
    for case in Case::ALL {
        assert_eq!(serde_json::to_value(case).unwrap(), serde_json::json!(case.name()));
    }
}

#[test]
fn with_threads_keeps_the_total_rounded_down_to_an_even_split() {
    let config = Config::default().with_threads(3);
    assert_eq!((config.threads, config.total_increments), (3, 19_999_998));
    assert!(config.validate().is_ok());
    assert_eq!(Config::default().with_threads(4).total_increments, 20_000_000);
    let refused = Config::default().with_threads(0).validate().unwrap_err();
    assert_eq!(refused.field, "threads");
}

/// Two teams share the one total and the one single-thread case; each team's rows verify,
/// and the control's summaries are its first team's.
#[test]
fn a_second_team_runs_the_three_team_cases_beside_the_one_single_thread() {
    let config = Config { headline_threads: Some(3), ..small(2) };
    assert_eq!(config.teams(), [2, 3]);
    let rows = sharing::run(&config, &mut no_progress).unwrap().rows;
    assert_eq!(rows.len(), 2 * (1 + 3 + 3), "one single case, three per team, two trials each");
    assert_eq!(sharing::teams(&rows), [2, 3]);
    for row in &rows {
        assert_eq!(row.increments_per_thread * row.threads, row.total_increments, "{:?}", row.case);
    }
    let control = sharing::summarize(&rows);
    assert!(control.iter().all(|case| case.threads == if case.case == Case::Single { 1 } else { 2 }));
    let headline = sharing::summarize_team(&rows, Some(3));
    assert_eq!(headline.iter().map(|case| case.threads).collect::<Vec<_>>(), [1, 3, 3, 3]);
    assert_eq!(Config { total_increments: 6_001, ..config.clone() }.with_threads(4).teams(), [4]);
}
