//! The CLI's lines on stdout and stderr. A stream that can no longer be written (a reader
//! that stopped reading: `| true`, `| head`; a closed descriptor) ends what it shows, never
//! the command: the run is saved and a `--send` still happens, so a write error here is
//! dropped rather than raised (`println!` would panic, exit 101).

use std::io::Write as _;

use contention::runs::{visible, visible_lines};

/// Messages and findings go to stdout so scripts can read them (progress goes to stderr);
/// control characters are shown rather than sent, line breaks kept.
pub fn say(message: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", visible_lines(message)).and_then(|()| stdout.flush());
}

/// What a saved run holds otherwise than whole goes to stderr (stdout may be the report),
/// on one line, its control characters shown rather than sent.
pub fn warn(message: &str) {
    to_stderr(&format!("note: {}", visible(message)));
}

/// A line on stderr as it is (progress, the one report of a failure).
pub fn to_stderr(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
