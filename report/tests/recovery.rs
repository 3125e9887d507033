//! Issue 15, "a finished experiment is never lost": a CSV saved before the manifest that
//! would have marked it complete is recovered and said so; an experiment stopped before its
//! rows were saved (a kill, Ctrl-C, a failure) is shown as interrupted; leftover temporary
//! files are ignored. Each case checks the exit code, the message and the files on disk.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::*;
use serde_json::Value;

/// Rewrites the run's manifest with `edit`.
fn edit_manifest(run: &Path, edit: impl FnOnce(&mut Value)) {
    let path = run.join("manifest.json");
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut manifest);
    std::fs::write(&path, serde_json::to_string(&manifest).unwrap()).unwrap();
}

/// The stride record of a manifest.
fn stride_record(manifest: &mut Value) -> &mut Value {
    let experiments = manifest["experiments"].as_array_mut().unwrap();
    experiments.iter_mut().find(|record| record["name"] == "stride").unwrap()
}

/// The manifest as a kill would leave it after stride started: stride `running`, no rows.
fn mark_stride_running(run: &Path) {
    edit_manifest(run, |manifest| {
        let stride = stride_record(manifest);
        stride["state"] = "running".into();
        stride["rows"] = 0.into();
    });
}

/// The report of `run` in every format, each rendered with exit 0: (HTML, markdown, JSON,
/// what the terminal showed on stderr).
fn render_all(run: &Path) -> (String, String, Value, String) {
    let from = run.to_str().unwrap();
    let mut texts = Vec::new();
    for format in ["html", "markdown", "json"] {
        let output = contention(&["report", "--from", from, "--format", format, "--out", "-"]);
        assert!(output.status.success(), "{format}: {}", stderr(&output));
        texts.push((stdout(&output), stderr(&output)));
    }
    let json = serde_json::from_str(&texts[2].0).unwrap();
    (texts[0].0.clone(), texts[1].0.clone(), json, texts[0].1.clone())
}

/// The JSON report's status sentences of `experiment`.
fn json_status(json: &Value, experiment: &str) -> String {
    let sections = json["sections"].as_array().unwrap();
    let section = sections.iter().find(|section| section["experiment"] == experiment).unwrap();
    section["status"].to_string()
}

/// Every renderer carries `sentence` on `experiment`'s section.
fn shown_everywhere(run: &Path, experiment: &str, sentence: &str) -> String {
    let (html, markdown, json, terminal) = render_all(run);
    assert!(html_section(&html, experiment).contains(sentence), "page: {}", html_section(&html, experiment));
    assert!(markdown.contains(sentence), "{markdown}");
    assert!(json_status(&json, experiment).contains(sentence), "{}", json_status(&json, experiment));
    assert!(terminal.contains(&format!("note: vm (2026-12-01 18:01 UTC): {sentence}")), "{terminal}");
    html
}

#[test]
fn a_csv_saved_before_the_manifest_marked_it_complete_is_recovered() {
    let run = fixture_copy("recovered");
    mark_stride_running(&run);
    std::fs::write(run.join(".manifest.json.tmp-12345"), "{ half a manifest").unwrap();
    std::fs::write(run.join(".stride.csv.tmp-12345"), "stride_bytes\n8,").unwrap();
    let sentence = "recovered: stride.csv was complete but the manifest still listed stride as running";
    let html = shown_everywhere(&run, "stride", sentence);
    assert!(html_section(&html, "stride").contains("<svg"), "the recovered rows are drawn");
    assert!(run.join(".manifest.json.tmp-12345").exists(), "the reader removes nothing");
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn a_csv_the_manifest_does_not_list_is_recovered() {
    let run = fixture_copy("unlisted");
    edit_manifest(&run, |manifest| {
        manifest["experiments"].as_array_mut().unwrap().retain(|record| record["name"] != "stride");
    });
    let html = shown_everywhere(&run, "stride", "recovered: stride.csv was complete but missing from the manifest");
    assert!(html_section(&html, "stride").contains("<svg"));
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn an_experiment_stopped_before_its_rows_were_saved_is_interrupted() {
    let run = fixture_copy("interrupted");
    mark_stride_running(&run);
    std::fs::remove_file(run.join("stride.csv")).unwrap();
    let html = shown_everywhere(&run, "stride", "interrupted: stride started at 2026-12-01T");
    assert!(!html_section(&html, "stride").contains("Not measured"), "interrupted, not 'not measured'");
    assert!(html_section(&html, "sharing").contains("<svg"), "the rest of the run is shown");
    edit_manifest(&run, |manifest| {
        let stride = stride_record(manifest);
        stride["state"] = "failed".into();
        stride["failure"] = "the counters did not sum to the increments".into();
    });
    shown_everywhere(&run, "stride", "interrupted: stride failed: the counters did not sum to the increments");
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

/// Starts a run of minutes, sends `signal` once the manifest lists stride as running, and
/// checks what is left: the manifest alone, read back with stride interrupted.
fn stopped_by(signal: &str) {
    let out = scratch(&format!("signal{signal}"));
    // Minutes of work: the signal arrives long before the first trial could finish.
    let long = ["run", "stride", "--strides", "8", "--iters", "3000000000", "--trials", "100", "--threads", "1"];
    let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
    command.args(long).arg("--out").arg(&out).stdout(Stdio::null()).stderr(Stdio::null());
    // A shell's background job starts with SIGINT ignored and a child inherits that: the run
    // gets Ctrl-C's default, as from a terminal, wherever the tests were started.
    #[cfg(unix)]
    // SAFETY: between fork and exec the closure makes one async-signal-safe call, signal(2).
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let running = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap_or_default();
        text.contains("\"state\": \"running\"")
    };
    let run = loop {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it was stopped");
        let folders: Vec<_> = std::fs::read_dir(&out).unwrap().map(|entry| entry.unwrap().path()).collect();
        match folders.iter().find(|folder| running(folder)) {
            Some(run) => break run.clone(),
            None => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap().success());
    assert!(!child.wait().unwrap().success(), "stopped by {signal}");
    let mut files: Vec<String> =
        std::fs::read_dir(&run).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["manifest.json"], "no rows, no temporary file");
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--format", "markdown", "--out", "-"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("interrupted: stride started at"), "{}", stdout(&output));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn ctrl_c_during_an_experiment_leaves_it_recorded_as_interrupted() {
    stopped_by("-INT");
}

#[test]
fn kill_9_during_an_experiment_leaves_it_recorded_as_interrupted() {
    stopped_by("-KILL");
}
