//! How each measuring flag's text becomes a value (clap's value parsers): every value is
//! held to the widest range any experiment accepts, whichever experiments are selected, so
//! a value no experiment could take is refused the same way everywhere (`run stride
//! --samples 0` too). An experiment's own, narrower checks (a stride for this many threads)
//! follow in its config's `validate`. A parser's error says only what is allowed; `main`
//! writes it as `invalid {flag} = {value as given}: {allowed}` (the usage module's form).

use contention::limits::cpus::{cpu_ids, cpu_list_allowed};
use contention::limits::{
    max_heap_bytes, MAX_INCREMENTS_PER_TRIAL, MAX_ROWS, MAX_TRIAL, MAX_TRIALS, MAX_WAIT_MS, MIN_TRIAL,
};
use contention::pool::{MAX_CAPACITY_CLIENTS, MAX_POOL_THREADS, MAX_REQUESTS_PER_RUN};

/// A number as given on the command line: its value, and its text for messages (so
/// `1e400` is quoted as `1e400`, not as `inf`).
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub value: f64,
    pub text: String,
}

/// A whole number from `low` to `high`, in decimal digits; `allowed` says so in words.
fn whole(text: &str, low: u64, high: u64, allowed: impl FnOnce() -> String) -> Result<u64, String> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(value) if digits && (low..=high).contains(&value) => Ok(value),
        _ => Err(allowed()),
    }
}

/// A finite decimal number within `range` (`open_low`: above its start, not at it).
fn number(
    text: &str,
    (low, high): (f64, f64),
    open_low: bool,
    allowed: impl FnOnce() -> String,
) -> Result<Number, String> {
    let plain = !text.starts_with('+') && !text.trim_start_matches('-').starts_with(|c: char| c.is_ascii_alphabetic());
    let in_range = |value: f64| value.is_finite() && value <= high && (value > low || (!open_low && value == low));
    match text.parse::<f64>() {
        Ok(value) if plain && in_range(value) => Ok(Number { value, text: text.to_string() }),
        _ => Err(allowed()),
    }
}

fn count(text: &str, high: u64, unit: &str) -> Result<usize, String> {
    whole(text, 1, high, || format!("1 to {high} {unit}")).map(|value| value as usize)
}

pub fn threads(text: &str) -> Result<usize, String> {
    let most = contention::gc::MAX_THREADS as u64;
    let team = contention::limits::MAX_TEAM_THREADS;
    whole(text, 1, most, || format!("1 to {team} threads for stride, sharing and counters, 1 to {most} for gc"))
        .map(|threads| threads as usize)
}

pub fn strides(text: &str) -> Result<usize, String> {
    let widest = contention::arena::MAX_ARENA_BYTES as u64;
    let allowed = || format!("multiples of 8 bytes from 8 to {widest} (the arena's size, over the threads)");
    whole(text, 8, widest, allowed)
        .and_then(|stride| if stride % 8 == 0 { Ok(stride as usize) } else { Err(allowed()) })
}

pub fn increments(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_INCREMENTS_PER_TRIAL, || format!("1 to {MAX_INCREMENTS_PER_TRIAL} increments"))
}

pub fn flush_every(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_INCREMENTS_PER_TRIAL, || format!("1 to {MAX_INCREMENTS_PER_TRIAL} increments between flushes"))
}

pub fn trials(text: &str) -> Result<usize, String> {
    count(text, MAX_TRIALS as u64, "trials per case")
}

pub fn padding(text: &str) -> Result<usize, String> {
    let most = contention::sharing::MAX_PADDING_BYTES as u64;
    let allowed = || format!("a power of two from 8 to {most} bytes (e.g. 64 or 128)");
    whole(text, 8, most, allowed)
        .and_then(|bytes| if bytes.is_power_of_two() { Ok(bytes as usize) } else { Err(allowed()) })
}

pub fn stripes(text: &str) -> Result<usize, String> {
    count(text, contention::counters::MAX_STRIPES as u64, "cells")
}

pub fn shards(text: &str) -> Result<usize, String> {
    count(text, contention::counters::MAX_SHARDS as u64, "shards")
}

pub fn cpus(text: &str) -> Result<String, String> {
    match cpu_ids(text) {
        Ok(ids) if !ids.is_empty() => Ok(text.to_string()),
        Ok(_) => Err(cpu_list_allowed()),
        Err(why) => Err(format!("{why}: {}", cpu_list_allowed())),
    }
}

pub fn samples(text: &str) -> Result<usize, String> {
    count(text, MAX_ROWS as u64, "samples per pair")
}

/// One of the locks' cases, by name.
pub fn lock_case(text: &str) -> Result<String, String> {
    text.parse::<contention::locks::Case>().map(|_| text.to_string()).map_err(|error| error.allowed)
}

/// A share of reads: 0 to 1.
pub fn read_share(text: &str) -> Result<Number, String> {
    number(text, (0.0, 1.0), false, || "a share of reads from 0 to 1".into())
}

