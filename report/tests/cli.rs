//! The `contention` binary end to end: runs written whole, bad input refused with exit 2
//! and a message naming the value, saved runs rendered without measuring.

mod common;

use common::*;

#[test]
fn run_writes_complete_rows_and_a_manifest_that_reads_back() {
    let out = scratch("run");
    let output = contention(&[
        "run",
        "stride",
        "--strides",
        "8,64",
        "--iters",
        "5000",
        "--trials",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("False sharing: the stride sweep\n====="), "findings printed as it finished: {printed}");
    assert!(printed.contains("\n> ") && printed.contains("run saved in"), "{printed}");
    assert!(printed.contains(" (measured in ") && printed.contains(" s)\n"), "{printed}");
    assert!(!printed.contains('\x1b'), "no colour codes when stdout is not a terminal");
    let run = only_run_folder(&out);
    let mut files: Vec<String> =
        std::fs::read_dir(&run).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["manifest.json", "stride.csv"], "no temporary files left behind");
    let csv = std::fs::read_to_string(run.join("stride.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "stride_bytes,threads,trial,trials_planned,iters_per_thread,elapsed_ns,ns_per_op,pinned,cpus,\
         cache_misses,snoop_hit_modified"
    );
    assert_eq!(lines.len(), 1 + 2 * 2);
    assert!(lines[1..].iter().all(|line| line.split(',').nth(3) == Some("2")), "every row records the trials planned");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["format_version"], 7);
    assert_eq!(manifest["experiments"][0]["name"], "stride");
    assert_eq!(manifest["experiments"][0]["state"], "complete");
    assert_eq!(manifest["experiments"][0]["rows"], 4);
    assert_eq!(manifest["experiments"][0]["config"]["strides_bytes"], serde_json::json!([8, 64]));
    assert!(manifest["machine"]["logical_cpus"].as_u64().unwrap() >= 1);
    // The saved run renders without measuring again.
    let page = out.join("page.html");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_values_exit_2_naming_the_value_and_what_is_allowed() {
    let out = scratch("bad");
    let out_arg = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--strides", "12"], "invalid strides = 12: multiples of 8 bytes from 8 to"),
        (&["--strides", "0"], "invalid strides = 0: multiples of 8 bytes from 8 to"),
        (
            &["--threads", "1", "--strides", "2097152"],
            "invalid strides = 2097152: multiples of 8 bytes from 8 to 1048576",
        ),
        (&["--threads", "0"], "invalid threads = 0: 1 to 256 threads"),
        (&["--threads", "9000"], "invalid threads = 9000: 1 to 256 threads"),
        (&["--threads", "2,4"], "invalid threads = 2,4: the stride sweep takes one thread count"),
        (&["--iters", "0"], "invalid iters = 0: 1 to "),
        (&["--iters", "18446744073709551615"], "invalid iters = 18446744073709551615: 1 to "),
        (&["--trials", "0"], "invalid trials = 0: 1 to 10000 trials per case"),
        (&["--trials", "18446744073709551615"], "invalid trials = 18446744073709551615: 1 to 10000 trials per case"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", "stride", "--out", out_arg];
        args.extend_from_slice(flags);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{flags:?}: {}", stderr(&output));
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured, nothing written");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn unknown_experiment_lists_the_known_ones() {
    let output = contention(&["run", "strides"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("invalid value 'strides'") && message.contains("possible values: "), "{message}");
    assert!(message.contains("stride"), "{message}");
}

#[test]
fn unwritable_output_folder_is_refused_before_measuring() {
    let blocker = scratch("blocker").join("a-file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let output = contention(&["run", "stride", "--out", blocker.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("invalid out = {}", blocker.display())), "{}", stderr(&output));
    let page = contention(&["report", "--from", fixture().to_str().unwrap(), "--out", "/nonexistent-dir/page.html"]);
    assert_eq!(page.status.code(), Some(2));
    assert!(stderr(&page).contains("invalid out = /nonexistent-dir/page.html: its folder does not exist"));
}

#[test]
fn report_renders_a_saved_run_without_measuring() {
    let out = scratch("render").join("report.html");
    let started = std::time::Instant::now();
    let output = contention(&["report", "--from", fixture().to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(started.elapsed().as_secs() < 30, "rendering must not measure");
    assert!(String::from_utf8_lossy(&output.stdout).contains("report written to"));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<svg"), "the chart is inline SVG");
    assert!(html.contains("id=\"environment\""));
    assert!(html.contains("Stride sweep"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"), "nothing external");
}

#[test]
fn broken_runs_are_refused_with_one_clear_message() {
    let root = scratch("broken");
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let no_manifest = root.join("no-manifest");
    std::fs::create_dir_all(&no_manifest).unwrap();
    std::fs::write(no_manifest.join("stride.csv"), "x\n").unwrap();
    let cases = [
        (root.join("missing"), "does not exist".to_string()),
        (empty.clone(), "is empty".to_string()),
        (no_manifest.clone(), "has no manifest.json".to_string()),
    ];
    for (dir, message) in cases {
        let output =
            contention(&["report", "--from", dir.to_str().unwrap(), "--out", root.join("p.html").to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains(&message), "{}: {}", dir.display(), stderr(&output));
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn markdown_and_json_go_to_stdout_with_every_section() {
    let from = fixture();
    let markdown = contention(&["report", "--from", from.to_str().unwrap(), "--format", "markdown", "--out", "-"]);
    assert!(markdown.status.success(), "{}", stderr(&markdown));
    let text = stdout(&markdown);
    assert!(text.starts_with("# Contention Lab: "), "{text}");
    for title in ["## This machine", "## False sharing: the stride sweep", "## Thread-pool sizing"] {
        assert!(text.contains(title), "missing {title}");
    }
    assert!(!text.contains("<svg") && !text.contains("report written to"), "markdown only, no picture");
    let json = contention(&["report", "--from", from.to_str().unwrap(), "--format", "json", "--out", "-"]);
    assert!(json.status.success(), "{}", stderr(&json));
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("the output is JSON");
    assert_eq!(value["format"], "contention-report");
    assert_eq!(value["version"], 1);
    // The headline, then one section per experiment with a section of its own, as the
    // lib's registry builds them.
    let experiments = contention::present::sections(&[]).unwrap().len();
    assert_eq!(value["sections"].as_array().unwrap().len(), 1 + experiments);
    assert_eq!(value["sections"][0]["experiment"], "headline");
    assert_eq!(value["sections"][0]["tables"][0]["rows"].as_array().unwrap().len(), 3, "a row per article");
    let run = &value["runs"][0];
    assert!(run["assessment"]["verdict"]["fitness"].is_string());
    assert!(run["summaries"]["stride"][0]["elapsed_ms"]["median"].is_number());
}

#[test]
fn a_reader_that_stops_early_ends_the_output_without_an_error() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_contention"))
        .args(["report", "--from", fixture().to_str().unwrap(), "--format", "markdown", "--out", "-"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // As `| grep -q` does: read a little, then close the pipe (the report is larger than it).
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}
