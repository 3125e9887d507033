//! Thread-pool sizing's flags: `--seconds` (a run's arrivals), `--trials`, and the service's
//! and the load's own.

use std::time::Duration;

use super::{Config, Variant, MAX_CAPACITY_CLIENTS, MAX_POOL_THREADS, MAX_REQUESTS_PER_RUN, QUEUE_TIMEOUT_RANGE};
use crate::error::ConfigError;
use crate::flags::{count, number, seconds, whole, Dash, Flag, Flags, Given, Shared};
use crate::limits::{MAX_WAIT_MS, MIN_TRIAL};

pub fn flags() -> Flags<Config> {
    Flags {
        shared: vec![
            Shared::Seconds {
                sense: "the seconds of arrivals of a pool run",
                set: |config: &mut Config, window| config.window = window,
            },
            Shared::Trials(|config: &mut Config, trials| config.trials = trials),
        ],
        own: service().into_iter().chain(load()).collect(),
        settle: derived_work,
    }
}

/// The variants, as `--variant` names them, with a line of help where the name is not enough.
const VARIANTS: &[(&str, &str)] = &[
    ("fixed", ""),
    ("split", ""),
    ("async", ""),
    ("async-blocking", "Async tasks that block their workers while they wait (the pinning pitfall)"),
    ("all", ""),
];

/// The pools, the cache and the service's waits.
fn service() -> Vec<Flag<Config>> {
    let wait = |text: &str| {
        number(text, (0.0, MAX_WAIT_MS), false, || {
            format!("milliseconds from 0 to {MAX_WAIT_MS} (one trial's longest run)")
        })
    };
    vec![
        Flag::list(
            "pool-sizes",
            "N",
            "Pool sizing: fixed-pool sizes to sweep (default: cores+1, 2, 4, 8 and 40 per CPU, the formula's answer)",
            |text| count(text, MAX_POOL_THREADS as u64, "threads"),
            |config: &mut Config, sizes| config.pool_sizes = Some(sizes),
        ),
        Flag::list(
            "hit",
            "P",
            "Pool sizing: probability that a request hits the cache (0..1; several: 0.92,0.97)",
            |text| number(text, (0.0, 1.0), false, || "a probability between 0 and 1".into()),
            |config: &mut Config, rates| config.hit_rates = rates,
        )
        .dash(Dash::Always),
        Flag::one(
            "rate",
            "R",
            "Pool sizing: arrivals per second in all (default: --rate-per-cpu x this machine's CPUs)",
            rate,
            |config: &mut Config, rate| config.rate_per_s = Some(rate),
        )
        .dash(Dash::Number),
        Flag::one(
            "variant",
            "VARIANT",
            "Pool sizing: which way of serving the requests to run",
            variants,
            |config: &mut Config, variants| config.variants = variants,
        )
        .choices(VARIANTS),
        Flag::whole_list(
            "hit-wait-ms",
            "MS",
            "Pool sizing: a cache hit's simulated wait, MIN,MAX milliseconds, each at most 600000 (default 1,2)",
            wait,
            |config: &mut Config, range| wait_range(range).map(|range| config.hit_wait_ms = range),
        )
        .dash(Dash::Always),
        Flag::whole_list(
            "miss-wait-ms",
            "MS",
            "Pool sizing: a miss's simulated wait, MIN,MAX milliseconds, each at most 600000 (default 40,80)",
            wait,
            |config: &mut Config, range| wait_range(range).map(|range| config.miss_wait_ms = range),
        )
        .dash(Dash::Always),
    ]
}

/// The load: its rate and work, the lock, the connections, the queue and the capacity probe.
fn load() -> Vec<Flag<Config>> {
    vec![
        Flag::one(
            "rate-per-cpu",
            "R",
            "Pool sizing: arrivals per second per CPU (default 147.5: the article's 1 180 on 8 cores)",
            rate,
            |config: &mut Config, rate| config.rate_per_cpu_per_s = rate,
        )
        .dash(Dash::Number),
        Flag::one(
            "work-share",
            "SHARE",
            "Pool sizing: share of the CPUs the requests' own work takes at the offered rate (default 0.15)",
            |text| number(text, (0.0, 1.0), true, || "a share above 0 and at most 1".into()),
            |config: &mut Config, share| config.work_cpu_share = share,
        )
        .dash(Dash::Number),
        Flag::one(
            "cpu-work-ms",
            "MS",
            "Pool sizing: CPU work per request in ms (overrides --work-share)",
            |text| {
                let work = number(text, (0.001, 1000.0), false, || "CPU work per request from 0.001 to 1000 ms".into());
                work.map(|ms| Duration::from_secs_f64(ms / 1e3))
            },
            |config: &mut Config, work| config.cpu_work = Some(work),
        )
        .dash(Dash::Number),
        Flag::one(
            "lock-hold-us",
            "US",
            "Pool sizing: CPU work under the shared lock per request, microseconds (default 50)",
            |text| whole(text, 0, 1_000_000, || "0 to 1000000 microseconds".into()),
            |config: &mut Config, micros| config.lock_hold = Duration::from_micros(micros),
        ),
        Flag::one(
            "db-connections",
            "N",
            "Pool sizing: database connections misses acquire (default: 1.25 per CPU, HikariCP's 10 on 8 cores)",
            |text| count(text, MAX_POOL_THREADS as u64, "connections"),
            |config: &mut Config, connections| config.db_connections = Some(connections),
        ),
        Flag::one(
            "queue-timeout-ms",
            "MS",
            "Pool sizing: a request waiting longer in a queue is dropped, counted at this latency (default 1000)",
            queue_timeout,
            |config: &mut Config, timeout| config.queue_timeout = timeout,
        )
        .dash(Dash::Number),
        Flag::one(
            "capacity-seconds",
            "S",
            "Pool sizing: seconds of the closed-loop capacity probe after each run (default 1)",
            seconds,
            |config: &mut Config, window| config.capacity_window = window,
        )
        .dash(Dash::Number),
        Flag::one(
            "capacity-clients",
            "N",
            "Pool sizing: callers of the capacity probe (default: 40 per CPU)",
            |text| count(text, MAX_CAPACITY_CLIENTS as u64, "callers"),
            |config: &mut Config, clients| config.capacity_clients = Some(clients),
        ),
    ]
}

