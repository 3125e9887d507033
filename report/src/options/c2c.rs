//! Core-to-core latency on the command line: flags to config.

use anyhow::Result;
use contention::c2c::Config;

use super::ExperimentOptions;
use crate::cli::MeasureArgs;
use crate::usage::usage;

/// The core-to-core latency's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct C2cOptions {}

impl ExperimentOptions for C2cOptions {
    type Kind = contention::c2c::CoreToCore;

    fn config(&self, args: &MeasureArgs, selected: bool) -> Result<Config> {
        config(args, selected)
    }
}

/// The matrix's config from the flags; validated only when it was asked for, so an
/// unknown CPU id is refused (exit 2) before anything is measured.
fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if let Some(list) = &args.cpus {
        config.cpus = cpu_list(list)?;
    }
    if let Some(samples) = args.samples {
        config.samples_per_pair = samples;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}

/// `--cpus` as the kernel writes CPU lists ("0-3,8,10-11"), read by the lib's parser; a
/// range that runs backwards is refused rather than read as empty.
fn cpu_list(list: &str) -> Result<Vec<usize>> {
    let backwards = list.split(',').filter_map(|part| part.split_once('-')).any(|(first, last)| {
        matches!((first.trim().parse::<usize>(), last.trim().parse::<usize>()), (Ok(first), Ok(last)) if first > last)
    });
    match contention::machine::parse_cpu_list(list) {
        Some(cpus) if !cpus.is_empty() && !backwards => Ok(cpus),
        _ => Err(usage(format!("invalid cpus = {list}: CPU ids and rising ranges, e.g. 0-3,8,10-11"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_take_ids_and_ranges() {
        assert_eq!(cpu_list("0-1").unwrap(), [0, 1]);
        assert_eq!(cpu_list("0-3,8,10-11").unwrap(), [0, 1, 2, 3, 8, 10, 11]);
        for bad in ["", "3-1", "a", "0-", "1,,x"] {
            let error = cpu_list(bad).unwrap_err().to_string();
            assert_eq!(error, format!("invalid cpus = {bad}: CPU ids and rising ranges, e.g. 0-3,8,10-11"));
        }
    }
}
