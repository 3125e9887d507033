//! The GC sweep on the command line: flags to config.

use std::path::Path;

use anyhow::Result;
use contention::gc::{parse_ratios, Config};
use contention::harness::Progress;
use contention::limits::{max_heap_bytes, MAX_TRIAL, MIN_TRIAL};
use contention::ConfigError;

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::bad_flag::bad_flag;
use crate::flag_values::whole;
use crate::runtime_status::GO_VERSION_KEY;

/// The GC sweep's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GcOptions {
    /// GC sweep: collection ratios, GOGC-style percents (at least 1), off, or ranges FROM..TO:STEP,
    /// e.g. 100,400,off or 100..2000:100,off (at most 256 ratios).
    #[arg(long, value_delimiter = ',', value_name = "RATIO", value_parser = ratio)]
    pub ratios: Vec<String>,
    /// GC sweep: bytes of the live object graph every cycle traces (at most half of physical memory).
    #[arg(long, value_name = "B", value_parser = live_bytes)]
    pub live_bytes: Option<u64>,
    /// GC sweep: bytes each operation allocates.
    #[arg(long, value_name = "B", value_parser = heap_bytes)]
    pub alloc_per_op: Option<u64>,
    /// GC sweep: the heap's ceiling in bytes (what collects when the ratio is off; at most half of
    /// physical memory).
    #[arg(long, value_name = "B", value_parser = heap_bytes)]
    pub ceiling_bytes: Option<u64>,
    /// GC sweep: work per operation, ecdsa (the article's P-256 signing) or hash (cheaper).
    #[arg(long, value_name = "WORKLOAD", value_parser = workload)]
    pub workload: Option<String>,
    /// GC sweep: skip the real Go benchmark that otherwise runs beside the model when `go`
    /// is on PATH.
    #[arg(long)]
    pub no_go: bool,
}

impl ExperimentOptions for GcOptions {
    type Kind = contention::gc::GcSweep;
    const SHARED: &'static [&'static str] = &["threads", "seconds", "trials"];
    const OWN_SENSE: &'static [(&'static str, &'static str)] = &[("seconds", "the seconds each GC trial runs")];

    fn apply(&self, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
        apply(self, config, args, selected)
    }

    /// The real Go benchmark over the same grid, unless `--no-go` or no `go` on PATH.
    fn measure_runtime(
        config: &Config,
        args: &MeasureArgs,
        dir: &Path,
        progress: Progress,
    ) -> Option<serde_json::Value> {
        Some(
            crate::gc_go::measure_beside(config, !args.experiments.gc.no_go, dir, progress).to_manifest(GO_VERSION_KEY),
        )
    }
}

/// The ratios and the seconds are read only when the sweep was asked for.
fn apply(flags: &GcOptions, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
    if !args.threads.is_empty() {
        config.threads = args.threads.clone();
    }
    if !selected {
        return Ok(());
    }
    if !flags.ratios.is_empty() {
        config.ratios = parse_ratios(&flags.ratios)?;
    }
    if let Some(seconds) = &args.seconds {
        config.trial = contention::limits::duration_from_seconds("seconds", seconds.value, MIN_TRIAL, MAX_TRIAL)
            .map_err(|error| bad_flag(format!("invalid seconds = {}: {}", seconds.text, error.allowed)))?;
    }
    if let Some(workload) = &flags.workload {
        config.workload = workload.parse()?;
    }
    config.live_bytes = flags.live_bytes.unwrap_or(config.live_bytes);
    config.alloc_per_op_bytes = flags.alloc_per_op.unwrap_or(config.alloc_per_op_bytes);
    config.ceiling_bytes = flags.ceiling_bytes.unwrap_or(config.ceiling_bytes);
    config.trials = args.trials.unwrap_or(config.trials);
    // A ceiling given alone is what is wrong when it is too small for the other sizes.
    let smallest = config.smallest_ceiling_bytes();
    let ceiling_alone = flags.ceiling_bytes.is_some() && flags.live_bytes.is_none() && flags.alloc_per_op.is_none();
    if ceiling_alone && config.ceiling_bytes < smallest {
        let allowed = format!(
            "at least {smallest} bytes: the live graph ({} bytes) plus 4 spans per worker and one more, and twice \
             an operation's allocation ({} bytes)",
            config.live_bytes, config.alloc_per_op_bytes
        );
        return Err(ConfigError::new("ceiling-bytes", config.ceiling_bytes, allowed).into());
    }
    Ok(())
}

/// One item of `--ratios`: a ratio, `off`, or a range FROM..TO:STEP (the list's total is
/// bounded where the config is built).
fn ratio(text: &str) -> Result<String, String> {
    contention::gc::ratios::parse_ratios(&[text]).map(|_| text.to_string()).map_err(|error| error.allowed)
}

/// The live graph's size in bytes: 0 to half this machine's memory.
fn live_bytes(text: &str) -> Result<u64, String> {
    let most = max_heap_bytes();
    whole(text, 0, most, || format!("at most {most} bytes (half of this machine's memory)"))
}

/// A heap size in bytes: 1 to half this machine's memory.
fn heap_bytes(text: &str) -> Result<u64, String> {
    let most = max_heap_bytes();
    whole(text, 1, most, || format!("1 to {most} bytes (half of this machine's memory at most)"))
}

fn workload(text: &str) -> Result<String, String> {
    text.parse::<contention::gc::Workload>().map(|_| text.to_string()).map_err(|error| error.allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_above_0_or_off() {
        assert!(ratio("0").is_err() && ratio("off").is_ok());
    }
}
