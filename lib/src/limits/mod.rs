//! Upper bounds on what one configuration may ask for, derived from the time a trial may
//! take on a slow machine and the memory an experiment's rows may hold. Every experiment's
//! `validate` refuses a value past them with the allowed range, so no input makes a trial
//! run for days, an allocation overflow or a product wrap around.
//!
//! # Where the numbers come from
//!
//! - Time: one trial is planned to take at most [`MAX_TRIAL`] even where every increment
//!   costs [`SLOW_INCREMENT_NS`] (a contended line on a time-sliced virtual CPU; bare metal
//!   takes 5-50 ns, so real trials are far shorter). A run's wall clock is bounded by each
//!   experiment's budget, itself at most [`MAX_BUDGET`].
//! - Memory: an experiment keeps its rows in memory until it saves them; [`MAX_ROWS`]
//!   rows of under 100 bytes each stay within a few hundred MiB. A heap an experiment
//!   builds (the GC sweep's) takes at most [`max_heap_bytes`]: half this machine's physical
//!   memory, so the system and the report keep the other half.
//! - Waits: a simulated wait (the pool's cache and database) lasts at most [`MAX_WAIT_MS`],
//!   as long as one trial may run.

pub mod cpus;
pub mod saved;

use std::fmt::Display;
use std::time::Duration;

use crate::error::ConfigError;

/// The longest one trial (or one pair of CPUs) may be planned to take.
pub const MAX_TRIAL: Duration = Duration::from_secs(600);
/// The shortest trial (or pool run) accepted from the command line.
pub const MIN_TRIAL: Duration = Duration::from_millis(1);
/// What one increment may cost at worst: a line moved between time-sliced virtual CPUs.
pub const SLOW_INCREMENT_NS: u64 = 100;
/// What one round trip of a cache line between two CPUs may cost at worst.
pub const SLOW_ROUND_TRIP_NS: u64 = 1_000;
/// Increments one trial may do in all: [`MAX_TRIAL`] at [`SLOW_INCREMENT_NS`] each (6e9).
pub const MAX_INCREMENTS_PER_TRIAL: u64 = MAX_TRIAL.as_secs() * 1_000_000_000 / SLOW_INCREMENT_NS;
/// Round trips one pair of CPUs may be asked for: [`MAX_TRIAL`] at [`SLOW_ROUND_TRIP_NS`] (6e8).
pub const MAX_ROUND_TRIPS_PER_PAIR: u64 = MAX_TRIAL.as_secs() * 1_000_000_000 / SLOW_ROUND_TRIP_NS;
/// Rows one experiment may keep in memory and save (about 1 M; its CSV stays readable,
/// see the run reader's `MAX_CSV_BYTES`).
pub const MAX_ROWS: usize = 1 << 20;
/// Trials per case: a median's interval needs tens; more only fills memory and the page.
pub const MAX_TRIALS: usize = 10_000;
/// The longest wall-clock allowance (budget) of one experiment: a day.
pub const MAX_BUDGET: Duration = Duration::from_secs(24 * 3600);
/// Most worker threads in one team of the counter experiments (stride, sharing,
/// counters): 256 threads with page-wide (4096-byte) spacing fill a 1 MiB arena.
pub const MAX_TEAM_THREADS: usize = 256;
/// The most CPUs a machine may have, and so the most threads any experiment runs: CPU ids
/// are 0 to 4095 wherever they enter (flags, run folders, packs). The largest servers this
/// lab targets have a few hundred logical CPUs; Linux's own ceiling (`NR_CPUS`) is a build
/// option of up to 8192, which no list given to this lab needs to reach.
pub const MAX_CPUS: usize = 4096;

/// The longest simulated wait of one request, in milliseconds: [`MAX_TRIAL`].
pub const MAX_WAIT_MS: f64 = MAX_TRIAL.as_secs() as f64 * 1e3;
/// Physical memory assumed where it cannot be read: 8 GiB, a small laptop's.
pub const UNKNOWN_MEMORY_BYTES: u64 = 8 << 30;

/// This machine's physical memory in bytes, when the system says.
pub fn physical_memory_bytes() -> Option<u64> {
    crate::platform::physical_memory_bytes().ok().filter(|&bytes| bytes > 0)
}

/// The most bytes one experiment's heap may take: half of [`physical_memory_bytes`]
/// ([`UNKNOWN_MEMORY_BYTES`] where unknown).
pub fn max_heap_bytes() -> u64 {
    physical_memory_bytes().unwrap_or(UNKNOWN_MEMORY_BYTES) / 2
}

