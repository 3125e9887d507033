//! Article C's lock claims (C11-C14, C16), which the locks experiment answers. Until its
//! rows are in a run, each says so; plugging it in means answering these ids here from the
//! locks experiment's own claim findings.

use super::{Answer, Context, Status};

/// The ids the locks experiment answers.
pub const CLAIMS: [&str; 5] = ["C11", "C12", "C13", "C14", "C16"];

pub fn answer(_id: &str, _context: &Context) -> Answer {
    Answer::without_figure(Status::NotInRun, "measured by the locks experiment (not in this run)")
}
