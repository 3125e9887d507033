//! Core-to-core latency on the command line: flags to config.

use anyhow::Result;
use contention::c2c::Config;
use contention::limits::MAX_ROWS;

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::bad_flag::bad_flag;
use crate::flag_values::{self, count};

/// The core-to-core latency's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct C2cOptions {
    /// Core-to-core latency: logical CPUs to pair, ids and ranges, e.g. 0-3,8,10-11 (default: every CPU).
    #[arg(long, value_name = "LIST", value_parser = flag_values::cpus)]
    pub cpus: Option<String>,
    /// Core-to-core latency: measured samples per pair.
    #[arg(long, value_name = "N", value_parser = samples)]
    pub samples: Option<usize>,
}

impl ExperimentOptions for C2cOptions {
    type Kind = contention::c2c::CoreToCore;
    const SHARED: &'static [&'static str] = &[];

    /// Validated with the rest when it was asked for, so an unknown CPU id is refused
    /// (exit 2) before anything is measured.
    fn apply(&self, config: &mut Config, _args: &MeasureArgs, _selected: bool) -> Result<()> {
        if let Some(list) = &self.cpus {
            config.cpus = cpu_list(list)?;
        }
        if let Some(samples) = self.samples {
            config.samples_per_pair = samples;
        }
        Ok(())
    }
}

/// `--cpus` as the kernel writes CPU lists ("0-3,8,10-11"), read by the lib's parser: ids
/// above 4095, empty entries and ranges that run backwards are refused before anything is
/// expanded.
fn cpu_list(list: &str) -> Result<Vec<usize>> {
    let allowed = contention::limits::cpus::cpu_list_allowed();
    let shown = contention::runs::visible(list);
    match contention::limits::cpus::cpu_ids(list) {
        Ok(cpus) if !cpus.is_empty() => Ok(cpus),
        Ok(_) => Err(bad_flag(format!("invalid cpus = {shown}: {allowed}"))),
        Err(why) => Err(bad_flag(format!("invalid cpus = {shown}: {why}: {allowed}"))),
    }
}

fn samples(text: &str) -> Result<usize, String> {
    count(text, MAX_ROWS as u64, "samples per pair")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_at_least_one() {
        assert!(samples("0").is_err() && samples("1").is_ok());
    }

    #[test]
    fn cpu_lists_take_ids_and_ranges() {
        assert_eq!(cpu_list("0-1").unwrap(), [0, 1]);
        assert_eq!(cpu_list("0-3,8,10-11").unwrap(), [0, 1, 2, 3, 8, 10, 11]);
        for (bad, why) in [
            ("", ""),
            ("3-1", "the range 3-1 runs backwards: "),
            ("a", "'a' is not a CPU id: "),
            ("0-", "an empty entry: "),
            ("1,,x", "an empty entry: "),
            ("0-4294967295", "CPU 4294967295 is above 4095: "),
        ] {
            let error = cpu_list(bad).unwrap_err().to_string();
            assert_eq!(error, format!("invalid cpus = {bad}: {why}CPU ids from 0 to 4095 and rising ranges, at most 4096 CPUs, e.g. 0-3,8,10-11"));
        }
    }
}
