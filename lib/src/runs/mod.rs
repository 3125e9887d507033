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
mod text;
mod values;

use std::path::{Path, PathBuf};

pub use check::MAX_CSV_BYTES;
pub use error::RunsError;
use files::RunFiles;
pub use label::{check_label, default_label, disambiguate, MAX_LABEL_CHARS};
pub use manifest::{ExperimentRecord, Manifest, Profile, State, FORMAT_VERSION, MANIFEST};
pub use notes::{ExperimentNote, NoteKind};
pub use read::{parse_checked, parse_counted, parse_rows, read_rows};
pub use text::{check_text, clipped, is_hidden, shown, visible, visible_lines};
pub use values::{BadValue, CheckedRow};

/// Every experiment a run may hold, in the report's order.
pub const EXPERIMENTS: &[&str] = &[
    crate::fitness::EXPERIMENT,
    crate::c2c::EXPERIMENT,
    crate::stride::EXPERIMENT,
    crate::sharing::EXPERIMENT,
    crate::counters::EXPERIMENT,
    crate::gc::EXPERIMENT,
    crate::pool::EXPERIMENT,
];

/// One saved run, read and checked. An experiment the run did not measure is `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// The manifest's label, made unique among runs loaded together ([`load_all`]).
    pub label: String,
    pub stride: Option<Vec<crate::stride::Row>>,
    pub sharing: Option<Vec<crate::sharing::Row>>,
    pub counters: Option<Vec<crate::counters::Row>>,
    pub c2c: Option<Vec<crate::c2c::Row>>,
    pub machine: Option<Vec<crate::fitness::Row>>,
    pub gc: Option<Vec<crate::gc::Row>>,
    /// The real Go benchmark beside the GC model, when it ran (`gc-go.csv`).
    pub gc_go: Option<Vec<crate::gc::GoRow>>,
    pub pool: Option<Vec<crate::pool::Row>>,
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
            given => given.to_string(),
        };
        let mut run = Self {
            dir: path.to_path_buf(),
            manifest,
            label,
            stride: None,
            sharing: None,
            counters: None,
            c2c: None,
            machine: None,
            gc: None,
            gc_go: None,
            pool: None,
            notes: Vec::new(),
        };
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

    /// Reads the rows of `record` into this run, and the Go rows beside the GC's;
    /// `expected` is the row count the manifest records (`None`: not recorded). Returns the
    /// rows read.
    fn read_experiment(
        &mut self,
        files: &RunFiles,
        record: &ExperimentRecord,
        expected: Option<usize>,
    ) -> Result<usize, RunsError> {
        // The Go rows first: the GC's are kept only when both read.
        if let Some((file, go_rows)) = go_file(record) {
            let (shown, text) = (shown(&self.dir.join(&file)), files.text(&self.dir, &file)?);
            self.gc_go = Some(parse(&shown, &text, go_rows)?);
        }
        let text = files.text(&self.dir, &record.file)?;
        let shown = shown(&self.dir.join(&record.file));
        let rows = match record.name.as_str() {
            crate::stride::EXPERIMENT => count(&mut self.stride, parse(&shown, &text, expected)?),
            crate::sharing::EXPERIMENT => count(&mut self.sharing, parse(&shown, &text, expected)?),
            crate::counters::EXPERIMENT => count(&mut self.counters, parse(&shown, &text, expected)?),
            // A machine with one CPU has no pair: its file holds no rows, not even a header.
            crate::c2c::EXPERIMENT if expected == Some(0) => count(&mut self.c2c, Vec::new()),
            crate::c2c::EXPERIMENT => count(&mut self.c2c, parse(&shown, &text, expected)?),
            crate::fitness::EXPERIMENT => count(&mut self.machine, parse(&shown, &text, expected)?),
            crate::gc::EXPERIMENT => count(&mut self.gc, parse(&shown, &text, expected)?),
            crate::pool::EXPERIMENT => count(&mut self.pool, parse(&shown, &text, expected)?),
            name => {
                let path = text::shown(&self.dir.join(MANIFEST));
                return Err(RunsError::UnknownExperiment { path, name: name.into() });
            }
        };
        Ok(rows)
    }

    /// How charts and tables name this run: its manifest's label, or for runs without one
    /// [`crate::format::run_label`].
    pub fn label(&self) -> String {
        self.label.clone()
    }

    /// The config `experiment` ran with, as `key=value` pairs; `None` when it did not run.
    pub fn config_text(&self, experiment: &str) -> Option<String> {
        self.manifest.record(experiment).map(|record| crate::format::config_text(&record.config))
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

/// Keeps `rows` in `slot` and says how many there are.
fn count<R>(slot: &mut Option<Vec<R>>, rows: Vec<R>) -> usize {
    let rows = slot.insert(rows).len();
    rows
}

/// Every file `manifest` names (each experiment's, and the Go rows' beside the GC's), each
/// checked to be a plain name that cannot reach outside the run.
fn listed_files(manifest: &Manifest, manifest_path: &Path) -> Result<Vec<String>, RunsError> {
    let mut files = Vec::new();
    for record in &manifest.experiments {
        files.push(record.file.clone());
        files.extend(go_file(record).map(|(file, _)| file));
    }
    match files.iter().find(|file| !pack::is_run_file_name(file)) {
        Some(file) => Err(RunsError::FileName { path: shown(manifest_path), file: visible(file) }),
        None => Ok(files),
    }
}

/// The Go benchmark's file beside the GC rows and its row count, when the GC record says it
/// ran (its `config.go`, written by the CLI).
fn go_file(record: &ExperimentRecord) -> Option<(String, Option<usize>)> {
    let go = &record.config["go"];
    if record.name != crate::gc::EXPERIMENT || go["status"] != "ran" {
        return None;
    }
    let file = go["file"].as_str().unwrap_or(crate::gc::GO_CSV).to_string();
    Some((file, go["rows"].as_u64().map(|rows| rows as usize)))
}

/// Parses a manifest, refusing other format versions by name.
fn parse_manifest(path: &Path, text: &str) -> Result<Manifest, RunsError> {
    let shown = shown(path);
    let not_a_manifest =
        |error: serde_json::Error| RunsError::Manifest { path: shown.clone(), message: visible(&error.to_string()) };
    let value: serde_json::Value = serde_json::from_str(text).map_err(not_a_manifest)?;
    match value.get("format_version").map(|found| (found.as_u64(), found)) {
        Some((Some(version), _)) if version == u64::from(FORMAT_VERSION) => {}
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
        let stride = run.stride.as_ref().unwrap();
        assert_eq!(stride.len(), run.manifest.record("stride").unwrap().rows);
        assert!(stride.iter().all(|row| row.verified && row.threads >= 1));
        assert!(run.config_text("stride").unwrap().contains("strides_bytes="));
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
