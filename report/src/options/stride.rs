//! The stride sweep on the command line: flags to config.

use anyhow::Result;
use contention::stride::Config;

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::bad_flag::bad_flag;
use crate::flag_values::whole;

/// The stride sweep's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StrideOptions {
    /// Stride sweep: distances between counters in bytes, multiples of 8.
    #[arg(long, value_delimiter = ',', value_name = "BYTES", value_parser = strides)]
    pub strides: Vec<usize>,
}

impl ExperimentOptions for StrideOptions {
    type Kind = contention::stride::StrideSweep;
    const SHARED: &'static [&'static str] = &["threads", "iters", "trials"];

    fn apply(&self, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
        apply(self, config, args, selected)
    }
}

fn apply(flags: &StrideOptions, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
    match args.threads.as_slice() {
        [] => {}
        // One count asked for: one sweep, at it.
        [threads] => {
            config.threads = *threads;
            config.clean_threads = None;
        }
        many if selected => {
            return Err(bad_flag(format!(
                "invalid threads = {}: the stride sweep takes one thread count",
                many.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
            )))
        }
        _ => {}
    }
    if !flags.strides.is_empty() {
        config.strides_bytes = flags.strides.clone();
    }
    if let Some(iters) = args.iters {
        config.iters_per_thread = iters;
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    Ok(())
}

fn strides(text: &str) -> Result<usize, String> {
    let widest = contention::arena::MAX_ARENA_BYTES as u64;
    let allowed = || format!("multiples of 8 bytes from 8 to {widest} (the arena's size, over the threads)");
    whole(text, 8, widest, allowed)
        .and_then(|stride| if stride % 8 == 0 { Ok(stride as usize) } else { Err(allowed()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_are_multiples_of_8() {
        assert!(strides("12").is_err() && strides("64").is_ok() && strides("0").is_err());
    }
}
