//! `contention run pool` end to end: a tiny run writes complete, verified rows that render
//! into the page, and bad values exit 2 naming the value and what is allowed.
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

mod common;

use common::*;

#[test]
fn a_tiny_run_accounts_for_every_request_and_renders() {
    let out = scratch("run");
    let flags =
        ["--quick", "--pool-sizes", "2,6", "--hit", "0.5", "--rate", "300", "--seconds", "0.3", "--trials", "1"];
    let downstream =
        ["--db-connections", "2", "--lock-hold-us", "20", "--capacity-seconds", "0.1", "--capacity-clients", "6"];
    let mut args = vec!["run", "pool", "--out", out.to_str().unwrap()];
    args.extend(flags);
    args.extend(downstream);
    let output = contention(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();
    let mut reader = csv::Reader::from_path(run.join("pool.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // Two fixed sizes, one split, one async, one async blocking its workers.
    assert_eq!(rows.len(), 5);
    let number = |row: &csv::StringRecord, name: &str| row[column(name)].parse::<u64>().unwrap();
    for row in &rows {
        assert_eq!(number(row, "arrived"), number(row, "completed") + number(row, "dropped"), "{row:?}");
        assert_eq!(number(row, "histogram_count"), number(row, "arrived"), "{row:?}");
        assert_eq!(number(row, "hits") + number(row, "misses"), number(row, "arrived"), "{row:?}");
        assert_eq!(number(row, "db_connections"), 2, "{row:?}");
        let float = |name: &str| row[column(name)].parse::<f64>().unwrap();
        assert!(float("p99_ms") >= float("p50_ms") && float("capacity_per_sec") > 0.0, "{row:?}");
        assert!(number(row, "thread_stack_bytes") > 0, "{row:?}");
        // The address space reserved holds the committed memory, where the OS tells both; 0,
        // the rows' unknown, where it does not.
        match contention::platform::memory_in_use() {
            Ok(_) => {
                assert!(number(row, "reserved_bytes") >= number(row, "peak_rss_bytes"), "{row:?}");
                assert!(number(row, "peak_rss_bytes") > 0, "{row:?}");
            }
            Err(why) => {
                println!("no memory recorded: {why}");
                assert_eq!((number(row, "peak_rss_bytes"), number(row, "reserved_bytes")), (0, 0), "{row:?}");
            }
        }
    }
    let variants: Vec<&str> = rows.iter().map(|row| &row[column("variant")]).collect();
    assert_eq!(variants, ["fixed", "fixed", "split", "async", "async-blocking"]);
    let page = out.join("page.html");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("data-title=\"pool latency\"") && html.contains("data-title=\"pool switches\""));
    assert!(html.contains("bounded database connection pool"));
    // Switches where the OS counts them; where it does not, the page says so rather than 0.
    match contention::platform::process_times() {
        Ok(_) => {
            assert!(html.contains("Context switches per completed request"), "no switches on the page");
            assert!(!html.contains("not counted by this OS"), "switches counted, yet said not counted");
        }
        Err(why) => {
            println!("no switches recorded: {why}");
            assert!(html.contains("Context switches are unavailable: this OS counted none for the process."));
            assert!(html.contains("voluntary: not counted by this OS"), "the chart's legend draws no line of zeros");
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_pool_values_exit_2_naming_the_value_and_what_is_allowed() {
    let out = scratch("bad");
    let cases: &[(&[&str], &str)] = &[
        (&["--hit", "1.5"], "invalid hit = 1.5: a probability between 0 and 1"),
        (&["--hit", "-0.2"], "invalid hit = -0.2: a probability between 0 and 1"),
        (&["--rate", "0"], "invalid rate = 0: requests per second above 0"),
        (&["--pool-sizes", "4,0"], "invalid pool-sizes = 0: 1 to 4096 threads"),
        (&["--seconds", "0"], "invalid seconds = 0: 0.001 to 600 seconds"),
        // `--seconds` is shared with the GC sweep, whose check may answer first: both name the value.
        (&["--seconds", "-1"], "invalid seconds = -1: "),
        (&["--hit-wait-ms", "2,1"], "invalid hit-wait-ms = 2,1: MIN,MAX with MIN <= MAX (the range is reversed)"),
        (&["--miss-wait-ms", "80,40"], "invalid miss-wait-ms = 80,40: MIN,MAX with MIN <= MAX (the range is reversed)"),
        (&["--miss-wait-ms", "40"], "invalid miss-wait-ms = 40: two milliseconds, MIN,MAX"),
        (&["--trials", "0"], "invalid trials = 0: 1 to 10000 trials per case"),
        (&["--trials", "18446744073709551615"], "invalid trials = 18446744073709551615: 1 to 10000"),
        (&["--rate-per-cpu", "0"], "invalid rate-per-cpu = 0: requests per second above 0"),
        (&["--work-share", "2"], "invalid work-share = 2: a share above 0 and at most 1"),
        (&["--cpu-work-ms", "-1"], "invalid cpu-work-ms = -1: CPU work per request from 0.001 to 1000 ms"),
        (&["--db-connections", "0"], "invalid db-connections = 0: 1 to 4096 connections"),
        (&["--capacity-clients", "0"], "invalid capacity-clients = 0: 1 to 65536 callers"),
        (&["--capacity-seconds", "0"], "invalid capacity-seconds = 0: 0.001 to 600 seconds"),
        (&["--queue-timeout-ms", "-5"], "invalid queue-timeout-ms = -5: above 0 and at most 600000 milliseconds"),
        (&["--lock-hold-us", "2000000"], "invalid lock-hold-us = 2000000: 0 to 1000000 microseconds"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", "pool", "--out", out.to_str().unwrap()];
        args.extend_from_slice(flags);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{flags:?}: {}", stderr(&output));
    }
    let output = contention(&["run", "pool", "--variant", "threads", "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("possible values: fixed, split, async, async-blocking, all"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured, nothing written");
    std::fs::remove_dir_all(&out).unwrap();
}
