//! The real runtimes' processes (`go`, `javac`, `java`: their version probes, builds and
//! benchmarks) under a deadline. Each runs in a process group of its own and is killed with
//! the whole group (a build's compilers, a shell's children) when its deadline passes; the
//! error then says "timed out after N s", which the manifest records, and the model's rows,
//! already saved, stay the run's result. A program that never returns cannot hang a run.

use std::io::Read;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// A version probe answers in well under a second on any working install; one still going
/// after this is hung, whatever the budget.
pub const PROBE_LIMIT: Duration = Duration::from_secs(10);
/// How often a running child is asked whether it has finished.
const POLL: Duration = Duration::from_millis(20);
/// How long a killed group's pipes are waited for before the readers are left behind.
const DRAIN_AFTER_KILL: Duration = Duration::from_secs(1);

/// When a runtime's side of an experiment must be done: its budget (which the benchmark
/// honours itself, checked before each trial), a quarter more for the one trial it may run
/// over, and a few seconds to start: counted from now, for every child of that side.
pub fn side_deadline(budget: Duration) -> Instant {
    Instant::now() + budget + budget / 4 + Duration::from_secs(5)
}

/// The deadline of a version probe started now within `deadline`.
pub fn probe_deadline(deadline: Instant) -> Instant {
    deadline.min(Instant::now() + PROBE_LIMIT)
}

/// Runs `command` (named `what` in errors) to its end, or until `deadline`: its output, or
/// an error when it could not start or timed out (its group killed).
pub fn output_by(command: &mut Command, what: &str, deadline: Instant) -> Result<Output> {
    let started = Instant::now();
    let child = spawn(command).with_context(|| format!("starting {what}"))?;
    finish(child, what, started, deadline)
}

/// Like [`output_by`] for a probe: `None` when the program cannot be started (not
/// installed), an error only when it started and did not answer by `deadline`.
pub fn probe(command: &mut Command, what: &str, deadline: Instant) -> Result<Option<Output>> {
    let started = Instant::now();
    let Ok(child) = spawn(command) else { return Ok(None) };
    finish(child, what, started, deadline).map(Some)
}

fn spawn(command: &mut Command) -> std::io::Result<Child> {
    contention::platform::own_process_group(command);
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()
}

/// Waits for `child` and its pipes until `deadline`; past it, kills its group.
fn finish(mut child: Child, what: &str, started: Instant, deadline: Instant) -> Result<Output> {
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());
    let timed_out = || {
        let allowed = deadline.saturating_duration_since(started).as_secs_f64();
        anyhow::anyhow!("{what} timed out after {} s", contention::format::short_number(allowed))
    };
    let status = loop {
        if let Some(status) = child.try_wait().with_context(|| format!("waiting for {what}"))? {
            break status;
        }
        let now = Instant::now();
        if now >= deadline {
            kill_group(&mut child);
            let _ = child.wait();
            return Err(timed_out());
        }
        std::thread::sleep(POLL.min(deadline - now));
    };
    // The leader is done; a process it left in its group may still hold the pipes open.
    let (stdout, stderr) = match (drain(&stdout, deadline), drain(&stderr, deadline)) {
        (Some(out), Some(err)) => (out, err),
        _ => {
            kill_group(&mut child);
            let _ = (drain(&stdout, Instant::now() + DRAIN_AFTER_KILL), drain(&stderr, Instant::now()));
            return Err(timed_out());
        }
    };
    Ok(Output { status, stdout, stderr })
}

/// Everything `pipe` gives until it closes, read on a thread of its own (so a full pipe
/// never stalls the child while the other is read).
fn read_in_background(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        let _ = sender.send(bytes);
    });
    receiver
}

/// What the reader got, once its pipe closed before `deadline`.
fn drain(reader: &mpsc::Receiver<Vec<u8>>, deadline: Instant) -> Option<Vec<u8>> {
    reader.recv_timeout(deadline.saturating_duration_since(Instant::now())).ok()
}

/// Kills `child` with its process group ([`spawn`] made it the leader; Windows has no
/// groups to kill, only the child).
fn kill_group(child: &mut Child) {
    contention::platform::kill_process_group(child);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_child_that_answers_gives_its_output() {
        let deadline = Instant::now() + Duration::from_secs(30);
        let output = output_by(&mut shell("echo out; echo err >&2"), "echo", deadline).unwrap();
        assert!(output.status.success());
        assert_eq!((output.stdout.as_slice(), output.stderr.as_slice()), (&b"out\n"[..], &b"err\n"[..]));
    }

    #[test]
    fn a_hung_child_and_its_group_are_killed_at_the_deadline() {
        // The shell's background sleep holds stdout: it must die with the group, or the
        // pipe would never close.
        let started = Instant::now();
        let deadline = started + Duration::from_millis(300);
        let error = output_by(&mut shell("sleep 60 & sleep 60"), "`go build`", deadline).unwrap_err();
        assert_eq!(error.to_string(), "`go build` timed out after 0.3 s");
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
        // A leader that exits at once, leaving a child that holds the pipes.
        let deadline = Instant::now() + Duration::from_millis(300);
        let error = output_by(&mut shell("sleep 60 & exit 0"), "`java -version`", deadline).unwrap_err();
        assert!(error.to_string().contains("timed out after"), "{error}");
    }

    #[test]
    fn a_probe_of_a_missing_program_is_none() {
        let deadline = Instant::now() + Duration::from_secs(5);
        let found = probe(&mut Command::new("/nonexistent/contention-no-such-tool"), "probe", deadline).unwrap();
        assert!(found.is_none());
    }
}
