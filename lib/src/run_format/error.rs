//! Why a run, or one of its files, could not be read: each message names the path and, for
//! a CSV, the line and column.

use thiserror::Error;

use super::{FORMAT_VERSION, MANIFEST, OLDEST_READ_VERSION};

#[derive(Debug, Error)]
pub enum RunsError {
    #[error("run folder {dir} does not exist (runs are written by `contention run`)")]
    NoFolder { dir: String },
    #[error("run folder {dir} is a file, not a folder (pass a folder such as data/runs/<host>-<utc>)")]
    NotAFolder { dir: String },
    #[error("run folder {dir} cannot be opened: {source}")]
    Unreachable {
        dir: String,
        #[source]
        source: std::io::Error,
    },
    #[error("run folder {dir} is empty: nothing was measured into it")]
    Empty { dir: String },
    #[error("{dir} has no {manifest}: it is not a run folder (pass a folder such as data/runs/<host>-<utc>)", manifest = MANIFEST)]
    NoManifest { dir: String },
    #[error("could not read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a run manifest: {message}")]
    Manifest { path: String, message: String },
    #[error(
        "{path} is from format version {found}; this contention reads versions {oldest} to {version}: measure \
         again with `contention run`, or render it with the version that wrote it",
        oldest = OLDEST_READ_VERSION,
        version = FORMAT_VERSION
    )]
    Version { path: String, found: u64 },
    #[error("{path} has no format_version: it was not written by `contention run`")]
    NoVersion { path: String },
    #[error("{path}: format_version = {found} is not a whole number (this contention reads {version})", version = FORMAT_VERSION)]
    VersionNotANumber { path: String, found: String },
    #[error("{path}, {field}: {message}")]
    Invalid { path: String, field: String, message: String },
    #[error("{path} is {bytes} bytes: at most {limit} bytes are read (larger than any run this lab writes)")]
    TooLarge { path: String, bytes: u64, limit: u64 },
    #[error("{path}: unknown experiment '{name}' (known: {known})")]
    UnknownExperiment { path: String, name: String, known: String },
    #[error("{path} is not a readable run pack: {message}")]
    Pack { path: String, message: String },
    #[error("{path} is not packed: a pack carries only runs whose every file reads ({message})")]
    NotPacked { path: String, message: String },
    #[error("{path} names the file '{file}': a run's files are plain names such as stride.csv")]
    FileName { path: String, file: String },
    #[error("{path} is {what}: a run's files are read only as regular files inside its folder")]
    NotRegular { path: String, what: &'static str },
    #[error(
        "run folder {dir} holds no experiment: the run was stopped before its first experiment started \
         (nothing to show; measure again with `contention run`)"
    )]
    NothingMeasured { dir: String },
    #[error("{path} is missing: the manifest lists it but the run does not hold it")]
    MissingFile { path: String },
    #[error("{path} has {found} rows but the manifest records {expected}: the file is incomplete or altered")]
    RowCount { path: String, found: usize, expected: usize },
    #[error("{file}, line {line}{}: {message}", .column.as_ref().map_or(String::new(), |c| format!(", column '{c}'")))]
    Csv { file: String, line: usize, column: Option<String>, message: String },
}
