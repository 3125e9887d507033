//! Thread-pool sizing on the command line: flags to config.

use std::time::Duration;

use anyhow::Result;
use contention::limits::{MAX_TRIAL, MIN_TRIAL};
use contention::pool::{Config, Variant, QUEUE_TIMEOUT_RANGE};

use super::ExperimentOptions;
use crate::cli::{MeasureArgs, VariantArg};
use crate::usage::usage;

/// Thread-pool sizing's flags.
#[derive(Debug)]
pub struct PoolOptions;

impl ExperimentOptions for PoolOptions {
    type Kind = contention::pool::PoolSizing;

    fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
        config(args, selected)
    }
}

/// The experiment's config from the flags; validated only when it was asked for.
fn config(args: &MeasureArgs, selected: bool) -> Result<Config> {
    let mut config = if args.quick { Config::quick() } else { Config::default() };
    if !args.pool_sizes.is_empty() {
        config.pool_sizes = Some(args.pool_sizes.clone());
    }
    if !args.hit.is_empty() {
        config.hit_rates = args.hit.clone();
    }
    config.rate_per_s = args.rate.or(config.rate_per_s);
    config.rate_per_cpu_per_s = args.rate_per_cpu.unwrap_or(config.rate_per_cpu_per_s);
    config.work_cpu_share = args.work_share.unwrap_or(config.work_cpu_share);
    config.db_connections = args.db_connections.or(config.db_connections);
    config.capacity_clients = args.capacity_clients.or(config.capacity_clients);
    if let Some(micros) = args.lock_hold_us {
        config.lock_hold = Duration::from_micros(micros);
    }
    let length = |flag: &str, value: Option<f64>, per_second: f64, allowed: &str| {
        value
            .map(|value| {
                Duration::try_from_secs_f64(value / per_second)
                    .map_err(|_| usage(format!("invalid {flag} = {value}: {allowed}")))
            })
            .transpose()
    };
    let seconds = |flag, value| contention::limits::duration_from_seconds(flag, value, MIN_TRIAL, MAX_TRIAL);
    if let Some(value) = args.seconds {
        config.window = seconds("seconds", value)?;
    }
    if let Some(value) = args.capacity_seconds {
        config.capacity_window = seconds("capacity-seconds", value)?;
    }
    config.queue_timeout =
        length("queue-timeout-ms", args.queue_timeout_ms, 1e3, QUEUE_TIMEOUT_RANGE)?.unwrap_or(config.queue_timeout);
    let work = "CPU work per request from 0.001 to 1000 ms (set directly, or by --work-share and the rate)";
    config.cpu_work = length("cpu-work-ms", args.cpu_work_ms, 1e3, work)?.or(config.cpu_work);
    if let Some(variant) = args.variant {
        config.variants = match variant {
            VariantArg::Fixed => vec![Variant::Fixed],
            VariantArg::Split => vec![Variant::Split],
            VariantArg::Async => vec![Variant::Async],
            VariantArg::AsyncBlocking => vec![Variant::AsyncBlocking],
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
