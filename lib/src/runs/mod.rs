//! The run format: a run folder (`data/runs/<label>-<utc>/`) holds `manifest.json` and one
//! CSV per experiment; a [`pack`] holds the same files in one file. This module owns the
//! manifest's types, the format version and the one typed reader; the report and the
//! notebooks read runs (folders and packs alike) through it and nothing else.

mod budget;
mod check;
mod error;
mod files;
mod label;
mod manifest;
mod notes;
pub mod pack;
mod read;
mod resample;
mod rows;
mod unique_keys;

use std::path::{Path, PathBuf};

pub use crate::checked::text::{check_text, clipped, is_hidden, shown, visible, visible_lines};
pub use crate::checked::{BadValue, CheckedRow};
pub use check::MAX_CSV_BYTES;
pub use error::RunsError;
use files::RunFiles;
pub use label::{check_label, default_label, disambiguate, normalize_label, MAX_LABEL_CHARS};
pub use manifest::{
    ExperimentRecord, Manifest, Profile, State, FORMAT_VERSION, MANIFEST, OLDEST_READ_VERSION, RUNTIME_ELAPSED_KEY,
    RUNTIME_NOTE_KEY,
};
pub use notes::{ExperimentNote, NoteKind};
pub use read::{parse_checked, parse_counted, parse_rows, read_rows};
pub use resample::Bootstrap;
use rows::{boxed, Loaded};

use crate::experiment::Measure;
use crate::experiment::SavedRow;
use crate::registry::{Experiment, MeasureVisitor};

/// One saved run, read and checked: its experiments' rows, keyed by the registry.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// The manifest's label, made unique among runs loaded together ([`load_all`]).
    pub label: String,
    /// Each experiment read, in the manifest's order.
    loaded: Vec<Loaded>,
    /// Experiments shown otherwise than whole (recovered), or not at all (interrupted,
    /// unreadable), each with why; the rest of the run is read as usual.
    pub notes: Vec<ExperimentNote>,
}

impl Run {
    /// Reads a run folder or a [`pack`]: its manifest (this format version only), then every
    /// experiment it lists.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, RunsError> {
        let path = path.as_ref();
        let files = RunFiles::open(path)?;
        let manifest_path = path.join(MANIFEST);
        let manifest = parse_manifest(&manifest_path, &files.text(path, MANIFEST)?)?;
        let label = match manifest.label.as_str() {
            "" => crate::format::run_label(&manifest.machine.hostname, &manifest.started_utc),
            given => normalize_label(given),
        };
        let mut run = Self { dir: path.to_path_buf(), manifest, label, loaded: Vec::new(), notes: Vec::new() };
        listed_files(&run.manifest, &manifest_path)?;
        for record in run.manifest.experiments.clone() {
            let note = run.read_record(&files, &record);
            run.notes.extend(note);
        }
        run.recover_unlisted(&files);
        if run.manifest.experiments.is_empty() && run.notes.is_empty() {
            return Err(RunsError::NothingMeasured { dir: shown(path) });
        }
        Ok(run)
    }

    /// Reads the rows of `record` into this run, and its real runtime's beside them;
    /// `expected` is the row count the manifest records (`None`: not recorded). Returns the
    /// rows read.
    fn read_experiment(
        &mut self,
        files: &RunFiles,
        record: &ExperimentRecord,
        expected: Option<usize>,
    ) -> Result<usize, RunsError> {
        let Some(experiment) = Experiment::from_name(&record.name) else {
            let path = shown(&self.dir.join(MANIFEST));
            return Err(RunsError::UnknownExperiment { path, name: record.name.clone() });
        };
        let loaded = experiment.visit_measure(ReadRows { experiment, files, dir: &self.dir, record, expected })?;
        let rows = loaded.rows.len();
        self.loaded.retain(|other| other.experiment != experiment);
        self.loaded.push(loaded);
        Ok(rows)
    }

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
        self.manifest.record(loaded.experiment.name())
    }

    /// Whether this run holds `experiment`'s rows.
    pub fn holds(&self, experiment: Experiment) -> bool {
        self.loaded.iter().any(|loaded| loaded.experiment == experiment)
    }

    /// How charts and tables name this run: its manifest's label, or for runs without one
    /// [`crate::format::run_label`].
    pub fn label(&self) -> String {
        self.label.clone()
    }

    /// The config `experiment` ran with, as `key=value` pairs; `None` when it did not run.
    pub fn config_text(&self, experiment: Experiment) -> Option<String> {
        self.manifest.record(experiment.name()).map(|record| crate::format::config_text(&record.config))
    }
}

