//! What became of each experiment a run lists, when it is not simply complete. A finished
//! experiment is never lost: a kill between saving a CSV and saving the manifest leaves the
//! experiment `running` beside a whole CSV, which is read back (it parses completely and
//! every value checks) and marked recovered; a CSV named after an experiment that no record
//! lists is recovered the same way. An experiment stopped before its rows were saved is
//! interrupted; one whose file cannot be read is not shown, with why, and the rest of the
//! run is read as usual. Temporary files (`.<name>.tmp-<pid>`) are never read.

use super::files::RunFiles;
use crate::registry::Experiment;
use crate::run_format::{ExperimentNote, ExperimentRecord, NoteKind, Run, State};

impl Run {
    /// Reads the rows of one record as far as its state allows; a note says what happened
    /// when the record is not complete and read whole.
    pub(super) fn read_record(&mut self, files: &RunFiles, record: &ExperimentRecord) -> Option<ExperimentNote> {
        let (name, file) = (&record.name, &record.file);
        let unreadable = |error| ExperimentNote::new(record, NoteKind::Unreadable, format!("not shown: {error}"));
        match record.state {
            State::Complete => self.read_experiment(files, record, Some(record.rows)).err().map(unreadable),
            State::Failed => {
                let why = record.failure.as_deref().unwrap_or("no reason recorded");
                Some(ExperimentNote::new(record, NoteKind::Interrupted, format!("interrupted: {name} failed: {why}")))
            }
            State::Running if !holds_rows(files, &self.dir, file) => Some(ExperimentNote::new(
                record,
                NoteKind::Interrupted,
                format!(
                    "interrupted: {name} started at {} and did not finish (the run was stopped before its rows \
                     were saved)",
                    record.started_utc
                ),
            )),
            State::Running => Some(match self.read_experiment(files, record, None) {
                Ok(rows) => {
                    let saved = self.manifest.experiments.iter_mut().find(|saved| saved.name == *name);
                    saved.into_iter().for_each(|saved| saved.rows = rows);
                    recovered(record)
                }
                Err(error) => unreadable(error),
            }),
        }
    }

    /// Recovers every whole CSV named after an experiment that the manifest does not list.
    pub(super) fn recover_unlisted(&mut self, files: &RunFiles) {
        for name in Experiment::names() {
            let file = format!("{name}.csv");
            if self.manifest.record(name).is_some() || !holds_rows(files, &self.dir, &file) {
                continue;
            }
            let mut record = ExperimentRecord::unlisted(name, 0);
            let note = match self.read_experiment(files, &record, None) {
                Ok(rows) => {
                    record.rows = rows;
                    let text = format!("recovered: {file} was complete but missing from the manifest (config unknown)");
                    ExperimentNote::new(&record, NoteKind::Recovered, text)
                }
                Err(error) => {
                    let text = format!("not shown: {file} is missing from the manifest and cannot be read: {error}");
                    ExperimentNote::new(&record, NoteKind::Unreadable, text)
                }
            };
            if note.shown() {
                self.manifest.experiments.push(record);
            }
            self.notes.push(note);
        }
    }
}

/// Whether the run holds `file` with something past its header: a file of a header alone
/// (or nothing) holds no measurement to recover. A file that cannot be read counts as
/// holding rows, so reading it names what is wrong.
fn holds_rows(files: &RunFiles, dir: &std::path::Path, file: &str) -> bool {
    files.has(dir, file)
        && files.text(dir, file).map_or(true, |text| text.lines().skip(1).any(|line| !line.trim().is_empty()))
}

/// The note on a CSV saved whole while its record still says running.
fn recovered(record: &ExperimentRecord) -> ExperimentNote {
    let (name, file) = (&record.name, &record.file);
    ExperimentNote::new(
        record,
        NoteKind::Recovered,
        format!(
            "recovered: {file} was complete but the manifest still listed {name} as running (the run \
             was stopped between saving the rows and the manifest)"
        ),
    )
}
