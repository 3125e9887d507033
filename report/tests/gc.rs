//! The GC sweep through the `contention` binary: bad values refused with exit 2 naming the
//! value, a tiny real run written whole and verified, and its section rendered.
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

#[test]
fn bad_values_exit_2_naming_the_value() {
    let out = scratch("bad");
    let cases: &[(&[&str], &str)] = &[
        (&["--ratios", "0"], "invalid ratios = 0: a whole percentage of at least 1"),
        (
            &["--ratios", "100,fast"],
            "invalid ratios = fast: a whole percentage of at least 1 (GOGC-style, e.g. 100), or off",
        ),
        (
            &["--ratios", "1..4000000000:1"],
            "invalid ratios = 1..4000000000:1: this range gives 4000000000 ratios; ratios of at least 1",
        ),
        (&["--ratios", "100..2000"], "invalid ratios = 100..2000: a range needs its step: FROM..TO:STEP"),
        (
            &["--ratios", "100..20000:100,20100..40000:100"],
            "invalid ratios = 100..20000:100,20100..40000:100: ratios of at least 1 (GOGC-style percents), off, or \
             ranges FROM..TO:STEP (e.g. 100..20000:100), separated by commas, at most 256 ratios in all",
        ),
        (
            &["--threads", "0"],
            "invalid threads = 0: 1 to 256 threads for stride, sharing and counters, 1 to 1024 for gc",
        ),
        (&["--threads", "1,2,0"], "invalid threads = 0: 1 to 256 threads"),
        (&["--seconds", "0"], "invalid seconds = 0: 0.001 to 600 seconds"),
        (&["--seconds", "1e-12"], "invalid seconds = 1e-12: 0.001 to 600 seconds"),
        (&["--seconds", "1e9"], "invalid seconds = 1e9: 0.001 to 600 seconds"),
        (&["--seconds", "inf"], "invalid seconds = inf: 0.001 to 600 seconds"),
        (
            &["--live-bytes", "2147483648"],
            "invalid live-bytes = 2147483648: at most the heap ceiling (1073741824 bytes)",
        ),
        (&["--alloc-per-op", "4294967296"], "invalid alloc-per-op = 4294967296: at most half the heap ceiling"),
        (&["--alloc-per-op", "10"], "invalid alloc-per-op = 10: at least 1 byte per object (33 objects per operation)"),
        (&["--workload", "rsa"], "invalid workload = rsa: ecdsa or hash"),
        (&["--trials", "0"], "invalid trials = 0: 1 to 10000 trials per case"),
        (&["--trials", "18446744073709551615"], "invalid trials = 18446744073709551615: 1 to 10000"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", "gc", "--out", out.to_str().unwrap()];
        args.extend_from_slice(flags);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{flags:?}: {}", stderr(&output));
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured, nothing written");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_tiny_sweep_is_saved_verified_and_rendered() {
    let out = scratch("run");
    let output = contention(&tiny_sweep(&out));
    assert!(output.status.success(), "{}", stderr(&output));
    let run = only_run_folder(&out);
    let csv = std::fs::read_to_string(run.join("gc.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("threads,ratio,trial,workload,elapsed_ns,operations,ops_per_sec,cycles,"));
    for column in ["pause_share", "stop_ns", "refill_wait_ns", "mark_ns", "sweep_ns"] {
        assert!(lines[0].split(',').any(|name| name == column), "{column} in {}", lines[0]);
    }
    assert_eq!(lines.len(), 1 + 2 * 2, "one row per (threads, ratio)");
    assert!(lines[1..].iter().all(|line| line.contains(",ecdsa,")), "{csv}");
    // Workers pinned where the OS pins threads; where it does not, every row says so.
    let pinnable = contention::platform::pinning_unavailable().map_or(Ok(()), Err);
    if let Err(why) = pinnable {
        println!("workers not pinned: {why}");
    }
    let pinned = if pinnable.is_ok() { "true" } else { "false" };
    assert!(lines[1..].iter().all(|line| column(lines[0], line, "pinned") == pinned), "{csv}");
    // The process's CPU share of every trial where the OS counts CPU time; 0, the rows'
    // unknown, where it does not.
    let cpu_time = contention::platform::process_times().map(|_| ());
    let share = |line: &&str| column(lines[0], line, "cpu_share").parse::<f64>().unwrap();
    match cpu_time {
        Ok(()) => assert!(lines[1..].iter().all(|line| share(line) > 0.0), "{csv}"),
        Err(why) => {
            println!("no CPU share recorded: {why}");
            assert!(lines[1..].iter().all(|line| share(line) == 0.0), "{csv}");
        }
    }
    assert_eq!(lines[1..].iter().filter(|line| line.contains(",off,")).count(), 2);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["profile"], "custom");
    assert_eq!(manifest["experiments"][0]["config"]["ratios"], serde_json::json!(["100", "off"]));
    check_go_beside(&run, &manifest["experiments"][0]["config"]["go"]);
    let page = out.join("page.html");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    let section = &html[html.find("<section id=\"gc\">").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("a model of a tracing collector's pacing, not Go's runtime"));
    assert_eq!(section.matches("<figure class=\"chart\"").count(), 2, "threads chart and ratio chart");
    assert_eq!(section.matches("<svg").count(), 2);
    assert!(section.contains("691054") && section.contains("30618"), "the article's numbers beside ours");
    assert!(section.contains("The ratio search per thread count"), "the ratio search table");
    if cpu_time.is_ok() {
        assert!(section.contains("47.21% (2266% of 4800%)"), "the CPU share beside the article's");
    }
    assert!(!section.contains("Not measured"));
    std::fs::remove_dir_all(&out).unwrap();
}

/// `run gc` over a tiny grid (1 and 2 threads, ratios 100 and off) into `out`.
fn tiny_sweep(out: &Path) -> Vec<&str> {
    vec![
        "run",
        "gc",
        "--quick",
        "--threads",
        "1,2",
        "--ratios",
        "100,off",
        "--seconds",
        "0.05",
        "--trials",
        "1",
        "--workload",
        "ecdsa",
        "--ceiling-bytes",
        "16777216",
        "--out",
        out.to_str().unwrap(),
    ]
}

/// With `go` on PATH the Go benchmark ran over the same grid, verified; without it the
/// manifest says how to add it.
fn check_go_beside(run: &Path, go: &serde_json::Value) {
    let has_go = Command::new("go").arg("version").output().is_ok_and(|output| output.status.success());
    if !has_go {
        assert_eq!(go["status"], "skipped", "{go}");
        assert!(go["reason"].as_str().unwrap().contains("apt-get install golang-go"), "{go}");
        return;
    }
    assert_eq!(go["status"], "ran", "{go}");
    let csv = std::fs::read_to_string(run.join("gc-go.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("threads,ratio,trial,go_version,"), "{csv}");
    assert_eq!(lines.len(), 1 + 2 * 2, "one Go row per (threads, ratio): {csv}");
    assert_eq!(go["rows"], 4);
    let cells: Vec<(&str, &str)> = lines[1..]
        .iter()
        .map(|line| {
            let mut fields = line.split(',');
            (fields.next().unwrap(), fields.next().unwrap())
        })
        .collect();
    assert_eq!(cells, vec![("1", "100"), ("1", "off"), ("2", "100"), ("2", "off")]);
    assert!(lines[1..].iter().all(|line| column(lines[0], line, "verified") == "true"), "{csv}");
    assert!(lines[1..].iter().all(|line| column(lines[0], line, "cpu_share").parse::<f64>().unwrap() > 0.0), "{csv}");
}

/// The cell of `line` under the column `name` of `header`.
fn column<'a>(header: &str, line: &'a str, name: &str) -> &'a str {
    let index = header.split(',').position(|column| column == name).unwrap_or_else(|| panic!("no {name} in {header}"));
    line.split(',').nth(index).unwrap()
}

#[test]
fn no_go_skips_the_go_benchmark_and_says_so() {
    let out = scratch("no-go");
    let output = contention(&[
        "run",
        "gc",
        "--threads",
        "1",
        "--ratios",
        "100",
        "--seconds",
        "0.02",
        "--trials",
        "1",
        "--workload",
        "hash",
        "--no-go",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = only_run_folder(&out);
    assert!(!run.join("gc-go.csv").exists());
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    let go = &manifest["experiments"][0]["config"]["go"];
    assert_eq!((go["status"].as_str(), go["reason"].as_str()), (Some("skipped"), Some("--no-go was given")));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_range_of_ratios_runs_every_ratio_once() {
    let out = scratch("range");
    let output = contention(&[
        "run",
        "gc",
        "--quick",
        "--no-go",
        "--threads",
        "1",
        "--ratios",
        "100..300:100,off,200",
        "--seconds",
        "0.02",
        "--trials",
        "1",
        "--workload",
        "hash",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = only_run_folder(&out);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["experiments"][0]["config"]["ratios"], serde_json::json!(["100", "200", "300", "off"]));
    let csv = std::fs::read_to_string(run.join("gc.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 4, "{csv}");
    std::fs::remove_dir_all(&out).unwrap();
}