/// Reads one experiment's rows (and its real runtime's) with its types.
struct ReadRows<'a> {
    experiment: Experiment,
    files: &'a RunFiles,
    dir: &'a Path,
    record: &'a ExperimentRecord,
    expected: Option<usize>,
}

impl MeasureVisitor for ReadRows<'_> {
    type Output = Result<Loaded, RunsError>;

    fn visit<K: Measure>(self) -> Result<Loaded, RunsError> {
        // The real runtime's rows first: the model's are kept only when both read.
        let runtime_rows = match runtime_file(self.record) {
            Some((file, rows)) => Some(boxed(self.read::<K::RuntimeRow>(&file, rows)?)),
            None => None,
        };
        let rows = boxed(self.read::<K::Row>(&self.record.file, self.expected)?);
        Ok(Loaded { experiment: self.experiment, rows, runtime_rows })
    }
}

impl ReadRows<'_> {
    fn read<R: SavedRow>(&self, file: &str, expected: Option<usize>) -> Result<Vec<R>, RunsError> {
        let text = self.files.text(self.dir, file)?;
        // An experiment without a row (c2c on one CPU) wrote an empty file, not even a header.
        if expected == Some(0) && text.trim().is_empty() {
            return Ok(Vec::new());
        }
        parse(&shown(&self.dir.join(file)), &text, expected)
    }
}

/// Rows of `text`, checked, and counted against `expected` when the manifest records it.
fn parse<R: serde::de::DeserializeOwned + CheckedRow>(
    file: &str,
    text: &str,
    expected: Option<usize>,
) -> Result<Vec<R>, RunsError> {
    match expected {
        Some(expected) => parse_counted(file, text, expected),
        None => parse_checked(file, text),
    }
}

/// Every file `manifest` names (each experiment's, and the Go rows' beside the GC's), each
/// checked to be a plain name that cannot reach outside the run.
fn listed_files(manifest: &Manifest, manifest_path: &Path) -> Result<Vec<String>, RunsError> {
    let mut files = Vec::new();
    for record in &manifest.experiments {
        files.push(record.file.clone());
        files.extend(runtime_file(record).map(|(file, _)| file));
    }
    match files.iter().find(|file| !pack::is_run_file_name(file)) {
        Some(file) => Err(RunsError::FileName { path: shown(manifest_path), file: visible(file) }),
        None => Ok(files),
    }
}

/// The file of the real runtime measured beside `record`'s experiment and its row count,
/// when the record says it ran (its config's `REAL_RUNTIME.key`, written by the CLI).
fn runtime_file(record: &ExperimentRecord) -> Option<(String, Option<usize>)> {
    let runtime = Experiment::from_name(&record.name)?.real_runtime()?;
    let status = &record.config[runtime.key];
    if status["status"] != "ran" {
        return None;
    }
    let file = status["file"].as_str().unwrap_or(runtime.file).to_string();
    Some((file, status["rows"].as_u64().map(|rows| rows as usize)))
}

/// Parses a manifest, refusing other format versions by name.
fn parse_manifest(path: &Path, text: &str) -> Result<Manifest, RunsError> {
    let shown = shown(path);
    let not_a_manifest =
        |error: serde_json::Error| RunsError::Manifest { path: shown.clone(), message: visible(&error.to_string()) };
    unique_keys::check_unique_keys(text).map_err(not_a_manifest)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(not_a_manifest)?;
    match value.get("format_version").map(|found| (found.as_u64(), found)) {
        Some((Some(version), _)) if (u64::from(OLDEST_READ_VERSION)..=u64::from(FORMAT_VERSION)).contains(&version) => {
        }
        Some((Some(found), _)) => return Err(RunsError::Version { path: shown, found }),
        Some((None, found)) => return Err(RunsError::VersionNotANumber { path: shown, found: found.to_string() }),
        None => return Err(RunsError::NoVersion { path: shown }),
    }
    check::check_strings(path, &value)?;
    let manifest = serde_json::from_value(value).map_err(not_a_manifest)?;
    check::check_manifest(path, &manifest)?;
    Ok(manifest)
}

