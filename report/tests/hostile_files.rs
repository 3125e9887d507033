//! Issue 25, items 8, 10 and 11: no output names an input; messages name the flag that is
//! wrong, its value as given and what is allowed; usage errors exit 2 (a trailing slash
//! too); `-` is standard output for `pack -o`; replaced files keep their mode; a dead
//! writer's temporary files go; a run with nothing in it, or a file of a header alone, is
//! named for what it is.
#![cfg(unix)] // links, FIFOs, file modes and shell scripts made as Unix makes them
#![allow(clippy::print_stdout)] // a test prints why it checks an unknown instead of a measured fact

mod common;

use std::os::unix::fs::PermissionsExt as _;

use common::packs::*;
use common::*;

fn refused(args: &[&str], message: &str) {
    let output = contention(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
    assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
}

#[test]
fn no_output_may_name_an_input_of_the_same_command() {
    let dir = scratch("hostile-inputs");
    let run = write_folder(&dir, "run", &fixture_files());
    let pack = write_pack(&dir, "run.contention-pack", &fixture_files());
    let (run_arg, pack_arg) = (run.to_str().unwrap(), pack.to_str().unwrap());
    let manifest = run.join("manifest.json");
    let manifest_arg = manifest.to_str().unwrap();
    let before = (std::fs::read(&manifest).unwrap(), std::fs::read(&pack).unwrap());
    let own_file =
        format!("invalid out = {manifest_arg}: it is a file of the run folder {run_arg}, which this command");
    refused(&["report", "--from", run_arg, "--out", manifest_arg], &own_file);
    refused(&["report", "--compare", pack_arg, run_arg, "--out", &format!("{run_arg}/stride.csv")], "it is a file of");
    refused(&["pack", run_arg, "-o", manifest_arg], &own_file);
    refused(&["report", "--from", pack_arg, "--out", pack_arg], &format!("it is {pack_arg}, which this command reads"));
    refused(&["pack", pack_arg, "-o", pack_arg], &format!("it is {pack_arg}, which this command reads"));
    assert_eq!((std::fs::read(&manifest).unwrap(), std::fs::read(&pack).unwrap()), before, "inputs untouched");
    // Beside the run, not in it, is fine.
    let output = contention(&["report", "--from", run_arg, "--out", dir.join("page.html").to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn messages_name_the_flag_the_value_as_given_and_what_is_allowed() {
    let dir = scratch("hostile-messages");
    let out = dir.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["run", "gc", "--ceiling-bytes", "0"], "invalid ceiling-bytes = 0: 1 to "),
        (&["run", "gc", "--ceiling-bytes", "1000"], "invalid ceiling-bytes = 1000: at least "),
        (
            &["run", "pool", "--rate", "18446744073709551616"],
            "invalid rate = 18446744073709551616: requests per second",
        ),
        (&["run", "pool", "--work-share", "1e-9"], "invalid work-share = 1e-9: a share from "),
        (&["run", "gc", "--seconds", "1e400"], "invalid seconds = 1e400: 0.001 to 600 seconds"),
        (&["run", "pool", "--queue-timeout-ms", "1e-9"], "invalid queue-timeout-ms = 1e-9: above 0 and at most 600000"),
        (&["run", "stride", "--threads=-1"], "invalid threads = -1: 1 to 256 threads for stride"),
        (&["run", "c2c", "--cpus", "0,,1"], "invalid cpus = 0,,1: an empty entry: CPU ids from 0 to 4095"),
        // A value no experiment takes is refused whether or not its experiment is selected.
        (&["run", "stride", "--quick", "--samples", "0", "--hit", "5", "--ratios", "0"], "invalid samples = 0: 1 to "),
        (&["run", "stride", "--quick", "--hit", "5"], "invalid hit = 5: a probability between 0 and 1"),
        (&["run", "stride", "--quick", "--ratios", "0"], "invalid ratios = 0: a whole percentage of at least 1"),
    ];
    for (args, message) in cases {
        refused(&[args, &["--out", out][..]].concat(), message);
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing measured");
    let run = fixture();
    let run_arg = run.to_str().unwrap();
    refused(&["pack", run_arg, "-o", out], "it is a folder; give a file name such as run-fixture.contention-pack");
    let slash = format!("{out}/page.html/");
    refused(&["report", "--from", run_arg, "--out", &slash], "it ends in '/', as a folder's name does");
    let crlf = dir.join("crlf.contention-pack");
    let pack = contention::runs::pack::encode(&fixture_files()).unwrap();
    std::fs::write(&crlf, pack.replace('\n', "\r\n")).unwrap();
    refused(
        &["report", "--from", crlf.to_str().unwrap(), "--out", "-"],
        "its lines end in CR LF (Windows line endings)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dash_writes_the_pack_to_standard_output() {
    let dir = scratch("hostile-dash");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contention"))
        .current_dir(&dir)
        .args(["pack", fixture().to_str().unwrap(), "-o", "-"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("contention-pack 1\nfile manifest.json "));
    assert!(!dir.join("-").exists(), "no file named '-'");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replaced_files_keep_their_mode_and_dead_writers_temporaries_go() {
    let dir = scratch("hostile-mode");
    let private = dir.join("private.html");
    std::fs::write(&private, "old").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("link.html");
    std::os::unix::fs::symlink(&private, &link).unwrap();
    let output = contention(&["report", "--from", fixture().to_str().unwrap(), "--out", link.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::metadata(&private).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    // A run killed mid-write left these (no process has a pid this large); a new run cleans them.
    let killed = write_folder(&dir.join("runs"), "killed", &fixture_files());
    let stale = killed.join(".manifest.json.tmp-4194304");
    std::fs::write(&stale, "{").unwrap();
    let output = contention(&[
        "run",
        "stride",
        "--quick",
        "--iters",
        "1000",
        "--trials",
        "1",
        "--out",
        dir.join("runs").to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // Removed where the OS can say its writer is gone; kept where it cannot (the fallback).
    match contention::platform::process_runs(4_194_304) {
        Ok(runs) => assert!(!runs && !stale.exists(), "the dead writer's temporary file is removed"),
        Err(why) => {
            println!("whether the writer runs is unknown ({why}): its temporary is kept");
            assert!(stale.exists(), "a temporary whose writer may run is kept");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn runs_with_nothing_measured_or_a_header_alone_are_named_for_what_they_are() {
    let dir = scratch("hostile-empty");
    let mut files = fixture_files();
    edit_manifest(&mut files, |manifest| manifest["experiments"] = serde_json::json!([]));
    files.retain(|(name, _)| name == "manifest.json");
    let empty = write_folder(&dir, "empty", &files);
    refused(&["report", "--from", empty.to_str().unwrap(), "--out", "-"], "holds no experiment: the run was stopped");
    let mut files = fixture_files();
    edit_manifest(&mut files, |manifest| {
        let stride = manifest["experiments"].as_array_mut().unwrap().iter_mut().find(|r| r["name"] == "stride");
        stride.unwrap()["state"] = "running".into();
    });
    let text = file_mut(&mut files, "stride.csv");
    *text = text.lines().next().unwrap().to_string() + "\n";
    let header_only = write_folder(&dir, "header", &files);
    let output = contention(&["report", "--from", header_only.to_str().unwrap(), "--out", "-"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("interrupted: stride started at"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("recovered: stride.csv"), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_page_reads_at_most_its_bound_of_run_files() {
    let dir = scratch("hostile-memory");
    let big = dir.join("big.contention-pack");
    // Sparse: nothing is written, and the bound refuses it before a byte is read.
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(contention::limits::saved::MAX_PAGE_BYTES + 1).unwrap();
    let output = contention(&["report", "--compare", fixture().to_str().unwrap(), big.to_str().unwrap(), "--out", "-"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = "bytes would take the runs read together past 268435456 bytes (the most one page reads";
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
