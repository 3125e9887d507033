//! The unpinned core-to-core method's shape: every pair it names is two CPUs of this
//! machine, every sample is counted, and a sample where a thread moved (or both threads ran
//! on one CPU) is never in a pair's figures. No latency value is asserted (the benchmark
//! `c2c_methods` compares the two methods' figures).
#![allow(clippy::print_stdout)] // a test prints why it checks a refusal instead of a matrix

use contention::c2c::unpinned::machine_cpus;
use contention::c2c::{dropped_samples, finding, pairs_never_seen, run, summarize, Config};
use contention::harness::no_progress;

fn unpinned() -> Config {
    Config { unpinned: true, samples_per_pair: 5, round_trips_per_sample: 20, ..Config::quick() }
}

/// Why this build cannot run the method (it reads no CPU number), printed.
fn no_cpu_number_here() -> Option<String> {
    let why = contention::platform::current_cpu().err()?.to_string();
    println!("this build reads no CPU number ({why}): checking that --unpinned is refused with why");
    Some(why)
}

#[test]
fn the_unpinned_method_names_its_pairs_and_counts_every_sample() {
    if let Some(why) = no_cpu_number_here() {
        let error = unpinned().validate().unwrap_err();
        let allowed = format!("a build that reads which CPU a thread runs on; {why}");
        assert_eq!(error.to_string(), format!("invalid unpinned = true: {allowed}"));
        return;
    }
    let outcome = run(&unpinned(), &mut no_progress).unwrap();
    let cpus = machine_cpus();
    assert!(!outcome.rows.is_empty());
    assert!(outcome.rows.iter().all(|row| row.unpinned_method && !row.pinned && row.cpu_a <= row.cpu_b));
    let tally = dropped_samples(&outcome.rows).unwrap();
    let dropped_rows = outcome.rows.iter().filter(|row| row.dropped).count() as u64;
    assert_eq!((tally.taken, tally.moved + tally.one_cpu), (outcome.rows.len() as u64, dropped_rows));
    assert!(outcome.rows.iter().all(|row| row.dropped || row.cpu_a != row.cpu_b), "one CPU is no pair: dropped");
    let summaries = summarize(&outcome.rows);
    for pair in &summaries {
        assert!(pair.unpinned && pair.cpu_a < pair.cpu_b, "{pair:?}");
        let of_pair = |dropped: bool| {
            let in_pair = |row: &&contention::c2c::Row| (row.cpu_a, row.cpu_b) == (pair.cpu_a, pair.cpu_b);
            outcome.rows.iter().filter(in_pair).filter(|row| row.dropped == dropped).count()
        };
        assert_eq!((pair.one_way_ns.samples, pair.dropped), (of_pair(false), of_pair(true) as u64));
    }
    let on_machine = |a: u64, b: u64| cpus.contains(&(a as usize)) && cpus.contains(&(b as usize));
    let seen = summaries.iter().filter(|pair| on_machine(pair.cpu_a, pair.cpu_b)).count();
    let unseen = pairs_never_seen(&summaries, &cpus);
    assert_eq!(seen + unseen.len(), contention::c2c::pairs(&cpus).len(), "each pair seen or named unseen");
    if !summaries.is_empty() {
        assert!(finding(&summaries).contains("Unpinned: the threads ran where the scheduler put them"));
    }
}

#[test]
fn a_list_of_cpus_is_refused_with_unpinned() {
    if no_cpu_number_here().is_some() {
        return;
    }
    let error = Config { cpus: vec![0, 1], ..unpinned() }.validate().unwrap_err();
    assert_eq!(error.to_string(), "invalid cpus = 0: no list with --unpinned: the scheduler picks the pairs");
}

#[test]
fn a_moved_sample_is_never_kept_in_a_pair() {
    let row = |sample: u64, ns: f64, dropped: bool| contention::c2c::Row {
        cpu_a: 0,
        cpu_b: 1,
        sample,
        round_trips: 10,
        elapsed_ns: (ns * 20.0) as u64,
        one_way_ns: ns,
        cas_elapsed_ns: (ns * 20.0) as u64,
        cas_one_way_ns: ns,
        pinned: false,
        unpinned_method: true,
        dropped,
        kinds: String::new(),
    };
    let mut rows: Vec<_> = (0..5).map(|sample| row(sample, 40.0, false)).collect();
    rows.push(row(5, 90_000.0, true));
    rows.push(contention::c2c::Row { cpu_b: 0, ..row(6, 80_000.0, true) });
    let summaries = summarize(&rows);
    assert_eq!(summaries.len(), 1, "the one-CPU sample makes no pair");
    assert_eq!((summaries[0].one_way_ns.samples, summaries[0].one_way_ns.max, summaries[0].dropped), (5, 40.0, 1));
    let tally = dropped_samples(&rows).unwrap();
    assert_eq!((tally.taken, tally.moved, tally.one_cpu), (7, 1, 1));
    assert!(finding(&summaries).contains("(1 of 6 on these pairs, 16.7%)"), "{}", finding(&summaries));
    assert_eq!(pairs_never_seen(&summaries, &[0, 1, 2]), [(0, 2), (1, 2)]);
}
