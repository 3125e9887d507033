//! Bad usage (a value outside what is allowed) exits 2; a failure while working exits 1.

use std::fmt;

use contention::ConfigError;

/// A command-line value that is not allowed; the message names the value and what would be.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for returning a usage error from a function that returns `anyhow::Result`.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// 2 when any cause in the chain is bad usage (ours or an experiment's config check), else 1.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    let bad_usage = error.chain().any(|cause| {
        cause.is::<UsageError>()
            || cause.is::<ConfigError>()
            || cause
                .downcast_ref::<contention::RunError>()
                .is_some_and(|run| matches!(run, contention::RunError::Config(_)))
    });
    if bad_usage {
        2
    } else {
        1
    }
}
