//! Thread-pool sizing on the command line: flags to config.

use std::time::Duration;

use anyhow::Result;
use contention::limits::{MAX_TRIAL, MAX_WAIT_MS, MIN_TRIAL};
use contention::pool::{
    Config, Variant, MAX_CAPACITY_CLIENTS, MAX_POOL_THREADS, MAX_REQUESTS_PER_RUN, QUEUE_TIMEOUT_RANGE,
};

use super::cli::{MeasureArgs, VariantArg};
use super::ExperimentOptions;
use crate::bad_flag::bad_flag;
use crate::flag_values::{self, count, number, whole, Number};

/// Thread-pool sizing's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PoolOptions {
    /// Pool sizing: fixed-pool sizes to sweep (default: cores+1, 2, 4, 8 and 40 per CPU, the formula's answer).
    #[arg(long, value_delimiter = ',', value_name = "N", value_parser = pool_threads)]
    pub pool_sizes: Vec<usize>,
    /// Pool sizing: probability that a request hits the cache (0..1; several: 0.92,0.97).
    #[arg(long, value_delimiter = ',', value_name = "P", allow_hyphen_values = true, value_parser = probability)]
    pub hit: Vec<f64>,
    /// Pool sizing: arrivals per second in all (default: --rate-per-cpu x this machine's CPUs).
    #[arg(long, value_name = "R", allow_negative_numbers = true, value_parser = rate)]
    pub rate: Option<Number>,
    /// Pool sizing: which way of serving the requests to run.
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Pool sizing: a cache hit's simulated wait, MIN,MAX milliseconds, each at most 600000 (default 1,2).
    #[arg(long, value_delimiter = ',', value_name = "MS", allow_hyphen_values = true, value_parser = wait_ms)]
    pub hit_wait_ms: Vec<Number>,
    /// Pool sizing: a miss's simulated wait, MIN,MAX milliseconds, each at most 600000 (default 40,80).
    #[arg(long, value_delimiter = ',', value_name = "MS", allow_hyphen_values = true, value_parser = wait_ms)]
    pub miss_wait_ms: Vec<Number>,
    /// Pool sizing: arrivals per second per CPU (default 147.5: the article's 1 180 on 8 cores).
    #[arg(long, value_name = "R", allow_negative_numbers = true, value_parser = rate)]
    pub rate_per_cpu: Option<Number>,
    /// Pool sizing: share of the CPUs the requests' own work takes at the offered rate (default 0.15).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true, value_parser = share)]
    pub work_share: Option<Number>,
    /// Pool sizing: CPU work per request in ms (overrides --work-share).
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = cpu_work_ms)]
    pub cpu_work_ms: Option<Number>,
    /// Pool sizing: CPU work under the shared lock per request, microseconds (default 50).
    #[arg(long, value_name = "US", value_parser = lock_hold_us)]
    pub lock_hold_us: Option<u64>,
    /// Pool sizing: database connections misses acquire (default: 1.25 per CPU, HikariCP's 10 on 8 cores).
    #[arg(long, value_name = "N", value_parser = connections)]
    pub db_connections: Option<usize>,
    /// Pool sizing: a request waiting longer in a queue is dropped, counted at this latency (default 1000).
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = timeout_ms)]
    pub queue_timeout_ms: Option<Number>,
    /// Pool sizing: seconds of the closed-loop capacity probe after each run (default 1).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = flag_values::seconds)]
    pub capacity_seconds: Option<Number>,
    /// Pool sizing: callers of the capacity probe (default: 40 per CPU).
    #[arg(long, value_name = "N", value_parser = clients)]
    pub capacity_clients: Option<usize>,
}

impl ExperimentOptions for PoolOptions {
    type Kind = contention::pool::PoolSizing;
    const SHARED: &'static [&'static str] = &["seconds", "trials"];
    const OWN_SENSE: &'static [(&'static str, &'static str)] = &[("seconds", "the seconds of arrivals of a pool run")];

    fn apply(&self, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
        apply(self, config, args, selected)
    }
}

