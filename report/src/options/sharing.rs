//! The four-way control on the command line: flags to config.

use anyhow::Result;
use contention::sharing::Config;

use super::cli::MeasureArgs;
use super::ExperimentOptions;
use crate::bad_flag::bad_flag;
use crate::flag_values::whole;

/// The one thread count `--threads` gives, if any; a list is refused when `selected`.
pub fn one_thread_count(args: &MeasureArgs, selected: bool, what: &str) -> Result<Option<usize>> {
    match args.threads.as_slice() {
        [] => Ok(None),
        [threads] => Ok(Some(*threads)),
        many if selected => Err(bad_flag(format!(
            "invalid threads = {}: {what} takes one thread count",
            many.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
        ))),
        _ => Ok(None),
    }
}

/// The four-way control's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SharingOptions {
    /// Sharing: distance between the no-sharing counters in bytes, a power of two from 8.
    #[arg(long, value_name = "BYTES", value_parser = padding)]
    pub padding: Option<usize>,
}

impl ExperimentOptions for SharingOptions {
    type Kind = contention::sharing::FourWay;
    const SHARED: &'static [&'static str] = &["threads", "total", "trials"];

    /// Without `--total`, the default total is kept, rounded down to a multiple of
    /// `--threads`.
    fn apply(&self, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
        if let Some(threads) = one_thread_count(args, selected, "the four-way control")? {
            *config = config.clone().with_threads(threads);
        }
        if let Some(total) = args.total {
            config.total_increments = total;
        }
        if let Some(padding) = self.padding {
            config.padding_bytes = padding;
        }
        if let Some(trials) = args.trials {
            config.trials = trials;
        }
        Ok(())
    }
}

fn padding(text: &str) -> Result<usize, String> {
    let most = contention::sharing::MAX_PADDING_BYTES as u64;
    let allowed = || format!("a power of two from 8 to {most} bytes (e.g. 64 or 128)");
    whole(text, 8, most, allowed)
        .and_then(|bytes| if bytes.is_power_of_two() { Ok(bytes as usize) } else { Err(allowed()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_a_power_of_two() {
        assert!(padding("96").is_err() && padding("128").is_ok());
    }
}
