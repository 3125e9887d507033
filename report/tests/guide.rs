//! The workshop's guide and handout cannot rot: every command in their `sh` blocks is run
//! here, in order, in a scratch folder, as a laptop in the room would run it. The room is a
//! real one on loopback (the guide's `--bind 0.0.0.0` becomes 127.0.0.1: tests stay on this
//! machine) and the guide's example address and code are replaced by its own; a measuring
//! command must carry `--quick`. `just RECIPE` runs the recipe's `contention` line from the
//! justfile; the setup steps (`cargo install --locked --path report`, `python3
//! notebooks/setup.py`) are CI's notebook step, checked to be in `.ci/run`. No line is a bash
//! step: a student's laptop may be a Mac or a Windows machine.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::room::{Server, CODE};
use common::scratch;

/// The guide's example room address and code, replaced by the test room's.
const EXAMPLE_URL: &str = "http://192.168.1.20:8765";
const EXAMPLE_CODE: &str = "k7m3qx";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every line of the `sh` blocks of `file` under docs/, comments and blank lines dropped.
fn commands_of(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs").join(file)).unwrap();
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            command if in_sh && !command.is_empty() => {
                commands.push(command.split(" #").next().unwrap().trim().to_string())
            }
            _ => {}
        }
    }
    commands
}

/// The `contention` arguments of `just RECIPE ARGS`, from the recipe's line in the justfile.
fn just_recipe(recipe: &str, args: &[&str]) -> Vec<String> {
    let justfile = std::fs::read_to_string(root().join("justfile")).unwrap();
    let body = justfile
        .split(&format!("\n{recipe} *flags:\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("the justfile has no recipe `{recipe} *flags`"));
    let line = body.lines().next().unwrap().trim();
    let rest = line
        .strip_prefix("{{contention}} ")
        .unwrap_or_else(|| panic!("`just {recipe}` is not a contention line: {line}"));
    let mut words: Vec<String> =
        rest.split_whitespace().filter(|word| *word != "{{flags}}").map(String::from).collect();
    words.extend(args.iter().map(|arg| arg.to_string()));
    words
}

/// A run folder the guide names by its label (`data/runs/seat-12`): the one `run` made.
fn resolve_run(word: &str, cwd: &Path) -> String {
    let Some(label) = word.strip_prefix("data/runs/") else { return word.to_string() };
    let made = std::fs::read_dir(cwd.join("data/runs")).map(|entries| {
        entries
            .filter_map(Result::ok)
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .find(|name| name.starts_with(label))
    });
    made.ok().flatten().map_or(word.to_string(), |name| format!("data/runs/{name}"))
}

/// Runs one `contention` command line of the guide in `cwd`, against `room` (started where
/// the line names the guide's example room).
fn run_contention(words: &[String], cwd: &Path, room: &mut Option<Server>) {
    if words.iter().any(|word| word.contains(EXAMPLE_URL)) && room.is_none() {
        *room = Some(Server::start(&cwd.join("data/room"), &[]));
    }
    let url = room.as_ref().map(Server::url).unwrap_or_default();
    let words: Vec<String> = words
        .iter()
        .map(|word| word.replace(EXAMPLE_URL, &url).replace(EXAMPLE_CODE, CODE))
        .map(|word| resolve_run(&word, cwd))
        .collect();
    let measures = matches!(words.first().map(String::as_str), Some("run"))
        || (words.first().map(String::as_str) == Some("report")
            && !words.iter().any(|w| w == "--from" || w == "--compare"));
    assert!(
        !measures || words.iter().any(|word| word == "--quick"),
        "a command the guide shows measures without --quick: {words:?}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_contention"))
        .args(&words)
        .current_dir(cwd)
        .env("CONTENTION_DATA_DIR", cwd.join("seat-tokens"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "`contention {}` failed ({}):\n{}\n{}",
        words.join(" "),
        output.status,
        common::stdout(&output),
        common::stderr(&output)
    );
}

/// The guide's room flags the test room takes as they are: all but `--bind` (the test room
/// stays on loopback) and `--code` (it has the test's own, which the guide's stands for).
fn room_flags<'a>(flags: &[&'a str]) -> Vec<&'a str> {
    let mut kept = Vec::new();
    let mut flags = flags.iter();
    while let Some(&flag) = flags.next() {
        match flag {
            "--bind" | "--code" => {
                flags.next();
            }
            _ => kept.push(flag),
        }
    }
    kept
}

/// Runs every command of `file` in order; the room's own line starts the test room.
fn run_guide(file: &str) {
    let cwd = scratch(&format!("guide-{file}"));
    let mut room: Option<Server> = None;
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    for command in commands_of(file) {
        let words: Vec<&str> = command.split_whitespace().collect();
        match words.as_slice() {
            ["python3", "notebooks/setup.py"] | ["cargo", "install", "--locked", "--path", "report"] => {
                assert!(ci.contains(&command), ".ci/run does not run `{command}`")
            }
            ["contention", "room", "serve", flags @ ..] => {
                assert!(words.contains(&"--code") && words.contains(&EXAMPLE_CODE), "the room line gives its code");
                assert!(room.is_none(), "the guide starts its room before any command sends to it");
                room = Some(Server::start(&cwd.join("data/room"), &room_flags(flags)));
            }
            ["contention", args @ ..] | ["just", args @ ..] => {
                let words: Vec<String> = match words[0] {
                    "just" => just_recipe(args[0], &args[1..]),
                    _ => args.iter().map(|arg| arg.to_string()).collect(),
                };
                run_contention(&words, &cwd, &mut room);
            }
            _ => panic!("docs/{file} shows a command this test cannot run: {command}"),
        }
    }
    if let Some(room) = room {
        assert!(
            room.runs()["runs"].as_array().is_some_and(|runs| !runs.is_empty()),
            "the guide's run reached the room"
        );
        room.stop();
    }
}

#[test]
fn every_command_of_the_workshop_guide_runs() {
    assert!(commands_of("workshop.md").len() >= 5, "the guide's sh blocks were found");
    run_guide("workshop.md");
}

#[test]
fn every_command_of_the_handout_runs() {
    run_guide("handout.md");
}
