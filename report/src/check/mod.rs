//! `contention check`: is this laptop ready for the workshop? One line per check, as
//! `flutter doctor` and `brew doctor` print them, each that is not fine followed by what to do;
//! the last line is "ready", or the error naming what to fix (exit 1). `contention check`
//! exits 0 exactly when it printed "ready".
//!
//! A check that fails stops the workshop on this laptop (an unoptimised build, one CPU, a
//! room that does not answer); a warning names what the report will show as unknown or skip
//! (no Go, no JDK, threads that cannot be pinned). Every probe calls what the runs call (the
//! lib's machine facts, the harness's team, the runtimes' version probes), so the check says
//! what a run would meet. It takes seconds: the slowest part is the quick stride sweep
//! that the report's time is estimated from.

mod estimate;
mod probes;

use std::path::PathBuf;

use anyhow::Result;

use crate::console::say;
use crate::room::client::Room;

/// What `contention check` was asked.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// `--room URL`: whether this room answers.
    pub room: Option<Room>,
    /// `--code CODE --label SEAT` beside `--room`: the verdict is sent to the room as that
    /// seat's, so the teacher reads the class's readiness on the roster.
    pub send_as: Option<(String, String)>,
    /// Where the runs kept to estimate the quick report's time are (`data/examples`).
    pub examples: PathBuf,
}

/// How one check went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// Works, with a part of the lab missing or limited: what to do about it.
    Warn {
        fix: String,
    },
    /// The workshop cannot run here until this is fixed.
    Fail {
        fix: String,
    },
}

/// One line of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub name: &'static str,
    /// What was found, e.g. "2 threads pinned to CPUs 0,1".
    pub found: String,
    pub status: Status,
}

impl Check {
    fn line(&self) -> String {
        let (mark, fix) = match &self.status {
            Status::Ok => ("[ok]", None),
            Status::Warn { fix } => ("[!] ", Some(fix)),
            Status::Fail { fix } => ("[x] ", Some(fix)),
        };
        let first = format!("{mark} {:<16} {}", self.name, self.found);
        match fix {
            Some(fix) => format!("{first}\n       to do: {fix}"),
            None => first,
        }
    }
}

/// Runs every check, printing each line as it is known, then the verdict.
pub fn run(options: &CheckOptions) -> Result<()> {
    let started = std::time::Instant::now();
    let mut checks = Vec::new();
    let mut record = |check: Check| {
        say(&check.line());
        checks.push(check);
    };
    record(probes::build());
    record(probes::cpus_and_pinning());
    record(probes::timer());
    record(probes::kernel_settings());
    let runtimes = [(probes::go(), "Go"), (probes::jdk(), "JVM")];
    // The runtimes a quick report runs beside its models here, by the names runs give them.
    let runtimes_here: Vec<&str> =
        runtimes.iter().filter(|(check, _)| check.status == Status::Ok).map(|&(_, runtime)| runtime).collect();
    runtimes.into_iter().for_each(|(check, _)| record(check));
    record(estimate::quick_report(&options.examples, &runtimes_here));
    if let Some(room) = &options.room {
        record(probes::room(room));
    }
    let took = contention::format::seconds(started.elapsed().as_secs_f64());
    let line = verdict(&checks, &took);
    if let (Some(room), Some((code, seat))) = (&options.room, &options.send_as) {
        send_verdict(room, code, seat, &line);
    }
    match line.as_str() {
        "ready" => {
            say("ready");
            Ok(())
        }
        not_ready => anyhow::bail!("{not_ready} (the lines marked [x] above say how)"),
    }
}

/// Prints the tally; the verdict line: "ready", or "not ready: fix " and what to fix.
fn verdict(checks: &[Check], took: &str) -> String {
    let failed: Vec<&str> =
        checks.iter().filter(|check| matches!(check.status, Status::Fail { .. })).map(|check| check.name).collect();
    let warned = checks.iter().filter(|check| matches!(check.status, Status::Warn { .. })).count();
    let fine = checks.len() - failed.len() - warned;
    say(&format!(
        "checked in {took}: {fine} fine, {warned} with a warning (that part is skipped or shown as unknown), {} to fix",
        failed.len()
    ));
    match failed.is_empty() {
        true => "ready".to_string(),
        false => format!("not ready: fix {}", failed.join(", ")),
    }
}

/// Sends the verdict line to the room as `seat`'s, with the seat's token; a room that does
/// not keep it is named (the room line above already says whether it answers).
fn send_verdict(room: &Room, code: &str, seat: &str, line: &str) {
    let token = crate::seat_tokens::kept(&room.url, seat);
    match crate::room::client::post_ready(room, code, seat, line, token.as_deref()) {
        Ok(answer) if answer.status == 200 => {
            say(&format!("sent to {}: {}", room.url, answer.line));
            crate::seat_tokens::keep_and_say(&room.url, Some(seat), answer.token.as_deref());
        }
        Ok(answer) => {
            say(&format!("the room did not keep this check: {} answered {}: {}", room.url, answer.status, answer.line))
        }
        Err(why) => say(&format!("this check was not sent to {}: {why}", room.url)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(status: Status) -> Check {
        Check { name: "build", found: "found".into(), status }
    }

    #[test]
    fn a_failed_check_makes_the_verdict_name_it() {
        let checks = [check(Status::Ok), check(Status::Fail { fix: "rebuild".into() })];
        assert_eq!(verdict(&checks, "1.0 s"), "not ready: fix build");
    }

    #[test]
    fn warnings_alone_are_ready() {
        assert_eq!(verdict(&[check(Status::Warn { fix: "install Go".into() })], "1 s"), "ready");
    }

    #[test]
    fn a_line_that_is_not_fine_says_what_to_do() {
        assert_eq!(
            check(Status::Warn { fix: "install Go".into() }).line(),
            "[!]  build            found\n       to do: install Go"
        );
        assert_eq!(check(Status::Ok).line(), "[ok] build            found");
    }
}