/// A byte size of at most [`max_heap_bytes`], or an error naming `field`, the value and
/// the limit with where it comes from.
pub fn check_heap_bytes(field: &'static str, bytes: u64) -> Result<(), ConfigError> {
    let most = max_heap_bytes();
    if bytes > most {
        let memory = physical_memory_bytes()
            .map_or(format!("{UNKNOWN_MEMORY_BYTES} bytes assumed (this machine's is unknown)"), |total| {
                format!("this machine's {total} bytes")
            });
        return Err(ConfigError::new(field, bytes, format!("at most {most} bytes (half of {memory} of memory)")));
    }
    Ok(())
}

/// Rows of a sweep (`cells` cases x `trials` each) within [`MAX_ROWS`]; the error names the
/// cases the lists made.
pub fn check_rows(field: &'static str, cells: usize, trials: usize) -> Result<(), ConfigError> {
    match cells.checked_mul(trials) {
        Some(rows) if rows <= MAX_ROWS => Ok(()),
        _ => Err(ConfigError::new(
            field,
            format!("{cells} cases x {trials} trials"),
            format!("at most {MAX_ROWS} rows per experiment (cases x trials): sweep fewer values or trials"),
        )),
    }
}

/// At most [`saved::MAX_CASES`] cases in one experiment (what a saved run may hold); the
/// error names the cases the lists made.
pub fn check_cases(field: &'static str, cases: usize, what: &str) -> Result<(), ConfigError> {
    if cases <= saved::MAX_CASES {
        return Ok(());
    }
    let most = saved::MAX_CASES;
    Err(ConfigError::new(
        field,
        format!("{cases} {what}"),
        format!("at most {most} cases per experiment: sweep fewer values"),
    ))
}

/// `value` within `low..=high`, or an error naming `field`, the value and the range, with
/// `unit` after it ("1 to 10000 trials").
pub fn check_range<T: PartialOrd + Display>(
    field: &'static str,
    value: T,
    low: T,
    high: T,
    unit: &str,
) -> Result<(), ConfigError> {
    if value < low || value > high {
        return Err(ConfigError::new(field, value, format!("{low} to {high} {unit}")));
    }
    Ok(())
}

/// Trials per case within `minimum..=`[`MAX_TRIALS`].
pub fn check_trials(trials: usize, minimum: usize) -> Result<(), ConfigError> {
    check_range("trials", trials, minimum, MAX_TRIALS, "trials per case")
}

/// A warm-up of at most [`MAX_TRIAL`] and a budget of at most [`MAX_BUDGET`].
pub fn check_warmup_and_budget(warmup: Duration, budget: Duration) -> Result<(), ConfigError> {
    check_duration("warmup", warmup, Duration::ZERO, MAX_TRIAL)?;
    check_duration("budget", budget, Duration::ZERO, MAX_BUDGET)
}

/// `value` within `low..=high`, in seconds as given (never rounded to 0).
pub fn check_duration(field: &'static str, value: Duration, low: Duration, high: Duration) -> Result<(), ConfigError> {
    if value < low || value > high {
        return Err(ConfigError::new(field, seconds(value), seconds_range(low, high)));
    }
    Ok(())
}

/// Seconds from the command line as a duration within `low..=high`; the error names the
/// number exactly as given, so 1e-12 is not reported as 0.
pub fn duration_from_seconds(
    field: &'static str,
    value: f64,
    low: Duration,
    high: Duration,
) -> Result<Duration, ConfigError> {
    let in_range = value.is_finite() && value >= low.as_secs_f64() && value <= high.as_secs_f64();
    match Duration::try_from_secs_f64(value) {
        Ok(duration) if in_range && duration >= low && duration <= high => Ok(duration),
        _ => Err(ConfigError::new(field, value, seconds_range(low, high))),
    }
}

/// A duration in seconds without trailing zeros: "0.5", "600", "0.000000001".
pub fn seconds(duration: Duration) -> String {
    format!("{}", duration.as_secs_f64())
}

fn seconds_range(low: Duration, high: Duration) -> String {
    format!("{} to {} seconds", seconds(low), seconds(high))
}

