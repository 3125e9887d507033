//! Thread-pool sizing on the command line: flags to config.

use anyhow::Result;
use contention::limits::{MAX_TRIAL, MIN_TRIAL};
use contention::pool::{Config, Variant};

use crate::cli::{MeasureArgs, VariantArg};
use crate::usage::usage;

/// True when any pool flag sets a size, so the run's profile is "custom".
pub fn sized(args: &MeasureArgs) -> bool {
    !args.pool_sizes.is_empty()
        || !args.hit.is_empty()
        || args.rate.is_some()
        || args.seconds.is_some()
        || args.variant.is_some()
        || !args.hit_wait_ms.is_empty()
        || !args.miss_wait_ms.is_empty()
}

/// The experiment's config from the flags; validated only when it was asked for.
pub fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if !args.pool_sizes.is_empty() {
        config.pool_sizes = Some(args.pool_sizes.clone());
    }
    if !args.hit.is_empty() {
        config.hit_rates = args.hit.clone();
    }
    config.rate_per_s = args.rate.or(config.rate_per_s);
    if let Some(seconds) = args.seconds {
        config.window = contention::limits::duration_from_seconds("seconds", seconds, MIN_TRIAL, MAX_TRIAL)?;
    }
    if let Some(variant) = args.variant {
        config.variants = match variant {
            VariantArg::Fixed => vec![Variant::Fixed],
            VariantArg::Split => vec![Variant::Split],
            VariantArg::Async => vec![Variant::Async],
            VariantArg::All => Variant::ALL.to_vec(),
        };
    }
    if let Some(range) = wait_range("hit-wait-ms", &args.hit_wait_ms)? {
        config.hit_wait_ms = range;
    }
    if let Some(range) = wait_range("miss-wait-ms", &args.miss_wait_ms)? {
        config.miss_wait_ms = range;
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    if selected {
        config.validate()?;
    }
    Ok(config)
}

fn wait_range(flag: &str, values: &[f64]) -> Result<Option<[f64; 2]>> {
    match values {
        [] => Ok(None),
        &[low, high] => Ok(Some([low, high])),
        other => Err(usage(format!(
            "invalid {flag} = {}: two milliseconds, MIN,MAX",
            other.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
        ))),
    }
}
