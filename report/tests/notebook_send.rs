//! A notebook's runs reach the room: each measuring notebook ends with a cell that runs
//! `contention send EXPERIMENT...` (a quick `run ... --send` under CONTENTION_LABEL), the
//! binary itself with no shell between, so it runs the same on every OS. Here that command
//! line, read from the notebook, runs against a real room on loopback; without a room set it
//! sends nothing and says why. The prediction cell's guess (`contention guess`) reaches the
//! room before the run, with the seat's token the run then carries.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::room::{Server, CODE};
use common::scratch;

/// The notebooks whose measurements a student sends (06 compares saved runs; it measures none).
const SENDING: [&str; 7] = [
    "00-your-machine.ipynb",
    "01-false-sharing-stride-sweep.ipynb",
    "02-four-way-control.ipynb",
    "03-padded-counters.ipynb",
    "04-gc-ratio.ipynb",
    "05-pool-sizing.ipynb",
    "07-locks.ipynb",
];

fn notebooks() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../notebooks")
}

/// The arguments the notebook's send cell gives `contention`: `["send", "stride"]`.
fn send_cell_args(notebook: &str) -> Vec<String> {
    let text = std::fs::read_to_string(notebooks().join(notebook)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cell = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|cell| cell["id"] == "send-to-room")
        .unwrap_or_else(|| panic!("{notebook} has no cell with id send-to-room"));
    let source: String = cell["source"].as_array().unwrap().iter().map(|line| line.as_str().unwrap()).collect();
    let list = source
        .split_once("contention::lab_cli::run(&[")
        .and_then(|(_, rest)| rest.split_once("])"))
        .unwrap_or_else(|| panic!("{notebook}'s send cell has no contention::lab_cli::run(&[...]): {source}"))
        .0;
    list.split(',').map(|word| word.trim().trim_matches('"').to_string()).collect()
}

/// Runs `contention ARGS` as a notebook cell does, with only the room variables in `env` set,
/// the seat's token kept in `data` (CONTENTION_DATA_DIR).
fn cell_command(args: &[String], env: &[(&str, &str)], data: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
    command.args(args).env("CONTENTION_DATA_DIR", data);
    for name in ["CONTENTION_ROOM", "CONTENTION_CODE", "CONTENTION_LABEL"] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    command.output().unwrap()
}

/// Runs the send cell's command line, as the kernel does, into `out`.
fn send(args: &[String], env: &[(&str, &str)], out: &Path) -> Output {
    let mut args = args.to_vec();
    args.extend(["--out".to_string(), out.display().to_string()]);
    cell_command(&args, env, &out.with_file_name("seat-tokens"))
}

#[test]
fn every_measuring_notebook_sends_experiments_the_cli_knows() {
    let help = common::stdout(&common::contention(&["run", "--help"]));
    for notebook in SENDING {
        let args = send_cell_args(notebook);
        assert_eq!(args[0], "send", "{notebook}: {args:?}");
        assert!(args.len() > 1, "{notebook}'s send cell names no experiment");
        for experiment in &args[1..] {
            assert!(
                help.contains(&format!("- {experiment}:")),
                "{notebook} sends `{experiment}`, which `run` does not know"
            );
        }
    }
}

#[test]
fn notebook_00s_send_cell_reaches_a_room_on_loopback() {
    let dir = scratch("notebook-send");
    let room = Server::start(&dir.join("room"), &[]);
    let url = room.url();
    let env = [("CONTENTION_ROOM", url.as_str()), ("CONTENTION_CODE", CODE), ("CONTENTION_LABEL", "seat-nb")];
    let output = send(&send_cell_args(SENDING[0]), &env, &dir.join("runs"));
    let said = common::stdout(&output);
    assert!(
        output.status.success(),
        "contention send failed ({}):\n{said}\n{}",
        output.status,
        common::stderr(&output)
    );
    let runs = room.runs();
    assert_eq!(runs["runs"].as_array().map(Vec::len), Some(1), "one run reached the room: {runs}\n{said}");
    assert_eq!(runs["runs"][0]["label"], "seat-nb");
    room.stop();
}

#[test]
fn without_a_room_the_send_cell_sends_nothing_and_says_why() {
    let out = scratch("notebook-send-none").join("runs");
    let args = send_cell_args(SENDING[1]);
    let output = send(&args, &[], &out);
    assert!(output.status.success(), "no room is not a failure: {}", common::stderr(&output));
    assert!(common::stdout(&output).starts_with("Not sent: no room is set."), "{}", common::stdout(&output));
    assert!(!out.exists(), "nothing was measured or saved");

    let output = send(&args, &[("CONTENTION_ROOM", "http://127.0.0.1:9"), ("CONTENTION_CODE", CODE)], &out);
    assert_eq!(output.status.code(), Some(1));
    assert!(common::stderr(&output).contains("CONTENTION_LABEL is not set"), "{}", common::stderr(&output));
    assert!(!out.exists(), "nothing was measured or saved");
}

#[test]
fn a_notebooks_guess_reaches_the_room_before_its_run_and_its_run_follows_with_the_seats_token() {
    let dir = scratch("notebook-guess");
    let room = Server::start(&dir.join("room"), &[]);
    let url = room.url();
    let env = [("CONTENTION_ROOM", url.as_str()), ("CONTENTION_CODE", CODE), ("CONTENTION_LABEL", "seat-nb")];
    let data = dir.join("seat-tokens");
    // Notebook 00's guess cell, as Prediction::send_to_room runs it.
    let guessed = cell_command(&["guess".into(), "two-threads=1.5".into()], &env, &data);
    let said = format!("{}{}", common::stdout(&guessed), common::stderr(&guessed));
    assert!(guessed.status.success(), "contention guess failed ({}): {said}", guessed.status);
    assert!(said.contains("kept 1 guesses of seat-nb"), "{said}");
    assert!(data.join("seat-tokens.json").is_file(), "the seat's token is kept: {said}");
    // Another laptop guessing for the same seat holds no token: refused, and says why.
    let other = cell_command(&["guess".into(), "two-threads=9".into()], &env, &dir.join("other-laptop"));
    assert!(!other.status.success());
    assert!(
        common::stderr(&other).contains("held by the laptop that first sent or guessed"),
        "{}",
        common::stderr(&other)
    );
    // The seat's run follows from the same laptop, with its token.
    let sent = send(&send_cell_args(SENDING[0]), &env, &dir.join("runs"));
    assert!(sent.status.success(), "{}{}", common::stdout(&sent), common::stderr(&sent));
    assert_eq!(room.runs()["runs"].as_array().map(Vec::len), Some(1));
    // Now the guess is locked: its run has arrived.
    let again = cell_command(&["guess".into(), "two-threads=2".into()], &env, &data);
    assert!(common::stderr(&again).contains("seat-nb's guess is locked"), "{}", common::stderr(&again));
    room.stop();
}

#[test]
fn without_a_room_a_guess_sends_nothing_and_a_bad_guess_is_named() {
    let data = scratch("notebook-guess-none");
    let output = cell_command(&["guess".into(), "padded=3".into()], &[], &data);
    assert!(output.status.success(), "no room is not a failure: {}", common::stderr(&output));
    assert!(common::stdout(&output).starts_with("Not sent: no room is set."), "{}", common::stdout(&output));
    let output = cell_command(&["guess".into(), "padding=3".into()], &[], &data);
    assert_eq!(output.status.code(), Some(2), "{}", common::stderr(&output));
    assert!(
        common::stderr(&output).contains("invalid effect = padding: one of two-threads"),
        "{}",
        common::stderr(&output)
    );
}
