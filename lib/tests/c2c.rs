//! The core-to-core latency matrix: configs checked, one cell per requested pair with every
//! sample, summaries and the finding computed from the rows. No latency value is asserted.
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

use contention::c2c::{finding, pairs, run, summarize, typical_cas_one_way_ns, typical_one_way_ns, Config, Row};
use contention::harness::no_progress;

/// Why no CPU can be named here, where the OS names none a thread may be pinned to (macOS,
/// the portable fallback), printed so a run says which path it checked.
fn no_cpu_ids_here() -> Option<&'static str> {
    let why = contention::machine::cpu_ids_unnamed()?;
    println!("this build names no CPU ids ({why}): checking that listed CPUs are refused with why");
    Some(why)
}

#[test]
fn unknown_duplicate_and_lonely_cpus_are_refused_by_name() {
    if let Some(why) = no_cpu_ids_here() {
        for cpus in [vec![0, 100_000], vec![0, 0], vec![0]] {
            let error = Config { cpus, ..Config::quick() }.validate().unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("invalid cpus = 0: a logical CPU this process may run on; none is named here: {why}")
            );
        }
        assert_eq!(Config { samples_per_pair: 0, ..Config::quick() }.validate().unwrap_err().field, "samples");
        return;
    }
    let bad = Config { cpus: vec![0, 100_000], ..Config::quick() };
    let error = bad.validate().unwrap_err();
    assert_eq!((error.field, error.value.as_str()), ("cpus", "100000"));
    assert!(error.allowed.starts_with("a logical CPU this process may run on: 0"), "{error}");
    let twice = Config { cpus: vec![0, 0], ..Config::quick() };
    assert_eq!(twice.validate().unwrap_err().allowed, "each CPU listed once");
    let lonely = Config { cpus: vec![0], ..Config::quick() };
    assert!(lonely.validate().unwrap_err().allowed.starts_with("at least two CPUs"));
    let no_samples = Config { samples_per_pair: 0, ..Config::quick() };
    assert_eq!(no_samples.validate().unwrap_err().field, "samples");
}

#[test]
fn samples_and_round_trips_are_bounded_by_rows_and_time() {
    let huge = Config { cpus: vec![], samples_per_pair: usize::MAX, ..Config::quick() };
    let error = huge.validate().unwrap_err();
    assert_eq!((error.field, error.value.as_str()), ("samples", "18446744073709551615"));
    assert!(error.allowed.starts_with("1 to "), "{error}");
    let long = Config { round_trips_per_sample: u64::MAX, ..Config::quick() };
    let error = long.validate().unwrap_err();
    assert_eq!(error.to_string(), "invalid round_trips_per_sample = 18446744073709551615: 1 to 300000000 round trips");
    let slow = Config { samples_per_pair: 1_000_000, round_trips_per_sample: 1_000, ..Config::quick() };
    assert_eq!(slow.validate().unwrap_err().field, "samples", "a pair would take 1e9 round trips");
    assert!(Config::default().validate().is_ok());
}

#[test]
fn the_matrix_has_one_cell_per_pair_with_every_sample() {
    let config = Config { samples_per_pair: 5, round_trips_per_sample: 20, ..Config::quick() };
    let cpus = config.cpus_to_measure();
    let outcome = run(&config, &mut no_progress).unwrap();
    if config.measures_unpinned() {
        println!("this build cannot pin but reads the CPU number: the unpinned method ran (tests/c2c_unpinned.rs)");
        assert!(outcome.rows.iter().all(|row| row.unpinned_method && !row.pinned));
        return;
    }
    if no_cpu_ids_here().is_some() {
        // No pair to measure: no rows, and the finding says why rather than a latency.
        assert!(cpus.is_empty() && outcome.rows.is_empty(), "{cpus:?}");
        assert!(!outcome.budget_exhausted);
        assert!(finding(&summarize(&outcome.rows)).starts_with("Core-to-core latency was not measured: it needs two"));
        return;
    }
    let expected_pairs = pairs(&cpus);
    assert_eq!(outcome.rows.len(), expected_pairs.len() * 5);
    let summaries = summarize(&outcome.rows);
    let measured: Vec<(usize, usize)> = summaries.iter().map(|s| (s.cpu_a as usize, s.cpu_b as usize)).collect();
    assert_eq!(measured, expected_pairs);
    assert!(summaries.iter().all(|pair| pair.one_way_ns.samples == 5));
    assert!(summaries.iter().all(|pair| pair.cas_one_way_ns.as_ref().is_some_and(|cas| cas.samples == 5)));
    let both_timed = |row: &Row| row.one_way_ns > 0.0 && row.cas_one_way_ns > 0.0 && row.cas_elapsed_ns > 0;
    assert!(outcome.rows.iter().all(|row| row.round_trips == 20 && both_timed(row)));
    let samples: Vec<u64> = outcome.rows.iter().take(5).map(|row| row.sample).collect();
    assert_eq!(samples, [0, 1, 2, 3, 4], "the warm-up sample is dropped, the rest numbered from 0");
}

