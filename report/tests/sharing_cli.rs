//! `contention run sharing counters` end to end: complete, verified rows that render, and
//! bad values refused with exit 2 and a message naming the value and what is allowed.

mod common;

use common::*;

#[test]
fn small_run_writes_verified_rows_and_renders_both_sections() {
    let out = scratch("run");
    let args = ["run", "sharing", "counters", "--threads", "3", "--total", "6000", "--trials", "2"];
    let output = contention(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let run = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();
    for (file, header, rows, one_total) in [
        (
            "sharing.csv",
            "case,threads,trial,trials_planned,total_increments,increments_per_thread,distance_bytes,elapsed_ns,\
             ns_per_increment,pinned,cpus,cache_misses,snoop_hit_modified",
            4 * 2,
            true,
        ),
        (
            "counters.csv",
            "layout,threads,trial,trials_planned,total_increments,increments_per_thread,cells,bytes_used,\
             increments_per_write,elapsed_ns,ns_per_increment,pinned,cpus,part",
            (7 + 2 * 6) * 2,
            false,
        ),
    ] {
        let csv = std::fs::read_to_string(run.join(file)).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], header, "{file}");
        assert_eq!(lines.len(), 1 + rows, "{file}");
        // The total comes before the quoted CPU list, so splitting at commas finds it. The
        // four-way control shares one total; each counter layout is sized on its own.
        let totals: Vec<u64> = lines[1..].iter().map(|line| line.split(',').nth(4).unwrap().parse().unwrap()).collect();
        assert!(totals.iter().all(|&total| total % 6000 == 0), "{file}: multiples of the total, {totals:?}");
        assert!(!one_total || totals.iter().all(|&total| total == totals[0]), "{file}: one total, {totals:?}");
    }
    let page = out.join("page.html");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("data-charts=\"3\""), "three charts: article A's headline figure, the control, the layouts");
    assert!(html.contains("data-title=\"A. False sharing\""));
    assert!(html.contains("data-title=\"four-way control\"") && html.contains("data-title=\"counter layouts\""));
    assert!(html.contains("3.87x") && html.contains("50.95x faster for 16x the memory"), "the article's numbers");
    assert!(html.contains("100 000 counters"));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_values_exit_2_naming_the_value_and_what_is_allowed() {
    let out = scratch("bad");
    let out_arg = out.to_str().unwrap();
    let cases: &[(&str, &[&str], &str)] = &[
        ("sharing", &["--threads", "0"], "invalid threads = 0: 1 to 256"),
        ("counters", &["--threads", "0"], "invalid threads = 0: 1 to 256"),
        ("sharing", &["--threads", "2,4"], "invalid threads = 2,4: the four-way control takes one thread count"),
        (
            "sharing",
            &["--threads", "3", "--total", "1000"],
            "invalid total = 1000: a positive multiple of threads = 3 up to 6000000000, so every thread does the same \
             share (e.g. 999 or 1002)",
        ),
        (
            "sharing",
            &["--threads", "2", "--total", "18446744073709551615"],
            "invalid total = 18446744073709551615: 1 to 6000000000 increments",
        ),
        ("counters", &["--threads", "2", "--total", "7"], "invalid total = 7: a positive multiple of threads = 2"),
        ("sharing", &["--padding", "96"], "invalid padding = 96: a power of two from 8 to 4096 bytes"),
        ("sharing", &["--padding", "4"], "invalid padding = 4: a power of two from 8 to 4096 bytes"),
        ("counters", &["--flush-every", "0"], "invalid flush-every = 0: 1 to 6000000000 increments between flushes"),
        ("counters", &["--stripes", "0"], "invalid stripes = 0: 1 to 4096 cells"),
        ("counters", &["--shards", "4,0"], "invalid shards = 0: 1 to 4096 shards"),
        ("counters", &["--shards", "4,4"], "invalid shards = 4: each shard count listed once"),
        ("counters", &["--trials", "0"], "invalid trials = 0: 1 to 10000 trials per case"),
        ("sharing", &["--trials", "18446744073709551615"], "invalid trials = 18446744073709551615: 1 to 10000"),
    ];
    for (experiment, flags, message) in cases {
        let mut args = vec!["run", experiment, "--out", out_arg];
        args.extend_from_slice(flags);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{experiment} {flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{experiment} {flags:?}: {}", stderr(&output));
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured, nothing written");
    std::fs::remove_dir_all(&out).unwrap();
}
