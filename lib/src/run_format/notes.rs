//! What became of each experiment a run lists, when it is not simply complete (recovered,
//! interrupted, unreadable), in a sentence: the reader (`runs`) writes these notes
//! as it reads the run.

use serde::Serialize;

use super::ExperimentRecord;

/// How an experiment is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteKind {
    /// Its rows are shown, read from a whole CSV the manifest did not record as complete.
    Recovered,
    /// It did not finish: stopped (Ctrl-C, a kill, a crash) or failed before its rows were saved.
    Interrupted,
    /// Its file is there but cannot be read (damaged, altered, or a value out of range).
    Unreadable,
}

/// One experiment of a run shown otherwise than whole, and why, in a sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExperimentNote {
    pub experiment: String,
    pub kind: NoteKind,
    pub text: String,
}

impl ExperimentNote {
    pub(crate) fn new(record: &ExperimentRecord, kind: NoteKind, text: String) -> Self {
        Self { experiment: record.name.clone(), kind, text }
    }

    /// Whether the experiment's rows are shown despite the note.
    pub fn shown(&self) -> bool {
        self.kind == NoteKind::Recovered
    }
}
