//! What every challenge file's `main` does: check the student's version, print the answer,
//! and, given `--seat SEAT` (and `--description "what you changed"`), save the result where
//! `contention challenge NAME --result FILE --send URL --code CODE` sends it to the room.
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
    match ChallengeResult::of(&checked, &seat, &description).map_err(|error| error.to_string()).and_then(save) {
        Ok(path) => {
            println!(
                "saved {path}; send it with: contention challenge {challenge} --result {path} --send URL --code CODE"
            );
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("error: the result was not saved: {why}");
            ExitCode::from(2)
        }
    }
}

/// Writes `result` whole to data/challenges/NAME.json (a staged file, then a rename).
fn save(result: ChallengeResult) -> Result<String, String> {
    let folder = Path::new("data/challenges");
    std::fs::create_dir_all(folder).map_err(|error| format!("creating {}: {error}", folder.display()))?;
    let path = folder.join(format!("{}.json", result.challenge));
    let staged = folder.join(format!(".{}.json.staged", result.challenge));
    let json = serde_json::to_vec_pretty(&result).map_err(|error| error.to_string())?;
    std::fs::write(&staged, json).map_err(|error| format!("writing {}: {error}", staged.display()))?;
    std::fs::rename(&staged, &path).map_err(|error| format!("keeping {}: {error}", path.display()))?;
    Ok(path.display().to_string())
}
