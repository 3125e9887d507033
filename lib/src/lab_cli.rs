//! The notebooks' way to the workshop's room. The lib makes no network calls, so a cell runs
//! the `contention` command (`send`, `guess`, `challenge`), which finds the room in
//! `CONTENTION_ROOM`, `CONTENTION_CODE` and `CONTENTION_LABEL` (set before Jupyter starts:
//! `notebooks/lab.py --room`) and keeps the seat's token. Without a room it sends nothing and
//! says so.

use std::process::Command;

/// The variable naming the `contention` binary to run (default: `contention` on the PATH).
pub const BIN: &str = "CONTENTION_BIN";

/// Runs `contention ARGS` in the lab's folder (the notebooks' parent, so `data/runs` is the
/// lab's) and returns what it printed, then why it failed if it did: a cell prints it.
pub fn run(args: &[&str]) -> String {
    let cli = std::env::var(BIN).unwrap_or_else(|_| "contention".into());
    match Command::new(&cli).args(args).current_dir("..").output() {
        Ok(done) => {
            let mut text = format!("{}{}", String::from_utf8_lossy(&done.stdout), String::from_utf8_lossy(&done.stderr));
            if !done.status.success() {
                text.push_str(&format!("Not sent: `contention {}` ended with {}.\n", args.join(" "), done.status));
            }
            text
        }
        Err(error) => format!(
            "Not sent: `{cli}` could not start ({error}): install it from the lab's folder with `cargo install --locked \
             --path report` (docs/setup.md), then restart the kernel.\n"
        ),
    }
}
