//! Issue 35, item 3: a closed stdout never panics a command. `run ... | true` used to panic
//! (exit 101, broken pipe) at its first finding; now the run is saved, the command exits 0
//! and a `--send` still happens. Stderr closed as well changes nothing.

mod common;

use std::process::{Command, Output, Stdio};

use common::room::{Server, CODE};
use common::*;

/// `contention args` with stdout a pipe whose reader is gone before the first line (as
/// `| true` leaves it), and stderr closed too when `close_stderr`.
fn with_closed_stdout(args: &[&str], close_stderr: bool) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_contention"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(if close_stderr { Stdio::null() } else { Stdio::piped() })
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn a_run_into_a_closed_pipe_is_saved_and_exits_0() {
    let out = scratch("closed-stdout");
    let out_arg = out.to_str().unwrap();
    let args = ["run", "locks", "--quick", "--no-java", "--cases", "uncontended", "--out", out_arg];
    for close_stderr in [false, true] {
        let output = with_closed_stdout(&args, close_stderr);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    }
    let runs = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(runs, 2, "both runs saved");
    let report = with_closed_stdout(&["report", "--from", &fixture().to_string_lossy(), "--out", "-"], false);
    assert_eq!(report.status.code(), Some(0), "{}", stderr(&report));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_run_into_a_closed_pipe_still_sends() {
    let scratch_dir = scratch("closed-stdout-send");
    let server = Server::start(&scratch_dir.join("room"), &[]);
    let out = scratch_dir.join("runs");
    let url = server.url();
    let args = ["run", "locks", "--quick", "--no-java", "--cases", "uncontended", "--label", "seat-pipe", "--out"];
    let mut args: Vec<&str> = args.to_vec();
    args.extend([out.to_str().unwrap(), "--send", &url, "--code", CODE]);
    let output = with_closed_stdout(&args, false);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(server.runs()["runs"][0]["label"], "seat-pipe", "the run reached the room");
    drop(server);
    std::fs::remove_dir_all(&scratch_dir).unwrap();
}
