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
use crate::room::client::Room;

#[derive(Debug)]
pub struct ChallengeOptions {
    pub challenge: Challenge,
    pub plan: Plan,
    /// A result a challenge file saved, sent instead of checking the reference fix.
    pub result: Option<PathBuf>,
    pub send: Destination,
}

/// Where a checked or saved result goes.
#[derive(Debug)]
pub enum Destination {
    Room(SendResult),
    /// Why a saved result goes nowhere (no room is set): said, and the command succeeds.
    NotSent(String),
    /// A reference check sent nowhere, as asked.
    Nowhere,
}

/// Where a result goes, under which seat and words.
#[derive(Debug)]
pub struct SendResult {
    pub room: Room,
    pub code: String,
    /// The seat it is sent as (a saved result's own seat when `None`).
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
            match &options.send {
                Destination::Room(SendResult { seat: Some(seat), description, .. }) => {
                    Some(ChallengeResult::of(&checked, seat, description)?)
                }
                _ => None,
            }
        }
    };
    match (&options.send, result) {
        (Destination::Room(send), Some(result)) => post(send, result),
        (Destination::NotSent(why), Some(_)) => {
            say(why);
            Ok(())
        }
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

/// Posts `result` as `send`'s seat (its own when `send` names none), with the token this
/// laptop holds for that seat, keeping the one the room hands out.
fn post(send: &SendResult, mut result: ChallengeResult) -> Result<()> {
    if let Some(seat) = &send.seat {
        result.seat = seat.trim().to_string();
        result.validate()?;
    }
    let url = &send.room.url;
    let json = serde_json::to_vec(&result).context("encoding the result")?;
    let token = crate::seat_tokens::kept(url, &result.seat);
    let answer = crate::room::client::post_challenge(&send.room, &send.code, &json, token.as_deref())
        .map_err(|why| anyhow::anyhow!("the result was not sent to {url}: {why}"))?;
    match answer.status {
        200 => {
            say(&format!("sent to {url}: {}", answer.line));
            crate::seat_tokens::keep_and_say(url, Some(&result.seat), answer.token.as_deref());
            Ok(())
        }
        status => Err(anyhow::anyhow!("the result was not kept: {url} answered {status}: {}", answer.line)),
    }
}
