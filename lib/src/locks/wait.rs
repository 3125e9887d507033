//! The lock-across-a-wait case: a cache in a concurrent map, filled on a miss by a remote
//! call that waits `wait_ms` (the only sleep in this experiment, and it stands for a remote
//! service's latency, not for a cost of the machine).
//!
//! - under the lock: `entry(key).or_insert_with(call)`. `dashmap` holds the shard's write
//!   lock while `call` runs, so every request for any key of that shard (hits included:
//!   `entry` locks for writing even when the key is there) waits out the remote call. Java's
//!   `ConcurrentHashMap.computeIfAbsent` locks one bin, not a shard, and answers a hit at
//!   the head of a bin without locking: the JVM rows show that narrower lock.
//! - outside the lock: `get`; on a miss, the remote call with nothing held, then
//!   `entry(key).or_insert(value)`, which keeps the value already there if another thread
//!   inserted first. Two threads missing the same key both call (the price of not waiting).
//!
//! # Timing model
//!
//! Every worker makes the same number of requests; request keys come from a generator
//! seeded by trial and worker, so both variants ask for the same keys in the same order,
//! skewed: key = floor(keys x u^3) for u uniform in 0..1, so a tenth of the keys get about
//! 46% of the requests. Each trial starts with an empty map. The trial's elapsed time over
//! all requests gives requests per second. Each request also times its map calls less its
//! remote call: the time spent waiting for (or holding) the map's locks, summed into the
//! share of the workers' time spent blocked.
//!
//! A trial still going where the experiment's budget ends is cut there, once the team has
//! answered a request (so a trial always counts one): no worker starts a request past it,
//! and one that waited for its shard gives up rather than call the remote service with the
//! shard held, so a slow remote call (`--wait-ms 1000`) overruns the budget by about one
//! call, not by a trial of them. The row counts the requests answered.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;

use super::row::{switches_between, verified_row, MapFacts, Row, Tallies, Tally, Totals};
use super::switches::voluntary_switches;
use super::{Cell, Config, Primitive, EXPERIMENT};
use crate::error::RunError;
use crate::fault;
use crate::harness::run_team;
use crate::machine::logical_cpus;

