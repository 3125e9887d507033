//! `contention run locks` end to end: bad flag values are refused by name with what is
//! allowed (exit 2, nothing written), and a small run saves complete rows that render.

mod common;

use common::*;

#[test]
fn bad_lock_flags_exit_2_naming_the_value() {
    let out = scratch("locks-bad");
    let cases: &[(&[&str], &str)] = &[
        (&["--wait-ms", "5000"], "invalid wait-ms = 5000: 0 to 1000 ms"),
        (&["--wait-ms", "-1"], "invalid wait-ms = -1: 0 to 1000 ms"),
        (&["--read-share", "0.9,1.5"], "invalid read-share = 1.5: a share of reads from 0 to 1"),
        (&["--keys", "0"], "invalid keys = 0: 1 to 1000000 keys"),
        (&["--cases", "uncontended,nope"], "invalid cases = nope: one or more of uncontended"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", "locks", "--quick", "--no-java", "--out", out.to_str().unwrap()];
        args.extend_from_slice(flags);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{flags:?}: {}", stderr(&output));
    }
    assert_eq!(std::fs::read_dir(&out).map_or(0, |dir| dir.count()), 0, "nothing measured, nothing written");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_small_locks_run_saves_its_columns_and_renders() {
    let out = scratch("locks-run");
    let output = contention(&[
        "run",
        "locks",
        "--quick",
        "--no-java",
        "--cases",
        "uncontended,read-mostly",
        "--threads",
        "1,2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();
    let csv = std::fs::read_to_string(run.join("locks.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for column in ["case", "primitive", "threads", "ns_per_op", "ops_per_sec", "read_share", "handoffs_per_op"] {
        assert!(header.contains(&column), "no {column} in {header:?}");
    }
    assert!(!run.join("locks-java.csv").exists(), "--no-java runs no JVM");
    let manifest = std::fs::read_to_string(run.join("manifest.json")).unwrap();
    assert!(manifest.contains("--no-java was given"), "the manifest says why the JVM did not run");
    let page = contention(&["report", "--from", run.to_str().unwrap(), "--format", "markdown", "--out", "-"]);
    assert!(page.status.success(), "{}", stderr(&page));
    assert!(stdout(&page).contains("## Locks: what an acquisition costs"), "the locks section renders");
    std::fs::remove_dir_all(&out).unwrap();
}
