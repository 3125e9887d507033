//! Saved runs (`data/runs/<host>-<utc>/`: `manifest.json` and one CSV per experiment) for
//! the comparison notebook, read without the report's polars loader: the manifest's few
//! fields a comparison needs, and an experiment's rows as the lib's own row type.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Number, Value};
use thiserror::Error;

use super::reference::{ReferenceError, ReferenceTable};
use super::{table, Rich};

/// The file every run folder holds.
pub const MANIFEST: &str = "manifest.json";

#[derive(Debug, Error)]
pub enum RunsError {
    #[error("could not read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a run manifest: {message}")]
    Manifest { path: String, message: String },
    #[error(transparent)]
    Csv(#[from] ReferenceError),
    #[error("{path}, line {line}: {message}")]
    Row { path: String, line: usize, message: String },
}

/// The machine facts a comparison labels its series with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RunMachine {
    pub hostname: String,
    #[serde(default)]
    pub cpu_model: Option<String>,
    #[serde(default)]
    pub available_parallelism: Option<usize>,
    #[serde(default)]
    pub hypervisor: Option<bool>,
}

/// One experiment a run measured, and its CSV file in the run folder.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RunExperiment {
    pub name: String,
    pub file: String,
    pub rows: usize,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct ManifestView {
    started_utc: String,
    machine: RunMachine,
    experiments: Vec<RunExperiment>,
}

/// One saved run.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedRun {
    pub dir: PathBuf,
    pub started_utc: String,
    pub machine: RunMachine,
    pub experiments: Vec<RunExperiment>,
}

impl SavedRun {
    /// Reads `dir/manifest.json`.
    pub fn read(dir: impl AsRef<Path>) -> Result<Self, RunsError> {
        let dir = dir.as_ref();
        let path = dir.join(MANIFEST);
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|source| RunsError::Read { path: shown.clone(), source })?;
        let view: ManifestView = serde_json::from_str(&text)
            .map_err(|error| RunsError::Manifest { path: shown, message: error.to_string() })?;
        Ok(Self {
            dir: dir.to_path_buf(),
            started_utc: view.started_utc,
            machine: view.machine,
            experiments: view.experiments,
        })
    }

    /// "host (2026-11-29 21:58 UTC)", as the report labels a run.
    pub fn label(&self) -> String {
        let minute = self.started_utc.get(..16).unwrap_or(&self.started_utc).replace('T', " ");
        format!("{} ({minute} UTC)", self.machine.hostname)
    }

    /// The CSV of `experiment`, when this run measured it.
    pub fn csv(&self, experiment: &str) -> Option<PathBuf> {
        self.experiments.iter().find(|e| e.name == experiment).map(|e| self.dir.join(&e.file))
    }

    /// The rows of `experiment` as the lib's row type (`contention::stride::Row`, ...);
    /// `None` when this run did not measure it.
    pub fn rows<R: DeserializeOwned>(&self, experiment: &str) -> Option<Result<Vec<R>, RunsError>> {
        self.csv(experiment).map(|path| read_rows(&path))
    }
}

/// The run folders found under a folder, and the ones that could not be read (with why).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FoundRuns {
    pub runs: Vec<SavedRun>,
    pub skipped: Vec<String>,
}

/// Every run folder directly under `dir` (those holding a manifest), oldest first. A folder
/// whose manifest cannot be read is skipped and named in `skipped`; a missing `dir` holds
/// no runs.
pub fn find_runs(dir: impl AsRef<Path>) -> Result<FoundRuns, RunsError> {
    let dir = dir.as_ref();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(FoundRuns::default()),
        Err(source) => return Err(RunsError::Read { path: dir.display().to_string(), source }),
    };
    let mut folders: Vec<PathBuf> =
        entries.filter_map(Result::ok).map(|entry| entry.path()).filter(|path| path.join(MANIFEST).is_file()).collect();
    folders.sort();
    let mut found = FoundRuns::default();
    for folder in folders {
        match SavedRun::read(&folder) {
            Ok(run) => found.runs.push(run),
            Err(error) => found.skipped.push(error.to_string()),
        }
    }
    found.runs.sort_by(|a, b| a.started_utc.cmp(&b.started_utc));
    Ok(found)
}

/// The rows of `experiment` from every run that measured it, labelled by run, and why any
/// run's file could not be read (a run from an older version of the lab, a damaged file).
pub fn rows_by_run<R: DeserializeOwned>(runs: &[SavedRun], experiment: &str) -> (Vec<(String, Vec<R>)>, Vec<String>) {
    let mut read = Vec::new();
    let mut skipped = Vec::new();
    for run in runs {
        match run.rows(experiment) {
            Some(Ok(rows)) => read.push((run.label(), rows)),
            Some(Err(error)) => skipped.push(format!("{}: {error}", run.label())),
            None => {}
        }
    }
    (read, skipped)
}

