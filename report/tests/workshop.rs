//! The workshop: runs labelled apart, packed into one file, compared in a room page; the
//! binary works from any folder.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// A short stride run into `out`, as a child process (so several can start at once).
fn quick_stride_run(out: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
    command.args(["run", "stride", "--strides", "8,64", "--iters", "2000", "--trials", "2", "--out"]);
    command.arg(out).args(extra);
    command
}

fn manifest_of(run: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap()
}

fn run_folders(out: &Path) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    folders
}

#[test]
fn runs_started_together_get_different_labels_and_folders() {
    let out = scratch("labels");
    let children: Vec<_> = (0..3).map(|_| quick_stride_run(&out, &[]).spawn().unwrap()).collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let folders = run_folders(&out);
    assert_eq!(folders.len(), 3, "{folders:?}");
    let mut labels: Vec<String> =
        folders.iter().map(|run| manifest_of(run)["label"].as_str().unwrap().to_string()).collect();
    let hostname = manifest_of(&folders[0])["machine"]["hostname"].as_str().unwrap().to_string();
    assert!(labels.iter().all(|label| label.starts_with(&format!("{hostname}-"))), "{labels:?}");
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), 3, "labels differ: {labels:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_given_label_names_the_run_and_a_bad_one_is_refused() {
    let out = scratch("label-given");
    let output = quick_stride_run(&out, &["--label", "seat 12"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let run = only_run_folder(&out);
    assert_eq!(manifest_of(&run)["label"], "seat 12");
    assert!(run.file_name().unwrap().to_str().unwrap().starts_with("seat_12-"), "{}", run.display());
    let output = quick_stride_run(&out, &["--label", " "]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("invalid label = \" \": 1 to 64 printable characters"), "{}", stderr(&output));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_same_run_twice_reads_as_two_machines() {
    let out = scratch("label-twice");
    let page = out.join("page.md");
    let fixture = fixture();
    let from = fixture.to_str().unwrap();
    let output =
        contention(&["report", "--compare", from, from, "--format", "markdown", "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains("Measured on vm (2026-12-01 16:44 UTC), vm (2026-12-01 16:44 UTC) (2)."), "{text}");
    std::fs::remove_dir_all(&out).unwrap();
}
