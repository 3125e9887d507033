//! Reading saved runs: a run folder or a [`pack`] (the same files in one file) read into a
//! [`Run`] through the registry, each experiment's CSV with its own row type, and every run
//! under a folder. The report and the notebooks read runs through it and nothing else; the
//! format's types are [`crate::run_format`]'s, named here too.

mod budget;
mod check;
mod files;
pub mod pack;
mod recover;
mod unique_keys;

use std::path::{Path, PathBuf};

use crate::machine_check::assess::{assess, MachineRun};
use crate::run_format::rows::{boxed, Loaded, Trials};
pub use crate::run_format::{
    check_label, check_text, clipped, default_label, disambiguate, is_hidden, normalize_label, parse_checked,
    parse_counted, parse_rows, read_rows, shown, visible, visible_lines, BadValue, Bootstrap, CheckedRow,
    ExperimentNote, ExperimentRecord, Manifest, NoteKind, Profile, Run, RunsError, State, FORMAT_VERSION, MANIFEST,
    MAX_CSV_BYTES, MAX_LABEL_CHARS, OLDEST_READ_VERSION, RUNTIME_ELAPSED_KEY, RUNTIME_NOTE_KEY,
};
use files::RunFiles;

use crate::experiment::Measure;
use crate::experiment::SavedRow;
use crate::registry::{Experiment, Visitor};

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
        let mut run =
            Self { dir: path.to_path_buf(), manifest, label, loaded: Vec::new(), notes: Vec::new(), verdict: None };
        listed_files(&run.manifest, &manifest_path)?;
        for record in run.manifest.experiments.clone() {
            let note = run.read_record(&files, &record);
            run.notes.extend(note);
        }
        run.recover_unlisted(&files);
        if run.manifest.experiments.is_empty() && run.notes.is_empty() {
            return Err(RunsError::NothingMeasured { dir: shown(path) });
        }
        run.loaded.sort_by_key(|loaded| Experiment::from_name(loaded.experiment));
        run.verdict = Some(assess(&MachineRun::from_run(&run)).verdict);
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
            let known = Experiment::names().join(", ");
            return Err(RunsError::UnknownExperiment { path, name: record.name.clone(), known });
        };
        let loaded = experiment.visit(ReadRows { experiment, files, dir: &self.dir, record, expected })?;
        let rows = loaded.rows.len();
        self.loaded.retain(|other| other.experiment != experiment.name());
        self.loaded.push(loaded);
        Ok(rows)
    }

    /// Whether this run holds `experiment`'s rows.
    pub fn holds(&self, experiment: Experiment) -> bool {
        self.holds_rows_of(experiment.name())
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

impl Visitor for ReadRows<'_> {
    type Output = Result<Loaded, RunsError>;

    fn visit<K: Measure>(self) -> Result<Loaded, RunsError> {
        // The real runtime's rows first: the model's are kept only when both read.
        let runtime_rows = match runtime_file(self.record) {
            Some((file, rows)) => Some(boxed(self.read::<K::RuntimeRow>(&file, rows)?)),
            None => None,
        };
        let rows = self.read::<K::Row>(&self.record.file, self.expected)?;
        let placements = K::placements(&rows).into_iter().map(|(cpus, pinned)| (cpus.to_string(), pinned)).collect();
        let trials = Trials { placements, cache_misses: K::cache_misses(&rows) };
        Ok(Loaded { experiment: self.experiment.name(), rows: boxed(rows), runtime_rows, trials })
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
    let mut manifest: Manifest = serde_json::from_value(value).map_err(not_a_manifest)?;
    for record in &mut manifest.experiments {
        record.runtime = Experiment::from_name(&record.name).and_then(Experiment::real_runtime);
    }
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
mod tests;
