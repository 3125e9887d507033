//! The run format: a run folder (`data/runs/<label>-<utc>/`) holds `manifest.json` and one
//! CSV per experiment. This module owns a saved run's types (the manifest, each experiment's
//! rows behind its name, the notes on what was not read whole), the format version and the
//! typed CSV reader; it sits below the experiments, which read their rows from a [`Run`].
//! Reading a run from disk through the registry is the reader's (`runs`), above the registry.

mod error;
mod label;
mod manifest;
mod notes;
mod read;
mod resample;
pub(crate) mod rows;

pub use crate::checked::text::{check_text, clipped, is_hidden, shown, visible, visible_lines};
pub use crate::checked::{BadValue, CheckedRow};
pub use error::RunsError;
pub use label::{check_label, default_label, disambiguate, normalize_label, MAX_LABEL_CHARS};
pub use manifest::{
    ExperimentRecord, Manifest, Profile, State, FORMAT_VERSION, MANIFEST, OLDEST_READ_VERSION, RUNTIME_ELAPSED_KEY,
    RUNTIME_NOTE_KEY,
};
pub use notes::{ExperimentNote, NoteKind};
pub use read::{check_csv_size, parse_checked, parse_counted, parse_rows, read_rows, MAX_CSV_BYTES};
pub use resample::Bootstrap;
use rows::Loaded;
pub use rows::Trials;

use std::path::PathBuf;

use crate::experiment::SavedRow;
use crate::verdict::Verdict;

/// One saved run, read and checked (by the reader, `runs`): its experiments' rows, each behind its
/// experiment's name.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// The manifest's label, made unique among runs loaded together ([`load_all`]).
    pub label: String,
    /// Each experiment read, in the manifest's order.
    pub(crate) loaded: Vec<Loaded>,
    /// Experiments shown otherwise than whole (recovered), or not at all (interrupted,
    /// unreadable), each with why; the rest of the run is read as usual.
    pub notes: Vec<ExperimentNote>,
    /// The machine's fitness verdict over this run, judged when it was read
    /// (the machine check's `assess`): what each section says may hide an effect.
    pub verdict: Option<Verdict>,
}

impl Run {
    /// The rows of the experiment whose row type is `R`, when this run holds them.
    pub fn rows<R: SavedRow>(&self) -> Option<&[R]> {
        self.loaded.iter().find_map(|loaded| loaded.rows.as_any().downcast_ref::<Vec<R>>()).map(Vec::as_slice)
    }

    /// The rows of a real runtime measured beside a model (Go's beside the GC's), by type.
    pub fn runtime_rows<R: SavedRow>(&self) -> Option<&[R]> {
        let runtime_rows = self.loaded.iter().filter_map(|loaded| loaded.runtime_rows.as_ref());
        runtime_rows.into_iter().find_map(|rows| rows.as_any().downcast_ref::<Vec<R>>()).map(Vec::as_slice)
    }

    /// The rows of type `R`, an experiment's or a runtime's beside it, to reshape: what a
    /// test of a judge over rows builds its cases from.
    #[doc(hidden)]
    pub fn rows_mut<R: SavedRow>(&mut self) -> Option<&mut Vec<R>> {
        self.loaded.iter_mut().find_map(|loaded| {
            let Loaded { rows, runtime_rows, .. } = loaded;
            if rows.as_any().is::<Vec<R>>() {
                return rows.as_any_mut().downcast_mut::<Vec<R>>();
            }
            runtime_rows.as_mut().and_then(|runtime_rows| runtime_rows.as_any_mut().downcast_mut::<Vec<R>>())
        })
    }

    /// The manifest's record of the experiment whose rows are of type `R`, when it was read.
    pub fn record_of<R: SavedRow>(&self) -> Option<&ExperimentRecord> {
        let loaded = self.loaded.iter().find(|loaded| loaded.rows.as_any().is::<Vec<R>>())?;
        self.manifest.record(loaded.experiment)
    }

    /// Whether this run holds the rows of the experiment named `name`.
    pub fn holds_rows_of(&self, name: &str) -> bool {
        self.loaded.iter().any(|loaded| loaded.experiment == name)
    }

    /// What each experiment's trials recorded of the machine, by experiment name, in the
    /// registry's order.
    pub fn trials(&self) -> impl Iterator<Item = (&str, &Trials)> {
        self.loaded.iter().map(|loaded| (loaded.experiment, &loaded.trials))
    }

    /// How charts and tables name this run: its manifest's label, or for runs without one
    /// [`crate::format::run_label`].
    pub fn label(&self) -> String {
        self.label.clone()
    }
}
