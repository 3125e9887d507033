//! How a measuring flag's text becomes a value (clap's value parsers): here the flags
//! several experiments share and the helpers ([`whole`], [`number`], [`count`]) that each
//! experiment's own parsers, in its options file, are written with. Every value is held to
//! the widest range any experiment accepts, whichever experiments are selected, so a value
//! no experiment could take is refused the same way everywhere (`run stride --samples 0`
//! too). An experiment's own, narrower checks (a stride for this many threads) follow in
//! its config's `validate`. A parser's error says only what is allowed; `main` writes it as
//! `invalid {flag} = {value as given}: {allowed}` (the bad_flag module's form).

use contention::limits::cpus::{cpu_ids, cpu_list_allowed};
use contention::limits::{MAX_INCREMENTS_PER_TRIAL, MAX_TRIAL, MAX_TRIALS, MIN_TRIAL};

/// A number as given on the command line: its value, and its text for messages (so
/// `1e400` is quoted as `1e400`, not as `inf`).
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub value: f64,
    pub text: String,
}

/// A whole number from `low` to `high`, in decimal digits; `allowed` says so in words.
pub(crate) fn whole(text: &str, low: u64, high: u64, allowed: impl FnOnce() -> String) -> Result<u64, String> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(value) if digits && (low..=high).contains(&value) => Ok(value),
        _ => Err(allowed()),
    }
}

/// A finite decimal number within `range` (`open_low`: above its start, not at it).
pub(crate) fn number(
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

pub(crate) fn count(text: &str, high: u64, unit: &str) -> Result<usize, String> {
    whole(text, 1, high, || format!("1 to {high} {unit}")).map(|value| value as usize)
}

pub fn threads(text: &str) -> Result<usize, String> {
    let most = contention::gc::MAX_THREADS as u64;
    let team = contention::limits::MAX_TEAM_THREADS;
    whole(text, 1, most, || format!("1 to {team} threads for stride, sharing and counters, 1 to {most} for gc"))
        .map(|threads| threads as usize)
}

pub fn increments(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_INCREMENTS_PER_TRIAL, || format!("1 to {MAX_INCREMENTS_PER_TRIAL} increments"))
}

pub fn trials(text: &str) -> Result<usize, String> {
    count(text, MAX_TRIALS as u64, "trials per case")
}

pub fn cpus(text: &str) -> Result<String, String> {
    match cpu_ids(text) {
        Ok(ids) if !ids.is_empty() => Ok(text.to_string()),
        Ok(_) => Err(cpu_list_allowed()),
        Err(why) => Err(format!("{why}: {}", cpu_list_allowed())),
    }
}

pub fn seconds(text: &str) -> Result<Number, String> {
    let (low, high) = (MIN_TRIAL.as_secs_f64(), MAX_TRIAL.as_secs_f64());
    number(text, (low, high), false, || format!("{low} to {high} seconds"))
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
        assert!(cpus("0,,1").unwrap_err().starts_with("an empty entry: CPU ids from 0 to 4095"));
        assert!(cpus("0-4294967295").unwrap_err().starts_with("CPU 4294967295 is above 4095"));
    }
}
