//! A notebook's checked fix reaches the room: each article's challenge check cell saves its
//! result in the lab's `data/challenges`, and the cell after it runs `contention challenge NAME
//! --result FILE` (through `contention::lab_cli::run`), which finds the room as `contention
//! send` does. Here that command line, read from the notebook, runs in a lab folder against a
//! real room on loopback, sent as CONTENTION_LABEL's fix; without a room it sends nothing,
//! says so and succeeds.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::room::{Server, CODE};
use common::{scratch, stderr, stdout};
use contention::challenge::{Challenge, ChallengeResult};
use contention::stats::Ratio;

/// Each notebook with a challenge, the id of its sending cell, and the challenge it sends.
const SENDING: [(&str, &str, &str); 6] = [
    ("03-padded-counters.ipynb", "challenge-send", "false-sharing"),
    ("04-gc-ratio.ipynb", "challenge-send", "allocation"),
    ("07-locks.ipynb", "challenge-send", "lock-across-wait"),
    ("solutions-a.ipynb", "challenge-solution-send", "false-sharing"),
    ("solutions-b.ipynb", "challenge-solution-send", "allocation"),
    ("solutions-c-locks.ipynb", "challenge-solution-send", "lock-across-wait"),
];

fn cell_source(notebook: &str, id: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../notebooks").join(notebook);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cells = json["cells"].as_array().unwrap();
    let cell = cells.iter().find(|cell| cell["id"] == id).unwrap_or_else(|| panic!("{notebook} has no cell {id}"));
    cell["source"].as_array().unwrap().iter().map(|line| line.as_str().unwrap()).collect()
}

/// The arguments the notebook's cell gives `contention`: `["challenge", "false-sharing", ...]`.
fn cell_args(notebook: &str, id: &str) -> Vec<String> {
    let source = cell_source(notebook, id);
    let list = source
        .split_once("lab_cli::run(&[")
        .and_then(|(_, rest)| rest.split_once("])"))
        .unwrap_or_else(|| panic!("{notebook}'s {id} cell has no lab_cli::run(&[...]): {source}"))
        .0;
    list.split(',').map(|word| word.trim().trim_matches('"').to_string()).collect()
}

/// A lab folder holding a result for `challenge` saved as the check cell saves it (under
/// the seat a notebook without a room names).
fn lab_with_saved(name: &str, challenge: Challenge) -> PathBuf {
    let lab = scratch(name);
    let ratio = Ratio { value: 2.0, low: 1.5, high: 2.5 };
    let result = ChallengeResult {
        seat: "this-laptop".into(),
        challenge,
        wrong: None,
        speedup: Some(ratio),
        goal: Some(ratio),
        reading: "faster, reaching the goal".into(),
        description: "padding".into(),
    };
    result.save(&lab.join("data/challenges")).unwrap();
    lab
}

/// Runs the cell's command line in `lab`, as `lab_cli::run` does from a notebook.
fn run_cell(args: &[String], lab: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
    command.args(args).current_dir(lab).env("CONTENTION_DATA_DIR", lab.join("tokens"));
    for name in ["CONTENTION_ROOM", "CONTENTION_CODE", "CONTENTION_LABEL"] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    command.output().unwrap()
}

#[test]
fn every_challenge_cell_sends_the_file_its_check_cell_saved() {
    for (notebook, id, name) in SENDING {
        let args = cell_args(notebook, id);
        let path = format!("data/challenges/{name}.json");
        assert_eq!(args, ["challenge", name, "--result", path.as_str()], "{notebook}");
        let check = cell_source(notebook, &id.replace("-send", "-check"));
        assert!(check.contains("result.save(std::path::Path::new(\"../data/challenges\"))"), "{notebook}: {check}");
        assert!(name.parse::<Challenge>().is_ok(), "{notebook} sends {name}, which the CLI does not know");
    }
}

#[test]
fn notebook_03s_challenge_reaches_a_room_on_loopback_as_the_seats_fix() {
    let lab = lab_with_saved("notebook-challenge", Challenge::FalseSharing);
    let room = Server::start(&lab.join("room"), &["--seats", "24"]);
    let url = room.url();
    let args = cell_args("03-padded-counters.ipynb", "challenge-send");
    let env = [("CONTENTION_ROOM", url.as_str()), ("CONTENTION_CODE", CODE), ("CONTENTION_LABEL", "seat-07")];
    let output = run_cell(&args, &lab, &env);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("kept seat-07's fix of false-sharing"), "{}", stdout(&output));
    assert!(stdout(&output).contains("seat-07's seat token is kept in"), "{}", stdout(&output));
    let (_, html) = room.request("GET", "/projector", b"");
    assert!(html.contains("data-seat=\"seat-07\""), "the board shows the seat's fix");
    let output = run_cell(&args, &lab, &env);
    assert!(output.status.success(), "the seat's token sent back: {}", stderr(&output));

    let output = run_cell(&args, &lab, &env[..2]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("CONTENTION_LABEL is not set"), "{}", stderr(&output));
}

#[test]
fn without_a_room_the_challenge_cell_sends_nothing_and_says_so() {
    let lab = lab_with_saved("notebook-challenge-home", Challenge::LockAcrossWait);
    let args = cell_args("07-locks.ipynb", "challenge-send");
    let output = run_cell(&args, &lab, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("Not sent: no room is set. To send your lock-across-wait result"),
        "{}",
        stdout(&output)
    );
    let output = run_cell(&cell_args("04-gc-ratio.ipynb", "challenge-send"), &lab, &[]);
    assert!(!output.status.success(), "a result not saved is named, not sent");
    assert!(stderr(&output).contains("data/challenges/allocation.json"), "{}", stderr(&output));
}