/// The lock-across-wait case's remote wait in milliseconds.
pub fn lock_wait_ms(text: &str) -> Result<Number, String> {
    let most = contention::locks::MAX_WAIT_MS;
    number(text, (0.0, most), false, || format!("0 to {most} ms"))
}

/// Distinct keys the lock-across-wait case asks for.
pub fn keys(text: &str) -> Result<u64, String> {
    let most = contention::locks::MAX_KEYS;
    whole(text, 1, most, || format!("1 to {most} keys"))
}

/// One item of `--ratios`: a ratio, `off`, or a range FROM..TO:STEP (the list's total is
/// bounded where the config is built).
pub fn ratio(text: &str) -> Result<String, String> {
    contention::gc::ratios::parse_ratios(&[text]).map(|_| text.to_string()).map_err(|error| error.allowed)
}

pub fn seconds(text: &str) -> Result<Number, String> {
    let (low, high) = (MIN_TRIAL.as_secs_f64(), MAX_TRIAL.as_secs_f64());
    number(text, (low, high), false, || format!("{low} to {high} seconds"))
}

/// The live graph's size in bytes: 0 to half this machine's memory.
pub fn live_bytes(text: &str) -> Result<u64, String> {
    let most = max_heap_bytes();
    whole(text, 0, most, || format!("at most {most} bytes (half of this machine's memory)"))
}

/// A heap size in bytes: 1 to half this machine's memory.
pub fn heap_bytes(text: &str) -> Result<u64, String> {
    let most = max_heap_bytes();
    whole(text, 1, most, || format!("1 to {most} bytes (half of this machine's memory at most)"))
}

pub fn workload(text: &str) -> Result<String, String> {
    text.parse::<contention::gc::Workload>().map(|_| text.to_string()).map_err(|error| error.allowed)
}

pub fn pool_threads(text: &str) -> Result<usize, String> {
    count(text, MAX_POOL_THREADS as u64, "threads")
}

pub fn probability(text: &str) -> Result<f64, String> {
    number(text, (0.0, 1.0), false, || "a probability between 0 and 1".into()).map(|number| number.value)
}

/// The most arrivals per second: a run's whole schedule within the shortest window.
fn most_rate() -> f64 {
    MAX_REQUESTS_PER_RUN / MIN_TRIAL.as_secs_f64()
}

pub fn rate(text: &str) -> Result<Number, String> {
    let most = most_rate();
    number(text, (0.0, most), true, || format!("requests per second above 0 and at most {most}"))
}

pub fn wait_ms(text: &str) -> Result<Number, String> {
    let allowed = || format!("milliseconds from 0 to {MAX_WAIT_MS} (one trial's longest run)");
    number(text, (0.0, MAX_WAIT_MS), false, allowed)
}

pub fn share(text: &str) -> Result<Number, String> {
    number(text, (0.0, 1.0), true, || "a share above 0 and at most 1".into())
}

pub fn cpu_work_ms(text: &str) -> Result<Number, String> {
    number(text, (0.001, 1000.0), false, || "CPU work per request from 0.001 to 1000 ms".into())
}

pub fn lock_hold_us(text: &str) -> Result<u64, String> {
    whole(text, 0, 1_000_000, || "0 to 1000000 microseconds".into())
}

pub fn connections(text: &str) -> Result<usize, String> {
    count(text, MAX_POOL_THREADS as u64, "connections")
}

pub fn timeout_ms(text: &str) -> Result<Number, String> {
    number(text, (0.0, MAX_WAIT_MS), true, || contention::pool::QUEUE_TIMEOUT_RANGE.into())
}

pub fn clients(text: &str) -> Result<usize, String> {
    count(text, MAX_CAPACITY_CLIENTS as u64, "callers")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_every_experiment_s_range_are_refused_with_it() {
        assert_eq!(threads("-1").unwrap_err(), "1 to 256 threads for stride, sharing and counters, 1 to 1024 for gc");
        assert_eq!(threads("4"), Ok(4));
        assert_eq!(trials("18446744073709551616").unwrap_err(), "1 to 10000 trials per case");
        assert_eq!(seconds("1e400").unwrap_err(), "0.001 to 600 seconds");
        assert_eq!(seconds("0.5").map(|n| n.value), Ok(0.5));
        assert!(seconds("inf").is_err() && seconds("NaN").is_err() && seconds("+1").is_err());
        assert_eq!(timeout_ms("1e-9").map(|n| n.text), Ok("1e-9".into()), "the lib names what is too short");
        assert!(timeout_ms("0").is_err() && share("0").is_err() && share("1").is_ok());
        assert!(strides("12").is_err() && strides("64").is_ok() && padding("96").is_err());
        assert!(cpus("0,,1").unwrap_err().starts_with("an empty entry: CPU ids from 0 to 4095"));
        assert!(cpus("0-4294967295").unwrap_err().starts_with("CPU 4294967295 is above 4095"));
        assert!(ratio("0").is_err() && ratio("off").is_ok() && samples("0").is_err());
        assert!(rate("18446744073709551616").unwrap_err().starts_with("requests per second above 0 and at most"));
    }
}