fn variants(text: &str) -> Result<Vec<Variant>, String> {
    Ok(match text {
        "fixed" => vec![Variant::Fixed],
        "split" => vec![Variant::Split],
        "async" => vec![Variant::Async],
        "async-blocking" => vec![Variant::AsyncBlocking],
        "all" => Variant::ALL.to_vec(),
        _ => return Err(VARIANTS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")),
    })
}

/// The most arrivals per second: a run's whole schedule within the shortest window.
fn rate(text: &str) -> Result<f64, String> {
    let most = MAX_REQUESTS_PER_RUN / MIN_TRIAL.as_secs_f64();
    number(text, (0.0, most), true, || format!("requests per second above 0 and at most {most}"))
}

/// The queue's timeout in milliseconds, as a duration of at least a nanosecond.
fn queue_timeout(text: &str) -> Result<Duration, String> {
    let milliseconds = number(text, (0.0, MAX_WAIT_MS), true, || QUEUE_TIMEOUT_RANGE.into())?;
    match Duration::try_from_secs_f64(milliseconds / 1e3) {
        Ok(duration) if !duration.is_zero() => Ok(duration),
        _ => Err(format!("{QUEUE_TIMEOUT_RANGE} (at least 0.000001, one nanosecond)")),
    }
}

fn wait_range(values: Vec<f64>) -> Result<[f64; 2], String> {
    match values[..] {
        [low, high] => Ok([low, high]),
        _ => Err("two milliseconds, MIN,MAX".into()),
    }
}

const MIN_WORK: Duration = Duration::from_micros(1);
const MAX_WORK: Duration = Duration::from_secs(1);

/// Without `--cpu-work-ms`, the CPU work per request follows from the share and the rate
/// (work = share x CPUs / rate): when it falls outside 1 us to 1 s, the flag given is the
/// one named (the share first, then the rate), with the range that fits the others.
fn derived_work(config: &mut Config, given: &Given) -> Result<(), ConfigError> {
    let cpus = crate::machine::logical_cpus();
    if given.has("cpu-work-ms") || (MIN_WORK..=MAX_WORK).contains(&config.cpu_work_for(cpus)) {
        return Ok(());
    }
    let (rate, share, cpus_f) = (config.offered_rate_per_s(cpus), config.work_cpu_share, cpus as f64);
    let (shortest, longest) = (MIN_WORK.as_secs_f64(), MAX_WORK.as_secs_f64());
    let named =
        ["work-share", "rate", "rate-per-cpu"].into_iter().find_map(|flag| Some((flag, given.get(flag)?.join(","))));
    let Some((flag, text)) = named else { return Ok(()) };
    let (low, high, unit) = match flag {
        "work-share" => (rate * shortest / cpus_f, (rate * longest / cpus_f).min(1.0), "a share"),
        "rate" => (share * cpus_f / longest, share * cpus_f / shortest, "requests per second"),
        _ => (share / longest, share / shortest, "requests per second per CPU"),
    };
    let allowed = format!(
        "{unit} from {} to {}, so that each request's CPU work is 0.001 to 1000 ms (work = share x CPUs / rate; \
         here {} requests/s, share {}, {cpus} CPUs)",
        significant(low),
        significant(high),
        significant(rate),
        significant(share),
    );
    Err(ConfigError::new(flag, text, allowed))
}

/// A number to about six significant digits, in exponent form when tiny: "0.15", "3e-7".
fn significant(value: f64) -> String {
    if value != 0.0 && value.abs() < 1e-3 {
        return format!("{value:.3e}").replace(".000e", "e");
    }
    let text = format!("{value:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_the_pools_ranges_are_refused_with_them() {
        let timeout = queue_timeout;
        assert!(timeout("1e-9").unwrap_err().ends_with("(at least 0.000001, one nanosecond)"));
        assert!(timeout("0").is_err() && timeout("1").is_ok());
        assert!(rate("18446744073709551616").unwrap_err().starts_with("requests per second above 0 and at most"));
        assert_eq!(wait_range(vec![1.0, 2.0, 3.0]).unwrap_err(), "two milliseconds, MIN,MAX");
        assert_eq!(variants("all").unwrap(), Variant::ALL);
    }
}