/// Reads an experiment's CSV into rows of type `R`, whose fields are named like the
/// columns; cells are typed as whole numbers, numbers, true/false, else text.
pub fn read_rows<R: DeserializeOwned>(path: &Path) -> Result<Vec<R>, RunsError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| RunsError::Read { path: shown.clone(), source })?;
    let csv = ReferenceTable::parse(&shown, &text)?;
    csv.rows
        .iter()
        .enumerate()
        .map(|(index, cells)| {
            let record: Map<String, Value> =
                csv.columns.iter().zip(cells).map(|(column, cell)| (column.clone(), typed(cell))).collect();
            serde_json::from_value(Value::Object(record)).map_err(|error| RunsError::Row {
                path: shown.clone(),
                line: index + 2,
                message: error.to_string(),
            })
        })
        .collect()
}

fn typed(cell: &str) -> Value {
    let cell = cell.trim();
    if let Ok(whole) = cell.parse::<u64>() {
        Value::Number(whole.into())
    } else if let Some(number) = cell.parse::<f64>().ok().and_then(Number::from_f64) {
        Value::Number(number)
    } else if let Ok(flag) = cell.parse::<bool>() {
        Value::Bool(flag)
    } else {
        Value::String(cell.to_string())
    }
}

/// The runs as a table: label, CPU, CPUs used, virtual or not, experiments measured.
pub fn runs_table(runs: &[SavedRun]) -> Rich {
    let rows: Vec<Vec<String>> = runs
        .iter()
        .map(|run| {
            let machine = &run.machine;
            vec![
                run.label(),
                machine.cpu_model.clone().unwrap_or_else(|| "unknown".into()),
                machine.available_parallelism.map_or("unknown".into(), |cpus| cpus.to_string()),
                machine.hypervisor.map_or("unknown", |vm| if vm { "yes" } else { "no" }).to_string(),
                run.experiments.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", "),
            ]
        })
        .collect();
    table(&["run", "CPU", "CPUs used", "virtual machine", "experiments"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stride::Row;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");

    #[test]
    fn reads_the_fixture_run_and_its_stride_rows() {
        let run = SavedRun::read(FIXTURE).unwrap();
        assert_eq!(run.label(), "vm (2026-11-29 21:58 UTC)");
        let rows: Vec<Row> = run.rows("stride").unwrap().unwrap();
        let declared = run.experiments.iter().find(|e| e.name == "stride").unwrap().rows;
        assert_eq!(rows.len(), declared);
        assert!(rows.iter().all(|row| row.verified && row.threads >= 1));
        assert!(run.rows::<Row>("gc").is_none());
        assert_eq!(runs_table(&[run]).plain.lines().count(), 3);
    }

    #[test]
    fn finds_run_folders_and_ignores_the_rest() {
        let parent = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures");
        let found = find_runs(parent).unwrap();
        assert!(found.runs.iter().any(|run| run.dir.ends_with("run-fixture")));
        assert!(found.skipped.is_empty());
        assert_eq!(find_runs("/nonexistent/runs").unwrap(), FoundRuns::default());
    }

    #[test]
    fn unreadable_runs_are_skipped_with_a_reason() {
        let parent = std::env::temp_dir().join(format!("contention-runs-skip-{}", std::process::id()));
        let broken = parent.join("broken-run");
        std::fs::create_dir_all(&broken).unwrap();
        std::fs::write(broken.join(MANIFEST), "{}").unwrap();
        let found = find_runs(&parent).unwrap();
        std::fs::remove_dir_all(&parent).unwrap();
        assert!(found.runs.is_empty());
        assert_eq!(found.skipped.len(), 1);
        assert!(found.skipped[0].contains("is not a run manifest"), "{:?}", found.skipped);
        let fixture = SavedRun::read(FIXTURE).unwrap();
        let (read, skipped) = rows_by_run::<crate::sharing::Row>(std::slice::from_ref(&fixture), "stride");
        assert!(read.is_empty() && skipped.len() == 1, "{skipped:?}");
        let (read, skipped) = rows_by_run::<Row>(&[fixture], "stride");
        assert_eq!((read.len(), skipped.len()), (1, 0));
    }

    #[test]
    fn a_bad_cell_is_named_by_file_and_line() {
        let dir = std::env::temp_dir().join(format!("contention-runs-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stride.csv");
        std::fs::write(&path, "stride_bytes,threads\n8,two\n").unwrap();
        let error = read_rows::<Row>(&path).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(error.contains("stride.csv, line 2:"), "{error}");
    }

    #[test]
    fn cells_are_typed_by_their_text() {
        assert_eq!(typed("8"), Value::Number(8.into()));
        assert_eq!(typed("12.5"), Value::Number(Number::from_f64(12.5).unwrap()));
        assert_eq!(typed("true"), Value::Bool(true));
        assert_eq!(typed("unavailable"), Value::String("unavailable".into()));
    }
}