/// A total of increments that splits evenly over `threads` (so every thread does the same
/// share and the sum is exact) and stays within [`MAX_INCREMENTS_PER_TRIAL`]. The error
/// suggests the nearest totals that would be accepted.
pub fn check_even_total(total: u64, threads: usize) -> Result<(), ConfigError> {
    let threads = u64::try_from(threads).unwrap_or(u64::MAX).max(1);
    let most = MAX_INCREMENTS_PER_TRIAL / threads * threads;
    if total != 0 && total <= most && total % threads == 0 {
        return Ok(());
    }
    let below = total.min(most) / threads * threads;
    let above = below.checked_add(threads).filter(|&above| above <= most && total < most);
    let nearest: Vec<String> = [below].into_iter().chain(above).filter(|&n| n > 0).map(|n| n.to_string()).collect();
    Err(ConfigError::new(
        "total",
        total,
        format!(
            "a positive multiple of threads = {threads} up to {most}, so every thread does the same share (e.g. {})",
            nearest.join(" or ")
        ),
    ))
}

/// `a * b`, or an error naming `field` and `value` when the product passes `limit` (or
/// cannot be represented at all); `allowed` says what the product is.
pub fn checked_product(
    field: &'static str,
    value: impl Display,
    factors: (u64, u64),
    limit: u64,
    allowed: impl FnOnce() -> String,
) -> Result<u64, ConfigError> {
    match factors.0.checked_mul(factors.1) {
        Some(product) if product <= limit => Ok(product),
        _ => Err(ConfigError::new(field, value, allowed())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_limits_follow_from_time() {
        assert_eq!(MAX_INCREMENTS_PER_TRIAL, 6_000_000_000);
        assert_eq!(MAX_ROUND_TRIPS_PER_PAIR, 600_000_000);
    }

    #[test]
    fn heaps_and_sweeps_are_bounded_by_memory() {
        let most = max_heap_bytes();
        assert!(most >= 1 << 20 && check_heap_bytes("ceiling-bytes", most).is_ok());
        let error = check_heap_bytes("ceiling-bytes", u64::MAX).unwrap_err().to_string();
        assert!(error.starts_with(&format!("invalid ceiling-bytes = {}: at most {most} bytes (half of ", u64::MAX)));
        assert!(check_rows("trials", 4, 10).is_ok());
        let error = check_rows("trials", usize::MAX, 2).unwrap_err().to_string();
        assert!(error.contains("x 2 trials: at most 1048576 rows per experiment"), "{error}");
    }

    #[test]
    fn range_errors_name_value_and_range() {
        let error = check_trials(20_000, 1).unwrap_err();
        assert_eq!(error.to_string(), "invalid trials = 20000: 1 to 10000 trials per case");
        assert!(check_trials(10_000, 1).is_ok());
        assert!(check_trials(1, 2).is_err());
    }

    #[test]
    fn seconds_keep_the_value_given() {
        let (low, high) = (Duration::from_millis(1), Duration::from_secs(600));
        let error = duration_from_seconds("seconds", 1e-12, low, high).unwrap_err();
        assert_eq!(error.to_string(), "invalid seconds = 0.000000000001: 0.001 to 600 seconds");
        for bad in [f64::NAN, f64::INFINITY, -1.0, 1e9, 600.000_001] {
            assert!(duration_from_seconds("seconds", bad, low, high).is_err(), "{bad}");
        }
        assert_eq!(duration_from_seconds("seconds", 0.5, low, high), Ok(Duration::from_millis(500)));
        let error = check_duration("budget", Duration::from_secs(100_000), Duration::ZERO, MAX_BUDGET).unwrap_err();
        assert_eq!(error.to_string(), "invalid budget = 100000: 0 to 86400 seconds");
    }

    #[test]
    fn totals_suggest_accepted_multiples() {
        assert!(check_even_total(20, 4).is_ok());
        let error = check_even_total(10, 4).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid total = 10: a positive multiple of threads = 4 up to 6000000000, so every thread does the same \
             share (e.g. 8 or 12)"
        );
        assert!(check_even_total(0, 4).unwrap_err().allowed.ends_with("(e.g. 4)"));
        let error = check_even_total(u64::MAX, 7).unwrap_err();
        let most = MAX_INCREMENTS_PER_TRIAL / 7 * 7;
        assert!(error.allowed.ends_with(&format!("(e.g. {most})")), "{error}");
        assert_eq!(most % 7, 0);
    }

    #[test]
    fn products_are_checked_not_wrapped() {
        let allowed = || "small".to_string();
        assert_eq!(checked_product("total", 3, (3, 4), 12, allowed), Ok(12));
        assert!(checked_product("total", 3, (3, 5), 12, allowed).is_err());
        assert!(checked_product("total", u64::MAX, (u64::MAX, 2), u64::MAX, allowed).is_err());
    }
}
