//! Article C's lock claims on the command line: the experiment's own flags, then its config.

use std::path::Path;

use anyhow::Result;
use contention::harness::Progress;
use contention::locks::{Case, Config};

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::flag_values::{number, whole, Number};
use crate::runtime_status::JAVA_VERSION_KEY;

/// The locks experiment's own flags (`--threads` and `--trials` are shared).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LocksOptions {
    /// Locks: cases to measure, e.g. uncontended,read-mostly (default: all five).
    #[arg(long, value_delimiter = ',', value_name = "CASE", value_parser = lock_case)]
    pub cases: Vec<String>,
    /// Locks: shares of reads in the read-mostly case, each 0..1 (default 1,0.99,0.9).
    #[arg(long, value_delimiter = ',', value_name = "SHARE", allow_negative_numbers = true, value_parser = read_share)]
    pub read_share: Vec<Number>,
    /// Locks: the remote call's wait inside the lock-across-wait case, milliseconds (0..1000).
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = lock_wait_ms)]
    pub wait_ms: Option<Number>,
    /// Locks: distinct keys the lock-across-wait case asks for (1..1000000).
    #[arg(long, value_name = "N", value_parser = keys)]
    pub keys: Option<u64>,
    /// Locks: skip the JVM's own primitives that otherwise run beside the Rust ones when
    /// `java` and `javac` are on PATH.
    #[arg(long)]
    pub no_java: bool,
}

impl ExperimentOptions for LocksOptions {
    type Kind = contention::locks::LockCases;
    const SHARED: &'static [&'static str] = &["threads", "trials"];

    /// The experiment's config; validated only when it was asked for.
    fn apply(&self, config: &mut Config, args: &MeasureArgs, _selected: bool) -> Result<()> {
        if !self.cases.is_empty() {
            config.cases = self.cases.iter().map(|name| name.parse::<Case>()).collect::<Result<_, _>>()?;
        }
        if !args.threads.is_empty() {
            config.threads = args.threads.clone();
        }
        if !self.read_share.is_empty() {
            config.read_shares = self.read_share.iter().map(|share| share.value).collect();
        }
        config.wait_ms = self.wait_ms.as_ref().map_or(config.wait_ms, |wait| wait.value);
        config.keys = self.keys.unwrap_or(config.keys);
        config.trials = args.trials.unwrap_or(config.trials);
        Ok(())
    }

    /// The JVM's own primitives over the same cases, unless `--no-java` or no JDK on PATH.
    fn measure_runtime(
        config: &Config,
        args: &MeasureArgs,
        dir: &Path,
        progress: Progress,
    ) -> Option<serde_json::Value> {
        let wanted = !args.experiments.locks.no_java;
        Some(crate::locks_java::measure_beside(config, wanted, dir, progress).to_manifest(JAVA_VERSION_KEY))
    }
}

/// One of the locks' cases, by name.
fn lock_case(text: &str) -> Result<String, String> {
    text.parse::<contention::locks::Case>().map(|_| text.to_string()).map_err(|error| error.allowed)
}

/// A share of reads: 0 to 1.
fn read_share(text: &str) -> Result<Number, String> {
    number(text, (0.0, 1.0), false, || "a share of reads from 0 to 1".into())
}

/// The lock-across-wait case's remote wait in milliseconds.
fn lock_wait_ms(text: &str) -> Result<Number, String> {
    let most = contention::locks::MAX_WAIT_MS;
    number(text, (0.0, most), false, || format!("0 to {most} ms"))
}

/// Distinct keys the lock-across-wait case asks for.
fn keys(text: &str) -> Result<u64, String> {
    let most = contention::locks::MAX_KEYS;
    whole(text, 1, most, || format!("1 to {most} keys"))
}
