//! Issue 15's cases end to end: no run lost or shared, no panic or abort on extreme values,
//! no file replaced that is not ours, saved runs checked before they are trusted. Each case
//! checks the exit code, the message and what is left on disk; none depends on timing.
#![cfg(unix)] // links, FIFOs, file modes and shell scripts made as Unix makes them
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

mod common;

use std::os::unix::fs::{symlink, FileTypeExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::*;
use serde_json::Value;

fn refused(args: &[&str], message: &str) {
    let output = contention(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
    assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
}

/// What a wait of 1e12 ms is told: the range, and why it ends there.
const WAIT_1E12: &str = "invalid miss-wait-ms = 1e12: milliseconds from 0 to 600000 (one trial's longest run)";
/// A live graph of 1e12 bytes is refused by this machine's memory, stated.
const HALF_OF_MEMORY: &str = "invalid live-bytes = 1000000000000: at most ";

#[test]
fn extreme_values_exit_2_with_the_allowed_range_and_write_nothing() {
    let out = scratch("extreme");
    let out_arg = out.to_str().unwrap();
    let max = "18446744073709551615";
    let cases: &[(&[&str], &str)] = &[
        (&["stride", "--trials", max], "invalid trials = 18446744073709551615: 1 to 10000"),
        (&["stride", "--trials", "1000000000"], "invalid trials = 1000000000: 1 to 10000"),
        (&["sharing", "--trials", max], "invalid trials = 18446744073709551615: 1 to 10000"),
        (&["counters", "--trials", max], "invalid trials = 18446744073709551615: 1 to 10000"),
        (&["c2c", "--samples", max], "invalid samples = 18446744073709551615: 1 to "),
        (&["c2c", "--samples", "1000000000"], "invalid samples = 1000000000: 1 to "),
        (&["stride", "--iters", max], "invalid iters = 18446744073709551615: 1 to "),
        (&["machine", "--iters", max], "invalid iters = 18446744073709551615: 1 to 6000000000"),
        (
            &["stride", "--threads", "2", "--strides", "2097152"],
            "invalid strides = 2097152: multiples of 8 bytes from 8 to 1048576",
        ),
        (&["sharing", "--threads", "2", "--total", max], "invalid total = 18446744073709551615: 1 to 6000000000"),
        (&["pool", "--hit", "-0.1,0.5"], "invalid hit = -0.1: a probability between 0 and 1"),
        (&["gc", "--trials", max], "invalid trials = 18446744073709551615: 1 to 10000"),
        (&["pool", "--trials", max], "invalid trials = 18446744073709551615: 1 to 10000"),
        (&["gc", "--seconds", "1e9"], "invalid seconds = 1e9: 0.001 to 600 seconds"),
        (&["pool", "--seconds", "1e9"], "invalid seconds = 1e9: 0.001 to 600 seconds"),
        (&["gc", "--seconds", "1e-12"], "invalid seconds = 1e-12: 0.001 to 600 seconds"),
        (&["pool", "--capacity-seconds", "1e9"], "invalid capacity-seconds = 1e9: 0.001 to 600 seconds"),
        (&["pool", "--miss-wait-ms", "1e30,1e30"], "invalid miss-wait-ms = 1e30: milliseconds from 0 to 600000"),
        (&["pool", "--miss-wait-ms", "1e12,1e12", "--pool-sizes", "3"], WAIT_1E12),
        (&["pool", "--hit-wait-ms", "1e12,1e12"], "invalid hit-wait-ms = 1e12: milliseconds from 0 to 600000"),
        (&["pool", "--queue-timeout-ms", "1e30"], "at most 600000 milliseconds"),
        (&["pool", "--pool-sizes", "3,100000"], "invalid pool-sizes = 100000: 1 to 4096 threads"),
        (&["gc", "--live-bytes", "1000000000000", "--ceiling-bytes", "2000000000000"], HALF_OF_MEMORY),
        (&["gc", "--ceiling-bytes", max], "invalid ceiling-bytes = 18446744073709551615: 1 to "),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run"];
        args.extend_from_slice(flags);
        args.extend(["--out", out_arg]);
        refused(&args, message);
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing measured, no empty run folder");
    std::fs::remove_dir_all(&out).unwrap();
}

/// The run folders under `out`, each holding a manifest, with their manifests.
fn runs_in(out: &Path) -> Vec<(PathBuf, Value)> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(out).unwrap().map(|entry| entry.unwrap().path()).collect();
    folders.sort();
    folders
        .into_iter()
        .map(|folder| {
            let text = std::fs::read_to_string(folder.join("manifest.json")).unwrap();
            (folder, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

#[test]
fn runs_one_after_another_in_the_same_second_keep_a_folder_each() {
    let out = scratch("same-second");
    let out_arg = out.to_str().unwrap();
    for threads in ["1", "2"] {
        let tiny = ["run", "stride", "--label", "same", "--strides", "8", "--iters", "1000", "--trials", "1"];
        let output = contention(&[&tiny[..], &["--threads", threads, "--out", out_arg]].concat());
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let runs = runs_in(&out);
    let threads: Vec<&Value> = runs.iter().map(|(_, m)| &m["experiments"][0]["config"]["threads"]).collect();
    assert_eq!(threads, [1, 2], "both runs kept, each in its own folder: {runs:?}");
    let mut printed = Vec::new();
    for _ in 0..3 {
        let output = contention(&["run", "c2c", "--quick", "--label", "c2c", "--samples", "1", "--out", out_arg]);
        assert!(output.status.success(), "{}", stderr(&output));
        let saved = stdout(&output).lines().find(|line| line.starts_with("run saved in")).unwrap().to_string();
        // The folder named, without the time the run took (which differs anyway).
        printed.push(saved.split(" (measured in").next().unwrap().to_string());
    }
    printed.dedup();
    assert_eq!(printed.len(), 3, "three folders named: {printed:?}");
    assert_eq!(runs_in(&out).len(), 5);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn runs_at_the_same_time_get_a_folder_each() {
    let out = scratch("together");
    let tiny = ["run", "stride", "--quick", "--strides", "8", "--iters", "1000", "--trials", "1", "--threads", "1"];
    let start = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
        command.args(tiny).arg("--out").arg(&out).stdout(Stdio::null()).stderr(Stdio::null());
        command.spawn().unwrap()
    };
    let (mut first, mut second) = (start(), start());
    assert!(first.wait().unwrap().success() && second.wait().unwrap().success());
    let folders: Vec<_> = std::fs::read_dir(&out).unwrap().map(|entry| entry.unwrap().path()).collect();
    assert_eq!(folders.len(), 2, "{folders:?}");
    for folder in &folders {
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(manifest["experiments"].as_array().unwrap().len(), 1, "{}", folder.display());
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// What the report says of a special file at `path`: its kind, `expected`, where the OS
/// tells kinds apart; "a special file" where it does not (the fallback), said why.
fn special(path: &Path, expected: &str) -> String {
    let kind = contention::platform::special_kind(&std::fs::symlink_metadata(path).unwrap());
    if let Some(kind) = kind {
        assert_eq!(kind, expected);
    } else {
        println!("this build does not tell a {expected} from other special files: it names none");
    }
    format!("it is a {}; the report is written only to regular files", kind.unwrap_or("special file"))
}

#[test]
fn the_page_is_written_only_to_regular_files() {
    let dir = scratch("out-kinds");
    let fixture = fixture();
    let from = fixture.to_str().unwrap();
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    refused(&["report", "--from", from, "--out", fifo.to_str().unwrap()], &special(&fifo, "FIFO (named pipe)"));
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is left as it was");
    refused(&["report", "--from", from, "--out", dir.to_str().unwrap()], "it is a folder");
    // A device node (as /dev/full is) can be made only by root: checked where the test may.
    let device = dir.join("device");
    if Command::new("mknod").arg(&device).args(["c", "1", "7"]).stderr(Stdio::null()).status().unwrap().success() {
        refused(&["report", "--from", from, "--out", device.to_str().unwrap()], &special(&device, "device"));
        assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device(), "the device is kept");
    }
    let (loop_a, loop_b) = (dir.join("loop-a"), dir.join("loop-b"));
    symlink(&loop_b, &loop_a).unwrap();
    symlink(&loop_a, &loop_b).unwrap();
    refused(&["report", "--from", from, "--out", loop_a.to_str().unwrap()], "a symbolic link that does not lead");
    let (target, link) = (dir.join("target.html"), dir.join("link.html"));
    std::fs::write(&target, "old").unwrap();
    symlink(&target, &link).unwrap();
    let output = contention(&["report", "--from", from, "--out", link.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(std::fs::read_to_string(&target).unwrap().starts_with("<!DOCTYPE html>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn from_names_a_file_or_a_link_loop_as_what_it_is() {
    let dir = scratch("from-kinds");
    let file = dir.join("not-a-run");
    std::fs::write(&file, "hello").unwrap();
    refused(
        &["report", "--from", file.to_str().unwrap(), "--out", "-"],
        "is not a readable run pack: does not start with 'contention-pack 1': not a pack",
    );
    let (loop_a, loop_b) = (dir.join("loop-a"), dir.join("loop-b"));
    symlink(&loop_b, &loop_a).unwrap();
    symlink(&loop_a, &loop_b).unwrap();
    refused(&["report", "--from", loop_a.to_str().unwrap(), "--out", "-"], "Too many levels of symbolic links");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Rewrites the copied run's manifest with `edit`, then expects `report --from` to refuse it.
fn manifest_refused(name: &str, edit: impl FnOnce(&mut Value), message: &str) {
    let run = fixture_copy(name);
    let path = run.join("manifest.json");
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut manifest);
    std::fs::write(&path, serde_json::to_string(&manifest).unwrap()).unwrap();
    refused(&["report", "--from", run.to_str().unwrap(), "--out", "-"], message);
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn manifest_contents_are_checked_before_they_are_trusted() {
    let stride = |manifest: &mut Value| -> usize {
        let experiments = manifest["experiments"].as_array().unwrap();
        experiments.iter().position(|record| record["name"] == "stride").unwrap()
    };
    manifest_refused(
        "escape",
        |m| {
            let index = stride(m);
            m["experiments"][index]["file"] = "../../../../etc/passwd".into();
        },
        "file: '../../../../etc/passwd': the experiment's file is stride.csv, in the run folder",
    );
    manifest_refused(
        "twice",
        |m| {
            let index = stride(m);
            let record = m["experiments"][index].clone();
            m["experiments"].as_array_mut().unwrap().push(record);
        },
        "'stride' is listed twice",
    );
    manifest_refused(
        "no-rows",
        |m| {
            let index = stride(m);
            m["experiments"][index]["rows"] = 0.into();
        },
        "rows: 0: 1 to 1048576",
    );
    manifest_refused(
        "share",
        |m| {
            let index = stride(m);
            m["experiments"][index]["background_share"] = 5.0.into();
        },
        "background_share: 5: a share from 0 to 1",
    );
    manifest_refused(
        "elapsed",
        |m| {
            let index = stride(m);
            m["experiments"][index]["elapsed_s"] = (-3.0).into();
        },
        "elapsed_s: -3: seconds from 0 to 172800",
    );
    manifest_refused(
        "runtime-elapsed",
        |m| {
            let index = m["experiments"].as_array().unwrap().iter().position(|r| r["name"] == "gc").unwrap();
            m["experiments"][index]["config"]["go"]["elapsed_s"] = 1e300.into();
        },
        "config's runtime elapsed_s: 1e300: seconds from 0 to 172800",
    );
    manifest_refused(
        "version-text",
        |m| m["format_version"] = "3".into(),
        "format_version = \"3\" is not a whole number",
    );
}
