//! Article C's lock held across a wait: a cache in a sharded map whose missing entry is
//! computed under the shard's write lock, the computation a remote call that waits (as
//! `computeIfAbsent` ran it), so every request for any key of that shard, hits included,
//! waits out the call. The student restructures it: look up, call with nothing held, insert
//! (keeping the first value if another thread got there), as the reference fix does.
//!
//! The remote call is the locks experiment's ([`crate::locks`]): a wait of the service's
//! latency (the thread blocks, as on a socket), then the service's value for the key; the
//! keys are its skewed keys, the same in every version.
//!
//! # Timing model
//!
//! One trial builds an empty cache, then the locks experiment's lock-across-wait threads
//! (more than the CPUs: they mostly wait, as an IO-bound pool does) each make the same
//! requests, keys drawn by a generator seeded by trial and thread, released together by the
//! harness's start gate; requests per second over the trial's elapsed time.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The map the baseline and the reference fix use, for a fix to build on.
pub use dashmap::DashMap;

use super::check::{measure_and_judge, Checked, Sample, Side};
use super::{Challenge, Plan};
use crate::error::RunError;
use crate::harness::{run_team, Progress};
use crate::locks::{remote_call, shard_count, skewed_key, split_mix, value_of, Config as LocksConfig};

/// The remote service a cache fills from: each call waits its latency, then answers the
/// key's value; it counts the calls per key.
#[derive(Debug)]
pub struct Remote {
    wait: Duration,
    calls: Box<[AtomicU64]>,
}