fn apply(flags: &PoolOptions, config: &mut Config, args: &MeasureArgs, selected: bool) -> Result<()> {
    if !flags.pool_sizes.is_empty() {
        config.pool_sizes = Some(flags.pool_sizes.clone());
    }
    if !flags.hit.is_empty() {
        config.hit_rates = flags.hit.clone();
    }
    let value = |number: &Option<Number>| number.as_ref().map(|number| number.value);
    config.rate_per_s = value(&flags.rate).or(config.rate_per_s);
    config.rate_per_cpu_per_s = value(&flags.rate_per_cpu).unwrap_or(config.rate_per_cpu_per_s);
    config.work_cpu_share = value(&flags.work_share).unwrap_or(config.work_cpu_share);
    config.db_connections = flags.db_connections.or(config.db_connections);
    config.capacity_clients = flags.capacity_clients.or(config.capacity_clients);
    if let Some(micros) = flags.lock_hold_us {
        config.lock_hold = Duration::from_micros(micros);
    }
    let seconds = |flag, value: &Number| {
        contention::limits::duration_from_seconds(flag, value.value, MIN_TRIAL, MAX_TRIAL)
            .map_err(|error| bad_flag(format!("invalid {flag} = {}: {}", value.text, error.allowed)))
    };
    if let Some(value) = &args.seconds {
        config.window = seconds("seconds", value)?;
    }
    if let Some(value) = &flags.capacity_seconds {
        config.capacity_window = seconds("capacity-seconds", value)?;
    }
    config.queue_timeout =
        millis("queue-timeout-ms", &flags.queue_timeout_ms, QUEUE_TIMEOUT_RANGE)?.unwrap_or(config.queue_timeout);
    let work = "CPU work per request from 0.001 to 1000 ms (set directly, or by --work-share and the rate)";
    config.cpu_work = millis("cpu-work-ms", &flags.cpu_work_ms, work)?.or(config.cpu_work);
    if let Some(variant) = flags.variant {
        config.variants = match variant {
            VariantArg::Fixed => vec![Variant::Fixed],
            VariantArg::Split => vec![Variant::Split],
            VariantArg::Async => vec![Variant::Async],
            VariantArg::AsyncBlocking => vec![Variant::AsyncBlocking],
            VariantArg::All => Variant::ALL.to_vec(),
        };
    }
    if let Some(range) = wait_range("hit-wait-ms", &flags.hit_wait_ms)? {
        config.hit_wait_ms = range;
    }
    if let Some(range) = wait_range("miss-wait-ms", &flags.miss_wait_ms)? {
        config.miss_wait_ms = range;
    }
    if let Some(trials) = args.trials {
        config.trials = trials;
    }
    if selected {
        derived_work(flags, config)?;
    }
    Ok(())
}

/// Milliseconds as a duration of at least a nanosecond; the value is quoted as given.
fn millis(flag: &str, value: &Option<Number>, allowed: &str) -> Result<Option<Duration>> {
    let Some(number) = value else { return Ok(None) };
    match Duration::try_from_secs_f64(number.value / 1e3) {
        Ok(duration) if !duration.is_zero() => Ok(Some(duration)),
        _ => Err(bad_flag(format!("invalid {flag} = {}: {allowed} (at least 0.000001, one nanosecond)", number.text))),
    }
}