fn synthetic(cpu_a: u64, cpu_b: u64, one_way: &[f64]) -> Vec<Row> {
    one_way
        .iter()
        .enumerate()
        .map(|(sample, &ns)| Row {
            cpu_a,
            cpu_b,
            sample: sample as u64,
            round_trips: 10,
            elapsed_ns: (ns * 20.0) as u64,
            one_way_ns: ns,
            cas_elapsed_ns: (ns * 14.0) as u64,
            cas_one_way_ns: ns * 0.7,
            pinned: true,
            unpinned_method: false,
            dropped: false,
            kinds: String::new(),
        })
        .collect()
}

#[test]
fn summaries_and_finding_follow_the_rows() {
    let mut rows = synthetic(0, 1, &[40.0, 41.0, 42.0, 43.0, 44.0]);
    rows.extend(synthetic(0, 2, &[90.0, 95.0, 100.0, 105.0, 110.0]));
    rows.extend(synthetic(1, 2, &[60.0, 60.5, 61.0, 61.5, 62.0]));
    let summaries = summarize(&rows);
    assert_eq!(summaries.len(), 3);
    assert_eq!(typical_one_way_ns(&summaries), Some(61.0));
    let text = finding(&summaries);
    assert!(text.contains("61 ns") && text.contains("CPUs 0 and 1 at 42 ns") && text.contains("0 and 2 at 100"));
    assert!(!text.contains("That is slow"), "{text}");
    let cas = typical_cas_one_way_ns(&summaries).unwrap();
    assert!((cas - 61.0 * 0.7).abs() < 1e-9, "{cas}");
    assert!(text.contains(&format!("it is {cas:.0} ns, so the handshake reads {:.2}x it", 61.0 / cas)), "{text}");
    let saved_before: Vec<Row> = rows.iter().map(|row| Row { cas_one_way_ns: 0.0, ..row.clone() }).collect();
    let old = summarize(&saved_before);
    assert_eq!((typical_cas_one_way_ns(&old), typical_one_way_ns(&old)), (None, Some(61.0)));
    assert!(finding(&old).contains("this run has no compare-and-swap figure"), "{}", finding(&old));
    let slow = summarize(&synthetic(0, 1, &[700.0, 650.0, 800.0, 750.0, 720.0]));
    assert!(finding(&slow).contains("That is slow"));
    assert!(finding(&[]).contains("not measured"));
    let few = summarize(&synthetic(0, 1, &[40.0, 42.0]));
    assert_eq!(typical_one_way_ns(&few), None, "two samples are too few for the verdict");
    assert!(finding(&few).contains("too few trials (n=2"), "{}", finding(&few));
}

#[test]
fn a_run_saved_before_the_compare_and_swap_column_still_reads() {
    let old = "cpu_a,cpu_b,sample,round_trips,elapsed_ns,one_way_ns,pinned\n0,1,0,200,98374,245.935,true\n";
    let rows: Vec<Row> = contention::runs::parse_checked("c2c.csv", old).unwrap();
    assert_eq!((rows[0].one_way_ns, rows[0].cas_one_way_ns, rows[0].cas_elapsed_ns), (245.935, 0.0, 0));
}
