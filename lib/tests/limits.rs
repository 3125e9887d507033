//! Random configs, extremes included, are either accepted within the stated limits or
//! refused with a typed error naming the field and the allowed range; validation never
//! panics. Nothing here runs an experiment.

use std::time::Duration;

use contention::limits::{self, MAX_BUDGET, MAX_INCREMENTS_PER_TRIAL, MAX_ROUND_TRIPS_PER_PAIR, MAX_ROWS, MAX_TRIALS};
use contention::{c2c, counters, gc, machine_check, pool, sharing, stride, ConfigError};
use proptest::prelude::*;

/// Small values, values near the limits and anything at all.
fn count() -> impl Strategy<Value = u64> {
    prop_oneof![0..64u64, Just(MAX_INCREMENTS_PER_TRIAL), Just(u64::MAX), any::<u64>()]
}

fn size() -> impl Strategy<Value = usize> {
    prop_oneof![0..300usize, Just(MAX_TRIALS), Just(usize::MAX), any::<usize>()]
}

fn duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0..2_000u64).prop_map(Duration::from_millis),
        Just(Duration::MAX),
        (any::<u64>(), 0..1_000_000_000u32).prop_map(|(secs, nanos)| Duration::new(secs, nanos)),
    ]
}

/// A refusal names a field and says what is allowed.
fn refusal_is_clear(error: &ConfigError) -> Result<(), TestCaseError> {
    prop_assert!(!error.field.is_empty() && !error.value.is_empty() && !error.allowed.is_empty(), "{error}");
    let prefix = format!("invalid {} = {}: ", error.field, error.value);
    prop_assert!(error.to_string().starts_with(&prefix), "{}", error);
    Ok(())
}

fn timing_is_bounded(trials: usize, warmup: Duration, budget: Duration) -> Result<(), TestCaseError> {
    prop_assert!((1..=MAX_TRIALS).contains(&trials));
    prop_assert!(warmup <= limits::MAX_TRIAL && budget <= MAX_BUDGET);
    Ok(())
}

proptest! {
    #[test]
    fn stride_configs_are_accepted_within_limits_or_refused(
        threads in size(), strides in prop::collection::vec(size(), 0..40), iters in count(),
        trials in size(), warmup in duration(), budget in duration(),
    ) {
        let config =
            stride::Config { threads, clean_threads: None, strides_bytes: strides, iters_per_thread: iters, trials, warmup, budget };
        match config.validate() {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                prop_assert!(threads <= stride::MAX_THREADS && config.strides_bytes.len() <= stride::MAX_STRIDES);
                prop_assert!(config.strides_bytes.iter().all(|&s| s * threads <= stride::MAX_ARENA_BYTES));
                prop_assert!(iters * threads as u64 <= MAX_INCREMENTS_PER_TRIAL);
                timing_is_bounded(trials, warmup, budget)?;
            }
        }
    }

    #[test]
    fn sharing_configs_are_accepted_within_limits_or_refused(
        threads in size(), total in count(), padding in size(), trials in size(),
        warmup in duration(), budget in duration(),
    ) {
        let config = sharing::Config {
            threads,
            headline_threads: None,
            total_increments: total,
            padding_bytes: padding,
            trials,
            warmup,
            budget,
        };
        match config.clone().with_threads(threads).validate().and(config.validate()) {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                prop_assert!(total <= MAX_INCREMENTS_PER_TRIAL && total % threads as u64 == 0);
                timing_is_bounded(trials, warmup, budget)?;
            }
        }
    }

    #[test]
    fn counters_configs_are_accepted_within_limits_or_refused(
        threads in size(), total in count(), flush_every in count(), stripes in size(), trials in size(),
        warmup in duration(), budget in duration(), shard_counts in prop::collection::vec(size(), 0..20),
    ) {
        let config = counters::Config {
            threads, total_increments: total, flush_every, stripes, shard_counts: shard_counts.clone(), trials,
            warmup, budget,
        };
        match config.clone().with_threads(threads).validate().and(config.validate()) {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                prop_assert!(total <= MAX_INCREMENTS_PER_TRIAL && stripes <= counters::MAX_STRIPES);
                prop_assert!(shard_counts.len() <= counters::MAX_SHARD_COUNTS);
                prop_assert!(shard_counts.iter().all(|&n| (1..=counters::MAX_SHARDS).contains(&n)));
                timing_is_bounded(trials, warmup, budget)?;
            }
        }
    }

    #[test]
    fn c2c_configs_are_accepted_within_limits_or_refused(
        cpus in prop::collection::vec(0..4usize, 0..4), samples in size(), round_trips in count(),
        budget in duration(),
    ) {
        let config = c2c::Config { cpus, samples_per_pair: samples, round_trips_per_sample: round_trips, budget, unpinned: false };
        match config.validate() {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                let pairs = c2c::pairs(&config.cpus_to_measure()).len();
                prop_assert!(pairs * (samples + 1) <= MAX_ROWS);
                prop_assert!(round_trips * (samples as u64 + 1) <= MAX_ROUND_TRIPS_PER_PAIR);
                prop_assert!(budget <= MAX_BUDGET);
            }
        }
    }

    #[test]
    fn machine_configs_are_accepted_within_limits_or_refused(
        threads in size(), stride_bytes in size(), iters in count(), trials in size(),
        warmup in duration(), budget in duration(),
    ) {
        let config = machine_check::Config { max_threads: threads, stride_bytes, iters_per_thread: iters, trials, warmup, budget };
        match config.validate() {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                prop_assert!(threads <= limits::MAX_CPUS && threads * stride_bytes <= stride::MAX_ARENA_BYTES);
                prop_assert!(iters <= MAX_INCREMENTS_PER_TRIAL && trials >= 2);
                timing_is_bounded(trials, warmup, budget)?;
            }
        }
    }

    #[test]
    fn seconds_from_the_command_line_are_in_range_or_refused(value in any::<f64>()) {
        let (low, high) = (Duration::from_millis(1), Duration::from_secs(600));
        match limits::duration_from_seconds("seconds", value, low, high) {
            Ok(duration) => prop_assert!(duration >= low && duration <= high),
            Err(error) => {
                refusal_is_clear(&error)?;
                prop_assert_eq!(error.value, value.to_string());
            }
        }
    }
}

