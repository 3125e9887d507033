//! Loading saved runs: the one module that uses polars. A run folder is checked (exists,
//! has a manifest of this format, names known experiments), each experiment's CSV is read
//! with polars and validated cell by cell, so a bad file is reported by file, line and
//! column, and rows come back as the lib's own row types.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::{CsvReadOptions, SerReader};
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::experiments::{c2c, counters, gc, machine, pool, sharing, stride, Experiment};
use crate::manifest::{self, Manifest};

/// The type a CSV column must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Unsigned,
    Float,
    Bool,
    Text,
    /// A hardware-counter reading: a whole number, or "unavailable" (see `contention::perf`).
    Counter,
}

#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
}

impl Column {
    pub const fn new(name: &'static str, kind: Kind) -> Self {
        Self { name, kind }
    }
}

/// One saved run, loaded and validated. An experiment the run did not measure is `None`.
#[derive(Debug, Clone)]
pub struct RunData {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub stride: Option<Vec<contention::stride::Row>>,
    pub sharing: Option<Vec<contention::sharing::Row>>,
    pub counters: Option<Vec<contention::counters::Row>>,
    pub c2c: Option<Vec<contention::c2c::Row>>,
    pub machine: Option<Vec<contention::fitness::Row>>,
    pub gc: Option<Vec<contention::gc::Row>>,
    /// The real Go benchmark beside the GC model, when it ran.
    pub gc_go: Option<Vec<contention::gc::GoRow>>,
    pub pool: Option<Vec<contention::pool::Row>>,
}

pub fn load_run(dir: &Path) -> Result<RunData> {
    if !dir.is_dir() {
        bail!("run folder {} does not exist (runs are written by `contention run`)", dir.display());
    }
    let empty = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?.next().is_none();
    if empty {
        bail!("run folder {} is empty: nothing was measured into it", dir.display());
    }
    if !dir.join(manifest::FILE_NAME).is_file() {
        bail!(
            "{} has no {}: it is not a run folder (pass a folder such as data/runs/<host>-<utc>)",
            dir.display(),
            manifest::FILE_NAME
        );
    }
    let manifest = Manifest::read(dir)?;
    let mut run = RunData {
        dir: dir.to_path_buf(),
        manifest: manifest.clone(),
        stride: None,
        sharing: None,
        counters: None,
        c2c: None,
        machine: None,
        gc: None,
        gc_go: None,
        pool: None,
    };
    for record in &manifest.experiments {
        let Some(experiment) = Experiment::from_name(&record.name) else {
            bail!(
                "{}: unknown experiment '{}' (known: {})",
                dir.join(manifest::FILE_NAME).display(),
                record.name,
                Experiment::names()
            );
        };
        let path = dir.join(&record.file);
        match experiment {
            Experiment::Stride => run.stride = Some(read_rows(&path, stride::COLUMNS, Some(record.rows))?),
            Experiment::Sharing => run.sharing = Some(read_rows(&path, sharing::COLUMNS, Some(record.rows))?),
            Experiment::Counters => run.counters = Some(read_rows(&path, counters::COLUMNS, Some(record.rows))?),
            // A machine with one CPU has no pair: its file holds no rows, not even a header.
            Experiment::C2c if record.rows == 0 => run.c2c = Some(Vec::new()),
            Experiment::C2c => run.c2c = Some(read_rows(&path, c2c::COLUMNS, Some(record.rows))?),
            Experiment::Machine => run.machine = Some(read_rows(&path, machine::COLUMNS, Some(record.rows))?),
            Experiment::Gc => {
                run.gc = Some(read_rows(&path, gc::COLUMNS, Some(record.rows))?);
                run.gc_go = read_go_rows(dir, record)?;
            }
            Experiment::Pool => run.pool = Some(read_rows(&path, pool::COLUMNS, Some(record.rows))?),
        }
    }
    Ok(run)
}

/// The Go rows the GC record says were written (`config.go`, see `gc_go::GoStatus`).
fn read_go_rows(dir: &Path, record: &manifest::ExperimentRecord) -> Result<Option<Vec<contention::gc::GoRow>>> {
    let go = &record.config["go"];
    if go["status"] != "ran" {
        return Ok(None);
    }
    let rows = go["rows"].as_u64().map(|rows| rows as usize);
    let file = go["file"].as_str().unwrap_or(contention::gc::GO_CSV);
    read_rows(&dir.join(file), gc::GO_COLUMNS, rows).map(Some)
}

/// Reads `path` as CSV with polars, checks every declared column and cell, and turns each
/// line into a row of type `R` (whose fields are named like the columns).
pub fn read_rows<R: DeserializeOwned>(path: &Path, columns: &[Column], expected_rows: Option<usize>) -> Result<Vec<R>> {
    let shown = path.display();
    if !path.is_file() {
        bail!("{shown} is missing: the manifest lists it but the run folder does not hold it");
    }
    // Every column is read as text, so a bad cell is found and named here, not coerced.
    let frame = CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(Some(0))
        .try_into_reader_with_file_path(Some(path.to_path_buf()))
        .and_then(|reader| reader.finish())
        .map_err(|error| anyhow::anyhow!("{shown} is not a readable CSV file: {error}"))?;
    if let Some(expected) = expected_rows.filter(|&expected| expected != frame.height()) {
        bail!(
            "{shown} has {} rows but the manifest records {expected}: the file is incomplete or altered",
            frame.height()
        );
    }
    let mut records = vec![Map::new(); frame.height()];
    for column in columns {
        let values = frame
            .column(column.name)
            .map_err(|_| anyhow::anyhow!("{shown}: missing column '{}'", column.name))?
            .as_materialized_series()
            .str()
            .with_context(|| format!("{shown}: column '{}' is not text", column.name))?;
        for (index, cell) in values.iter().enumerate() {
            // Line 1 is the header.
            let line = index + 2;
            let value = parse_cell(cell.unwrap_or(""), column.kind).with_context(|| {
                format!("{shown}, line {line}, column '{}': expected {}", column.name, describe(column.kind))
            })?;
            records[index].insert(column.name.to_string(), value);
        }
    }
    records
        .into_iter()
        .enumerate()
        .map(|(index, record)| {
            serde_json::from_value(Value::Object(record)).with_context(|| format!("{shown}, line {}", index + 2))
        })
        .collect()
}

fn parse_cell(cell: &str, kind: Kind) -> Result<Value> {
    let cell = cell.trim();
    Ok(match kind {
        Kind::Unsigned => Value::Number(cell.parse::<u64>().with_context(|| format!("got '{cell}'"))?.into()),
        Kind::Float => {
            let number = cell.parse::<f64>().ok().and_then(Number::from_f64);
            Value::Number(number.with_context(|| format!("got '{cell}'"))?)
        }
        Kind::Bool => Value::Bool(cell.parse::<bool>().with_context(|| format!("got '{cell}'"))?),
        Kind::Text => Value::String(cell.to_string()),
        Kind::Counter if cell == contention::perf::UNAVAILABLE => Value::String(cell.to_string()),
        Kind::Counter => Value::Number(cell.parse::<u64>().with_context(|| format!("got '{cell}'"))?.into()),
    })
}

fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::Unsigned => "a whole number >= 0",
        Kind::Float => "a finite number",
        Kind::Bool => "true or false",
        Kind::Text => "text",
        Kind::Counter => "a whole number >= 0 or \"unavailable\"",
    }
}
