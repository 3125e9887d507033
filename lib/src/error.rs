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
    /// The OS refused a thread; the cause is the `source`, not repeated in the message
    /// (a report that prints the chain would otherwise say it twice).
    #[error("{experiment}: could not start worker threads")]
    Spawn {
        experiment: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("{experiment}: a worker thread panicked")]
    WorkerPanicked { experiment: &'static str },
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn a_spawn_failure_names_its_cause_once_in_the_chain() {
        let source = std::io::Error::new(std::io::ErrorKind::WouldBlock, "no thread to spare");
        let error = RunError::Spawn { experiment: "stride", source };
        let cause = error.source().map(ToString::to_string).unwrap_or_default();
        assert_eq!(cause, "no thread to spare");
        assert_eq!(error.to_string(), "stride: could not start worker threads");
    }
}
