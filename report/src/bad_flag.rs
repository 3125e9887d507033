//! A bad flag (a value outside what is allowed) exits 2; a failure while working exits 1.

use std::fmt;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};

use contention::ConfigError;

/// A command-line value that is not allowed; the message names the value and what would be.
#[derive(Debug)]
pub struct BadFlag(pub String);

impl fmt::Display for BadFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadFlag {}

/// Shorthand for returning a bad-flag error from a function that returns `anyhow::Result`.
pub fn bad_flag(message: impl Into<String>) -> anyhow::Error {
    BadFlag(message.into()).into()
}

/// 2 when any cause in the chain is a bad flag (ours or an experiment's config check), else 1.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    let bad_flag = error.chain().any(|cause| {
        cause.is::<BadFlag>()
            || cause.is::<ConfigError>()
            || cause
                .downcast_ref::<contention::RunError>()
                .is_some_and(|run| matches!(run, contention::RunError::Config(_)))
    });
    if bad_flag {
        2
    } else {
        1
    }
}

/// A command line clap refused: a flag's value our parsers refused (the flag_values module)
/// is written as every bad value is, `invalid {flag} = {value as given}: {allowed}`, exit 2;
/// anything else (an unknown flag, `--help`) as clap writes it, with clap's exit status.
pub fn clap_failure(error: &clap::Error) -> ExitCode {
    match value_message(error) {
        Some(message) => {
            crate::console::to_stderr(&format!("error: {}", contention::runs::visible(&message)));
            ExitCode::from(2)
        }
        None => {
            let _ = error.print();
            ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
        }
    }
}

/// `invalid {flag} = {value}: {allowed}` for a value a parser refused.
fn value_message(error: &clap::Error) -> Option<String> {
    if error.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        _ => None,
    };
    let flag = text(ContextKind::InvalidArg)?;
    let flag = flag.trim_start_matches('-').split([' ', '=']).next().unwrap_or(&flag).to_string();
    let value = text(ContextKind::InvalidValue)?;
    let allowed = std::error::Error::source(error)?.to_string();
    Some(format!("invalid {flag} = {value}: {allowed}"))
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;

    #[test]
    fn refused_values_are_named_with_what_is_allowed() {
        let error =
            crate::options::cli::Cli::try_parse_from(["contention", "run", "stride", "--threads=-1"]).unwrap_err();
        let message = value_message(&error).unwrap();
        assert_eq!(
            message,
            "invalid threads = -1: 1 to 256 threads for stride, sharing and counters, 1 to 1024 for gc, 1 to 256 \
             for locks"
        );
        let error =
            crate::options::cli::Cli::try_parse_from(["contention", "run", "gc", "--seconds", "1e400"]).unwrap_err();
        assert_eq!(value_message(&error).unwrap(), "invalid seconds = 1e400: 0.001 to 600 seconds");
        let error = crate::options::cli::Cli::try_parse_from(["contention", "run", "gc", "--bogus"]).unwrap_err();
        assert_eq!(value_message(&error), None);
    }
}