impl Remote {
    fn new(keys: u64, wait: Duration) -> Self {
        Self { wait, calls: (0..keys).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Calls the service for `key`: blocks for its latency, then returns its value.
    pub fn call(&self, key: u64) -> u64 {
        if let Some(calls) = self.calls.get(key as usize) {
            calls.fetch_add(1, Ordering::Relaxed);
        }
        remote_call(key, self.wait)
    }

    fn calls_of(&self, key: u64) -> u64 {
        self.calls.get(key as usize).map_or(0, |calls| calls.load(Ordering::Relaxed))
    }
}

/// A cache of the remote service's values, shared by every thread.
pub trait RemoteCache: Sync {
    /// An empty cache.
    fn new() -> Self
    where
        Self: Sized;
    /// The value for `key`: the cached one, or on a miss `remote.call(key)`, kept so later
    /// requests for `key` need no call.
    fn get(&self, key: u64, remote: &Remote) -> u64;
}

/// The baseline: `entry(key).or_insert_with(call)`, the call made with the shard's write
/// lock held (dashmap's entry locks its shard for writing, hits included).
#[derive(Debug)]
pub struct EntryUnderLock {
    map: DashMap<u64, u64>,
}

impl RemoteCache for EntryUnderLock {
    fn new() -> Self {
        Self { map: DashMap::with_shard_amount(shard_count()) }
    }
    fn get(&self, key: u64, remote: &Remote) -> u64 {
        *self.map.entry(key).or_insert_with(|| remote.call(key))
    }
}

/// The reference fix: look up; on a miss call with nothing held, then insert, keeping the
/// value already there if another thread inserted first.
#[derive(Debug)]
pub struct ComputeOutsideLock {
    map: DashMap<u64, u64>,
}

impl RemoteCache for ComputeOutsideLock {
    fn new() -> Self {
        Self { map: DashMap::with_shard_amount(shard_count()) }
    }
    fn get(&self, key: u64, remote: &Remote) -> u64 {
        if let Some(value) = self.map.get(&key) {
            return *value;
        }
        let value = remote.call(key);
        *self.map.entry(key).or_insert(value)
    }
}

/// The sizes a trial runs at: the locks experiment's lock-across-wait case.
fn sizes(plan: &Plan) -> LocksConfig {
    if plan.quick {
        LocksConfig::quick()
    } else {
        LocksConfig::default()
    }
}

/// Checks `Yours` for correctness, then measures it beside the baseline and the reference.
pub fn check<Yours: RemoteCache>(plan: &Plan, progress: Progress) -> Result<Checked, RunError> {
    let config = sizes(plan);
    if let Err(wrong) = correctness::<Yours>(&config) {
        return Ok(Checked::refused(Challenge::LockAcrossWait, wrong));
    }
    let verdict = measure_and_judge(Challenge::LockAcrossWait, plan, progress, false, |side, trial| match side {
        Side::Baseline => time::<EntryUnderLock>(side, trial, &config),
        Side::Reference => time::<ComputeOutsideLock>(side, trial, &config),
        Side::Yours => time::<Yours>(side, trial, &config),
    })?;
    Ok(Checked { challenge: Challenge::LockAcrossWait, wrong: None, verdict: Some(verdict) })
}

/// The requests of every thread of one trial, the same keys for every version.
fn requests(config: &LocksConfig, trial: usize, thread: usize) -> impl Iterator<Item = u64> + '_ {
    let mut seed = (trial as u64) << 32 | thread as u64;
    (0..config.requests_per_thread).map(move |_| skewed_key(split_mix(&mut seed), config.keys))
}

fn wait_of(config: &LocksConfig) -> Duration {
    Duration::from_secs_f64(config.wait_ms / 1e3)
}

/// Every request answered with the service's value; no key called for more often than one
/// call per thread that can miss it at once; every key asked for kept (asking again calls
/// nothing).
pub fn correctness<C: RemoteCache>(config: &LocksConfig) -> Result<(), String> {
    let threads = config.wait_threads;
    let remote = Remote::new(config.keys, wait_of(config));
    let cache = C::new();
    let wrong: std::sync::Mutex<Option<String>> = std::sync::Mutex::default();
    run_team(Challenge::LockAcrossWait.name(), threads, |thread| {
        for key in requests(config, 0, thread) {
            let value = cache.get(key, &remote);
            if value != value_of(key) {
                let mut first = wrong.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                first.get_or_insert(format!(
                    "every key must hold its value: key {key} answered {value}, the remote service's value is {}",
                    value_of(key)
                ));
            }
        }
    })
    .map_err(|error| error.to_string())?;
    if let Some(wrong) = wrong.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        return Err(wrong);
    }
    let asked: BTreeSet<u64> = (0..threads).flat_map(|thread| requests(config, 0, thread)).collect();
    if let Some(key) = asked.iter().copied().find(|&key| remote.calls_of(key) > threads as u64) {
        return Err(format!(
            "key {key} was computed {} times: at most {threads} allowed (one per thread that can miss it at once)",
            remote.calls_of(key)
        ));
    }
    for &key in &asked {
        let before = remote.calls_of(key);
        cache.get(key, &remote);
        if remote.calls_of(key) > before {
            return Err(format!(
                "every key must be kept: key {key} was asked for, and asking again called the remote service"
            ));
        }
    }
    Ok(())
}

/// One trial of cache `C` (see the module's timing model).
fn time<C: RemoteCache>(side: Side, trial: usize, config: &LocksConfig) -> Result<Sample, RunError> {
    let remote = Remote::new(config.keys, wait_of(config));
    let cache = C::new();
    let answered = AtomicU64::new(0);
    let timing = run_team(Challenge::LockAcrossWait.name(), config.wait_threads, |thread| {
        let mut right = 0;
        for key in requests(config, trial, thread) {
            right += u64::from(cache.get(key, &remote) == value_of(key));
        }
        answered.fetch_add(right, Ordering::Relaxed);
    })?;
    let expected = config.wait_threads as u64 * config.requests_per_thread;
    let right = answered.into_inner();
    if right != expected {
        let case = format!("{}: requests answered with the service's value", side.label());
        return Err(RunError::Verification { experiment: "challenge", case, trial, expected, actual: right });
    }
    let seconds = timing.elapsed.as_secs_f64().max(1e-9);
    Ok(Sample { side, trial, per_sec: expected as f64 / seconds, pinned: timing.pinned, cycles_per_sec: None })
}