/// Byte sizes: small, near half of memory, and anything at all.
fn bytes() -> impl Strategy<Value = u64> {
    prop_oneof![0..(64u64 << 20), Just(limits::max_heap_bytes()), Just(u64::MAX), any::<u64>()]
}

/// Milliseconds: ordinary waits, the limit, and anything a float holds.
fn millis() -> impl Strategy<Value = f64> {
    prop_oneof![0.0..100.0f64, Just(limits::MAX_WAIT_MS), Just(1e30), Just(-0.1), any::<f64>()]
}

proptest! {
    #[test]
    fn gc_configs_are_accepted_within_limits_or_refused(
        threads in prop::collection::vec(size(), 0..8), ratios in prop::collection::vec(0..20_000u32, 0..8),
        trial in duration(), live in bytes(), alloc in bytes(), ceiling in bytes(), trials in size(),
        warmup in duration(), budget in duration(),
    ) {
        let ratios = ratios.into_iter().map(gc::GcRatio::Percent).collect();
        let config = gc::Config {
            threads, ratios, trial, live_bytes: live, alloc_per_op_bytes: alloc, ceiling_bytes: ceiling, trials,
            warmup, budget, ..gc::Config::quick()
        };
        match config.validate() {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                prop_assert!(live <= ceiling && ceiling <= limits::max_heap_bytes());
                prop_assert!(config.threads.iter().all(|&n| (1..=gc::config::MAX_THREADS).contains(&n)));
                prop_assert!(config.threads.len() * config.ratios.len() * trials <= MAX_ROWS);
                timing_is_bounded(trials, warmup, budget)?;
            }
        }
    }

    #[test]
    fn pool_configs_are_accepted_within_limits_or_refused(
        sizes in prop::option::of(prop::collection::vec(size(), 0..8)), hits in prop::collection::vec(millis(), 0..4),
        hit_wait in (millis(), millis()), miss_wait in (millis(), millis()), window in duration(),
        queue_timeout in duration(), clients in prop::option::of(size()), trials in size(),
        warmup in duration(), budget in duration(),
    ) {
        let config = pool::Config {
            pool_sizes: sizes, hit_rates: hits, hit_wait_ms: [hit_wait.0, hit_wait.1],
            miss_wait_ms: [miss_wait.0, miss_wait.1], window, queue_timeout, capacity_clients: clients, trials,
            warmup, budget, ..pool::Config::quick()
        };
        match config.validate() {
            Err(error) => refusal_is_clear(&error)?,
            Ok(()) => {
                let cpus = contention::machine::logical_cpus();
                prop_assert!(config.sweep(cpus).iter().all(|&n| (1..=pool::MAX_POOL_THREADS).contains(&n)));
                prop_assert!(config.warm_up_threads(cpus) <= pool::MAX_POOL_THREADS);
                let waits = config.hit_wait_ms.into_iter().chain(config.miss_wait_ms);
                prop_assert!(waits.into_iter().all(|ms| (0.0..=limits::MAX_WAIT_MS).contains(&ms)));
                prop_assert!(window <= limits::MAX_TRIAL && queue_timeout <= limits::MAX_TRIAL);
                timing_is_bounded(trials, warmup, budget)?;
            }
        }
    }
}
