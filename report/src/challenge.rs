//! `contention challenge NAME`: the built-in baseline against the lab's reference fix, checked
//! and judged as a student's fix is. A command cannot compile a student's file, so the line
//! before the check says how a student checks their own: the file `challenges/NAME.rs`, run
//! as a cargo example.

use anyhow::Result;
use contention::challenge::{lines, Challenge, Plan};

use crate::console::say;
use crate::progress::Reporter;

#[derive(Debug)]
pub struct ChallengeOptions {
    pub challenge: Challenge,
    pub plan: Plan,
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
    say(&how_to_check_yours(options.challenge));
    let mut reporter = Reporter::new("challenge");
    let checked = options.challenge.check_reference(&options.plan, &mut |event| reporter.update(event))?;
    reporter.finish();
    for line in lines(&checked) {
        say(&line);
    }
    Ok(())
}