/// The runs found under a folder, and why any could not be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FoundRuns {
    pub runs: Vec<Run>,
    pub skipped: Vec<String>,
}

/// Every run folder (holding a manifest) and [`pack`] directly under `dir`, oldest first, read by
/// [`load_all`]. A run that cannot be read is named in `skipped` with why; a missing `dir`
/// holds no runs.
pub fn find_runs(dir: impl AsRef<Path>) -> Result<FoundRuns, RunsError> {
    let dir = dir.as_ref();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(FoundRuns::default()),
        Err(source) => return Err(RunsError::Read { path: shown(dir), source }),
    };
    let is_run = |path: &PathBuf| {
        path.join(MANIFEST).is_file() || path.extension().is_some_and(|extension| extension == pack::PACK_EXTENSION)
    };
    let mut folders: Vec<PathBuf> = entries.filter_map(Result::ok).map(|entry| entry.path()).filter(is_run).collect();
    folders.sort();
    let mut found = load_all(&folders);
    found.runs.sort_by(|a, b| a.manifest.started_utc.cmp(&b.manifest.started_utc));
    Ok(found)
}

/// Reads every run in `paths`, in order: one that cannot be read is named in `skipped` with
/// why, and the labels of those read are made unique ([`disambiguate`]), so legends and
/// grouped tables never merge two runs. The runs read together hold at most
/// [`crate::limits::saved::MAX_PAGE_BYTES`] of files: those past it are skipped, named.
pub fn load_all(paths: &[PathBuf]) -> FoundRuns {
    let mut found = FoundRuns::default();
    let mut budget = budget::PageBudget::default();
    for path in paths {
        if let Err(why) = budget.take(path) {
            found.skipped.push(why);
            continue;
        }
        match Run::load(path) {
            Ok(run) => found.runs.push(run),
            Err(error) => found.skipped.push(error.to_string()),
        }
    }
    let mut labels: Vec<String> = found.runs.iter().map(Run::label).collect();
    disambiguate(&mut labels);
    for (run, label) in found.runs.iter_mut().zip(labels) {
        run.label = label;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures");

    #[test]
    fn reads_the_fixture_run_whole() {
        let run = Run::load(Path::new(FIXTURES).join("run-fixture")).unwrap();
        let stride = run.rows::<crate::stride::Row>().unwrap();
        assert_eq!(stride.len(), run.manifest.record("stride").unwrap().rows);
        assert!(stride.iter().all(|row| row.threads >= 1));
        let stride = Experiment::from_name(crate::stride::EXPERIMENT).unwrap();
        assert!(run.config_text(stride).unwrap().contains("strides_bytes="));
    }

    #[test]
    fn finds_run_folders_and_names_the_unreadable() {
        let found = find_runs(FIXTURES).unwrap();
        assert!(found.runs.iter().any(|run| run.dir.ends_with("run-fixture")));
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
        assert_eq!(find_runs("/nonexistent/runs").unwrap(), FoundRuns::default());
        let parent = std::env::temp_dir().join(format!("contention-runs-skip-{}", std::process::id()));
        let broken = parent.join("broken-run");
        std::fs::create_dir_all(&broken).unwrap();
        std::fs::write(broken.join(MANIFEST), "{\"format_version\": 2}").unwrap();
        let found = find_runs(&parent).unwrap();
        std::fs::remove_dir_all(&parent).unwrap();
        assert!(found.runs.is_empty());
        assert!(found.skipped[0].contains("is from format version 2"), "{:?}", found.skipped);
    }

    #[test]
    fn runs_loaded_together_get_unique_labels() {
        let fixture = Path::new(FIXTURES).join("run-fixture");
        let found = load_all(&[fixture.clone(), fixture.clone(), "/nonexistent/run".into()]);
        let labels: Vec<String> = found.runs.iter().map(Run::label).collect();
        assert_eq!(labels, ["vm (2026-12-01 18:01 UTC)", "vm (2026-12-01 18:01 UTC) (2)"]);
        assert!(found.skipped[0].contains("does not exist"), "{:?}", found.skipped);
    }

    #[test]
    fn folders_that_are_not_runs_are_refused_by_name() {
        let missing = Run::load("/nonexistent/run").unwrap_err().to_string();
        assert!(missing.contains("does not exist"), "{missing}");
    }
}