/// The map's shards: dashmap's own default (4 x the CPUs, rounded up to a power of two),
/// set explicitly so the row can record it.
pub(crate) fn shard_count() -> usize {
    (logical_cpus() * 4).next_power_of_two().max(2)
}

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a fast, well-mixed 64-bit sequence.
pub(crate) fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A key from 0..keys, skewed towards small keys (see the module's timing model).
pub(crate) fn skewed_key(random: u64, keys: u64) -> u64 {
    let uniform = (random >> 11) as f64 / (1u64 << 53) as f64;
    ((keys as f64 * uniform.powi(3)) as u64).min(keys - 1)
}

/// The value the remote service answers for `key`: the same every time, so a map value can
/// be checked.
pub(crate) fn value_of(key: u64) -> u64 {
    let mut state = key ^ 0x5bd1_e995;
    split_mix(&mut state)
}

/// The remote call: its latency, then its answer.
pub(crate) fn remote_call(key: u64, wait: Duration) -> u64 {
    if !wait.is_zero() {
        thread::sleep(wait);
    }
    value_of(key)
}

/// Where a trial is cut: at `stop_at`, once the team has answered a request.
struct Cut {
    stop_at: Instant,
    answered: AtomicBool,
}

/// Whether a request at `now` is past `cut` (`None`: never cut). The flag is read only past
/// the time, and written once per trial, so it costs the requests before the cut nothing.
fn past(cut: Option<&Cut>, now: Instant) -> bool {
    cut.is_some_and(|cut| now >= cut.stop_at && cut.answered.load(Ordering::Relaxed))
}

/// Notes that the team has answered a request. Under the lock it is noted with the shard
/// still held, so a request that waited for that shard sees it: noted after the release, a
/// waiter could start a whole remote call past the cut.
fn note_answered(cut: Option<&Cut>) {
    if let Some(cut) = cut {
        if !cut.answered.load(Ordering::Relaxed) {
            cut.answered.store(true, Ordering::Relaxed);
        }
    }
}

/// One request under the lock: the remote call runs with the shard's entry held (as
/// `or_insert_with` runs it); `None` when the trial's cut came first: then the request is
/// not made, or, having waited for the shard, gives up rather than call with it held.
fn under_lock(map: &DashMap<u64, u64>, key: u64, wait: Duration, cut: Option<&Cut>, tally: &mut Tally) -> Option<u64> {
    let asked = Instant::now();
    if past(cut, asked) {
        return None;
    }
    let mut call = None;
    let value = match map.entry(key) {
        Entry::Occupied(entry) => {
            note_answered(cut);
            *entry.get()
        }
        Entry::Vacant(entry) => {
            let started = Instant::now();
            if past(cut, started) {
                return None;
            }
            let value = remote_call(key, wait);
            call = Some(started.elapsed());
            note_answered(cut);
            *entry.insert(value)
        }
    };
    let in_map = asked.elapsed().saturating_sub(call.unwrap_or_default());
    tally.blocked_ns += in_map.as_nanos() as u64;
    if call.is_some() {
        tally.remote_calls += 1;
    } else {
        tally.hits += 1;
    }
    Some(value)
}

/// One request outside the lock: look up, call with nothing held, insert (first stays);
/// `None` when the trial's cut came before it.
fn outside_lock(
    map: &DashMap<u64, u64>,
    key: u64,
    wait: Duration,
    cut: Option<&Cut>,
    tally: &mut Tally,
) -> Option<u64> {
    let asked = Instant::now();
    if past(cut, asked) {
        return None;
    }
    let found = map.get(&key).map(|value| *value);
    let mut in_map = asked.elapsed();
    let value = match found {
        Some(value) => {
            tally.hits += 1;
            value
        }
        None => {
            let value = remote_call(key, wait);
            let inserting = Instant::now();
            let kept = *map.entry(key).or_insert(value);
            in_map += inserting.elapsed();
            tally.remote_calls += 1;
            kept
        }
    };
    tally.blocked_ns += in_map.as_nanos() as u64;
    note_answered(cut);
    Some(value)
}

/// One trial of a lock-across-wait cell, cut at `stop_at` once any request was answered
/// (see the module's timing model); it counts the requests answered.
pub(crate) fn trial(cell: &Cell, config: &Config, trial: (usize, usize), stop_at: Instant) -> Result<Row, RunError> {
    let map: DashMap<u64, u64> = DashMap::with_shard_amount(shard_count());
    let wait = Duration::from_secs_f64(config.wait_ms / 1e3);
    let tallies = Tallies::new(cell.threads);
    let asked: Vec<Mutex<Vec<u64>>> = (0..cell.threads).map(|_| Mutex::default()).collect();
    let cut = Cut { stop_at, answered: AtomicBool::new(false) };
    let timing = run_team(EXPERIMENT, cell.threads, |worker| {
        let mut seed = (trial.0 as u64) << 32 | worker as u64;
        let (mut tally, mut keys, mut checksum) = (Tally::default(), Vec::new(), 0u64);
        let before = voluntary_switches();
        for _ in 0..config.requests_per_thread {
            let key = skewed_key(split_mix(&mut seed), config.keys);
            let reply = match cell.primitive {
                Primitive::EntryUnderLock => under_lock(&map, key, wait, Some(&cut), &mut tally),
                _ => outside_lock(&map, key, wait, Some(&cut), &mut tally),
            };
            let Some(value) = reply else {
                tally.cut = true;
                break;
            };
            keys.push(key);
            checksum = checksum.wrapping_add(value);
        }
        black_box(checksum);
        tally.switches = switches_between(before, voluntary_switches());
        tally.ops = keys.len() as u64;
        tally.reads = tally.hits;
        tally.writes = tally.remote_calls;
        tallies.set(worker, tally);
        *asked[worker].lock().unwrap_or_else(PoisonError::into_inner) = keys;
    })?;
    let totals = Totals::of(&tallies.into_vec());
    let asked: BTreeSet<u64> =
        asked.into_iter().flat_map(|keys| keys.into_inner().unwrap_or_else(PoisonError::into_inner)).collect();
    verify(cell, trial.0, &map, &asked, &totals)?;
    let facts = MapFacts {
        wait_ms: config.wait_ms,
        keys: config.keys,
        keys_requested: asked.len() as u64,
        shards: shard_count() as u64,
    };
    Ok(verified_row(cell, trial, &totals, &timing, facts))
}

/// The map holds exactly the keys asked for, each with the remote service's value; every
/// request was a hit or a call; under the lock each key was fetched exactly once.
fn verify(
    cell: &Cell,
    trial: usize,
    map: &DashMap<u64, u64>,
    asked: &BTreeSet<u64>,
    totals: &Totals,
) -> Result<(), RunError> {
    let fail = |what: &str, expected: u64, actual: u64| RunError::Verification {
        experiment: EXPERIMENT,
        case: format!("{}: {what}", cell.label()),
        trial,
        expected,
        actual,
    };
    let distinct = asked.len() as u64;
    let held = map.len() as u64 + fault::extra_increments();
    if held != distinct {
        return Err(fail("keys in the map", distinct, held));
    }
    let right = asked.iter().filter(|&&key| map.get(&key).is_some_and(|value| *value == value_of(key))).count();
    if right as u64 != distinct {
        return Err(fail("keys holding the remote service's value", distinct, right as u64));
    }
    let sum = &totals.sum;
    if sum.hits + sum.remote_calls != sum.ops {
        return Err(fail("requests answered", sum.ops, sum.hits + sum.remote_calls));
    }
    let once = cell.primitive == Primitive::EntryUnderLock;
    if (once && sum.remote_calls != distinct) || sum.remote_calls < distinct {
        return Err(fail("remote calls", distinct, sum.remote_calls));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_skewed_and_in_range() {
        let mut seed = 7;
        let keys: Vec<u64> = (0..10_000).map(|_| skewed_key(split_mix(&mut seed), 100)).collect();
        assert!(keys.iter().all(|&key| key < 100));
        let hot = keys.iter().filter(|&&key| key < 10).count() as f64 / keys.len() as f64;
        assert!((0.40..0.52).contains(&hot), "a tenth of the keys got {hot} of the requests");
        assert_eq!(skewed_key(u64::MAX, 1), 0);
    }

    #[test]
    fn both_variants_leave_the_same_map() {
        for primitive in [Primitive::EntryUnderLock, Primitive::ComputeOutsideLock] {
            let map = DashMap::new();
            let mut tally = Tally::default();
            for key in [3, 1, 3, 3] {
                let fetch = if primitive == Primitive::EntryUnderLock { under_lock } else { outside_lock };
                assert_eq!(fetch(&map, key, Duration::ZERO, None, &mut tally), Some(value_of(key)));
            }
            assert_eq!((map.len(), tally.hits, tally.remote_calls), (2, 2, 2));
        }
    }
}
