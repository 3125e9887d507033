//! What every challenge file's `main` does: check the student's version, print the answer,
//! and, given `--seat SEAT` (and `--description "what you changed"`), save the result where
//! `contention challenge NAME --result FILE` sends it to the room (CONTENTION_ROOM's, or --send's).
//! Arguments follow `--`: `cargo run --release --example challenge-NAME -- --quick --seat seat-07`.

// A challenge file is a program whose answer is what it prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::ExitCode;

use contention::challenge::{lines, Challenge, ChallengeResult, Checked, Plan};
use contention::harness::{no_progress, Progress};
use contention::RunError;

/// Checks with `check` at the plan the arguments ask for, prints, saves; the exit code says
/// whether the check ran (a refused fix still exits 0: its answer is printed).
pub fn check_and_save(
    challenge: Challenge,
    check: impl FnOnce(&Plan, Progress) -> Result<Checked, RunError>,
) -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let value_of = |flag: &str| args.iter().position(|arg| arg == flag).and_then(|at| args.get(at + 1)).cloned();
    let checked = match check(&Plan::from_args(args.iter().cloned()), &mut no_progress) {
        Ok(checked) => checked,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    lines(&checked).iter().for_each(|line| println!("{line}"));
    let Some(seat) = value_of("--seat") else {
        println!("to send it to the room, run again with: -- --seat SEAT --description \"what you changed\"");
        return ExitCode::SUCCESS;
    };
    let description = value_of("--description").unwrap_or_default();
    let saved = ChallengeResult::of(&checked, &seat, &description)
        .map_err(|error| error.to_string())
        .and_then(|result| result.save(Path::new("data/challenges")));
    match saved {
        Ok(path) => {
            let path = path.display();
            println!(
                "saved {path}; send it with: contention challenge {challenge} --result {path} (to the room \
                 CONTENTION_ROOM names, or add --send URL --code CODE)"
            );
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("error: the result was not saved: {why}");
            ExitCode::from(2)
        }
    }
}
