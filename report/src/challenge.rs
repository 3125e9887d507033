//! `contention challenge NAME`: the built-in baseline against the lab's reference fix, checked
//! and judged as a student's fix is, and sending a result to a live room. A command cannot
//! compile a student's file, so the line before the check says how a student checks their own:
//! the file `challenges/NAME.rs`, run as a cargo example, which saves its result for `--result`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use contention::challenge::{lines, Challenge, ChallengeResult, Plan};

use crate::bad_flag::bad_flag;
use crate::console::say;
use crate::progress::Reporter;
use crate::send::Room;

#[derive(Debug)]
pub struct ChallengeOptions {
    pub challenge: Challenge,
    pub plan: Plan,
    /// A result a challenge file saved, sent instead of checking the reference fix.
    pub result: Option<PathBuf>,
    pub send: Option<SendResult>,
}

/// Where a result goes, under which seat and words.
#[derive(Debug)]
pub struct SendResult {
    pub room: Room,
    pub code: String,
    pub seat: Option<String>,
    pub description: String,
}

/// How a student checks their own fix of `challenge`.
pub fn how_to_check_yours(challenge: Challenge) -> String {
    format!(
        "to check your own fix: edit challenges/{name}.rs (or the last cells of the article's notebook), then run \
         `cargo run --release --example challenge-{name}`; this command cannot compile your file, so it checks the \
         lab's reference fix in your place",
        name = challenge.name()
    )
}

pub fn run(options: &ChallengeOptions) -> Result<()> {
    let result = match &options.result {
        Some(path) => Some(saved(path, options.challenge)?),
        None => {
            say(&how_to_check_yours(options.challenge));
            let mut reporter = Reporter::new("challenge");
            let checked = options.challenge.check_reference(&options.plan, &mut |event| reporter.update(event))?;
            reporter.finish();
            lines(&checked).iter().for_each(|line| say(line));
            let seat = options.send.as_ref().and_then(|send| send.seat.as_deref());
            let description = options.send.as_ref().map_or("", |send| send.description.as_str());
            seat.map(|seat| ChallengeResult::of(&checked, seat, description)).transpose()?
        }
    };
    match (&options.send, result) {
        (Some(send), Some(result)) => post(send, &result),
        _ => Ok(()),
    }
}

/// The result a challenge file saved at `path`, checked as the room will check it.
fn saved(path: &std::path::Path, challenge: Challenge) -> Result<ChallengeResult> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let result: ChallengeResult = serde_json::from_str(&text)
        .map_err(|error| bad_flag(format!("{} is not a saved challenge result: {error}", path.display())))?;
    result.validate()?;
    if result.challenge != challenge {
        return Err(bad_flag(format!("{} holds a result of {}, not of {challenge}", path.display(), result.challenge)));
    }
    Ok(result)
}

fn post(send: &SendResult, result: &ChallengeResult) -> Result<()> {
    let url = &send.room.url;
    let json = serde_json::to_vec(result).context("encoding the result")?;
    let answer = crate::send::post_challenge(&send.room, &send.code, &json)
        .map_err(|why| anyhow::anyhow!("the result was not sent to {url}: {why}"))?;
    match answer.status {
        200 => {
            say(&format!("sent to {url}: {}", answer.line));
            Ok(())
        }
        status => Err(anyhow::anyhow!("the result was not kept: {url} answered {status}: {}", answer.line)),
    }
}
