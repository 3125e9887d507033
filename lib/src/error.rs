//! Errors the experiments return. A configuration error names the field, the value and
//! what is allowed; a run error says what went wrong in which trial.

use thiserror::Error;

/// A configuration value outside what the experiment accepts.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid {field} = {value}: {allowed}")]
pub struct ConfigError {
    /// The config field (as the CLI spells its flag, without dashes).
    pub field: &'static str,
    pub value: String,
    /// What would be accepted, in words.
    pub allowed: String,
}

impl ConfigError {
    pub fn new(field: &'static str, value: impl ToString, allowed: impl Into<String>) -> Self {
        Self { field, value: value.to_string(), allowed: allowed.into() }
    }
}

/// Why an experiment stopped without finishing.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A trial's result failed its check: the measurement is void, never a dropped row.
    #[error("{experiment}: trial {trial} ({case}) failed verification: expected {expected}, got {actual}")]
    Verification { experiment: &'static str, case: String, trial: usize, expected: u64, actual: u64 },
    #[error("{experiment}: could not start worker threads: {source}")]
    Spawn {
        experiment: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("{experiment}: a worker thread panicked")]
    WorkerPanicked { experiment: &'static str },
}