/// Without `--cpu-work-ms`, the CPU work per request follows from the share and the rate
/// (work = share x CPUs / rate): when it falls outside 1 us to 1 s, the flag given is the
/// one named (the share first, then the rate), with the range that fits the others.
fn derived_work(flags: &PoolOptions, config: &Config) -> Result<()> {
    let cpus = contention::machine::logical_cpus();
    if flags.cpu_work_ms.is_some() || (MIN_WORK..=MAX_WORK).contains(&config.cpu_work_for(cpus)) {
        return Ok(());
    }
    let (rate, share, cpus_f) = (config.offered_rate_per_s(cpus), config.work_cpu_share, cpus as f64);
    let (shortest, longest) = (MIN_WORK.as_secs_f64(), MAX_WORK.as_secs_f64());
    let given = |flag: &'static str, number: &Option<Number>| number.as_ref().map(|number| (flag, number.text.clone()));
    let named = given("work-share", &flags.work_share)
        .or_else(|| given("rate", &flags.rate))
        .or_else(|| given("rate-per-cpu", &flags.rate_per_cpu));
    let Some((flag, text)) = named else { return Ok(()) };
    let (low, high, unit) = match flag {
        "work-share" => (rate * shortest / cpus_f, (rate * longest / cpus_f).min(1.0), "a share"),
        "rate" => (share * cpus_f / longest, share * cpus_f / shortest, "requests per second"),
        _ => (share / longest, share / shortest, "requests per second per CPU"),
    };
    Err(bad_flag(format!(
        "invalid {flag} = {text}: {unit} from {} to {}, so that each request's CPU work is 0.001 to 1000 ms \
         (work = share x CPUs / rate; here {} requests/s, share {}, {cpus} CPUs)",
        significant(low),
        significant(high),
        significant(rate),
        significant(share),
    )))
}

/// A number to about six significant digits, in exponent form when tiny: "0.15", "3e-7".
fn significant(value: f64) -> String {
    if value != 0.0 && value.abs() < 1e-3 {
        return format!("{value:.3e}").replace(".000e", "e");
    }
    let text = format!("{value:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

const MIN_WORK: Duration = Duration::from_micros(1);
const MAX_WORK: Duration = Duration::from_secs(1);

fn wait_range(flag: &str, values: &[Number]) -> Result<Option<[f64; 2]>> {
    match values {
        [] => Ok(None),
        [low, high] => Ok(Some([low.value, high.value])),
        other => Err(bad_flag(format!(
            "invalid {flag} = {}: two milliseconds, MIN,MAX",
            other.iter().map(|number| number.text.as_str()).collect::<Vec<_>>().join(",")
        ))),
    }
}

fn pool_threads(text: &str) -> Result<usize, String> {
    count(text, MAX_POOL_THREADS as u64, "threads")
}

fn probability(text: &str) -> Result<f64, String> {
    number(text, (0.0, 1.0), false, || "a probability between 0 and 1".into()).map(|number| number.value)
}

/// The most arrivals per second: a run's whole schedule within the shortest window.
fn most_rate() -> f64 {
    MAX_REQUESTS_PER_RUN / MIN_TRIAL.as_secs_f64()
}

fn rate(text: &str) -> Result<Number, String> {
    let most = most_rate();
    number(text, (0.0, most), true, || format!("requests per second above 0 and at most {most}"))
}

fn wait_ms(text: &str) -> Result<Number, String> {
    let allowed = || format!("milliseconds from 0 to {MAX_WAIT_MS} (one trial's longest run)");
    number(text, (0.0, MAX_WAIT_MS), false, allowed)
}

fn share(text: &str) -> Result<Number, String> {
    number(text, (0.0, 1.0), true, || "a share above 0 and at most 1".into())
}

fn cpu_work_ms(text: &str) -> Result<Number, String> {
    number(text, (0.001, 1000.0), false, || "CPU work per request from 0.001 to 1000 ms".into())
}

fn lock_hold_us(text: &str) -> Result<u64, String> {
    whole(text, 0, 1_000_000, || "0 to 1000000 microseconds".into())
}

fn connections(text: &str) -> Result<usize, String> {
    count(text, MAX_POOL_THREADS as u64, "connections")
}

fn timeout_ms(text: &str) -> Result<Number, String> {
    number(text, (0.0, MAX_WAIT_MS), true, || QUEUE_TIMEOUT_RANGE.into())
}

fn clients(text: &str) -> Result<usize, String> {
    count(text, MAX_CAPACITY_CLIENTS as u64, "callers")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_the_pools_ranges_are_refused_with_them() {
        assert_eq!(timeout_ms("1e-9").map(|n| n.text), Ok("1e-9".into()), "the lib names what is too short");
        assert!(timeout_ms("0").is_err() && share("0").is_err() && share("1").is_ok());
        assert!(rate("18446744073709551616").unwrap_err().starts_with("requests per second above 0 and at most"));
    }
}
