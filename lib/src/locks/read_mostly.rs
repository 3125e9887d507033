//! The read-mostly case (and the uncontended `RwLock` read): each worker does a fixed count
//! of operations on one protected [`Snapshot`], a set share of them writes.
//!
//! # Timing model
//!
//! One operation is a read (take the read side, copy the three fields, release) or a write
//! (take the write side, store the next version's fields, release). Writes come at a fixed
//! rhythm: a credit of `1 - read_share` (in millionths) accrues per operation and a write is
//! due each time it passes one, so every worker does exactly `floor(ops x (1 - share))`
//! writes, spread evenly. Every read is checked (its three fields must come from one write)
//! and folded into a checksum passed to `black_box`: the reads cannot be dropped as unused,
//! and a torn value is caught where it was read. The trial's elapsed time over all reads
//! gives reads per second; a lock that serialises readers shows it there.

use std::hint::black_box;
use std::sync::{Mutex, PoisonError, RwLock};

use crossbeam_utils::CachePadded;

use super::primitives::{SeqLock, Snapshot};
use super::row::{switches_between, verified_row, MapFacts, Row, Tallies, Tally, Totals};
use super::switches::voluntary_switches;
use super::{Cell, Primitive, EXPERIMENT};
use crate::error::RunError;
use crate::fault;
use crate::harness::run_team;

/// Millionths: the resolution of the read share.
const PPM: u64 = 1_000_000;

/// A lock guarding a [`Snapshot`].
trait ReadWrite: Sync {
    /// A snapshot, and the optimistic attempts thrown away on the way.
    fn read(&self) -> (Snapshot, u64);
    /// Stores the next version.
    fn write(&self);
    /// The version now (after the team has finished).
    fn version(&self) -> u64 {
        self.read().0.version
    }
}

fn next(snapshot: &mut Snapshot) {
    *snapshot = Snapshot::of(snapshot.version + 1);
}

impl ReadWrite for RwLock<Snapshot> {
    fn read(&self) -> (Snapshot, u64) {
        (*self.read().unwrap_or_else(PoisonError::into_inner), 0)
    }

    fn write(&self) {
        next(&mut self.write().unwrap_or_else(PoisonError::into_inner));
    }
}

impl ReadWrite for parking_lot::RwLock<Snapshot> {
    fn read(&self) -> (Snapshot, u64) {
        (*self.read(), 0)
    }

    fn write(&self) {
        next(&mut self.write());
    }
}

impl ReadWrite for Mutex<Snapshot> {
    fn read(&self) -> (Snapshot, u64) {
        (*self.lock().unwrap_or_else(PoisonError::into_inner), 0)
    }

    fn write(&self) {
        next(&mut self.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

impl ReadWrite for SeqLock {
    fn read(&self) -> (Snapshot, u64) {
        SeqLock::read(self)
    }

    fn write(&self) {
        self.write_next();
    }
}

/// One trial of a read-mostly cell: `ops_per_thread` operations on each worker.
pub(crate) fn trial(cell: &Cell, ops_per_thread: u64, trial: (usize, usize)) -> Result<Row, RunError> {
    let zero = Snapshot::of(0);
    match cell.primitive {
        Primitive::StdRwLock => measure(&*CachePadded::new(RwLock::new(zero)), cell, ops_per_thread, trial),
        Primitive::ParkingLotRwLock => {
            measure(&*CachePadded::new(parking_lot::RwLock::new(zero)), cell, ops_per_thread, trial)
        }
        Primitive::StdMutex => measure(&*CachePadded::new(Mutex::new(zero)), cell, ops_per_thread, trial),
        Primitive::SeqLock => measure(&*CachePadded::new(SeqLock::default()), cell, ops_per_thread, trial),
        other => unreachable!("{other} is not a read-mostly primitive"),
    }
}

/// The write credit per operation for a share of reads, in millionths.
fn write_ppm(read_share: f64) -> u64 {
    ((1.0 - read_share.clamp(0.0, 1.0)) * PPM as f64).round() as u64
}

fn measure<L: ReadWrite>(lock: &L, cell: &Cell, ops: u64, trial: (usize, usize)) -> Result<Row, RunError> {
    let tallies = Tallies::new(cell.threads);
    let torn: Mutex<Option<Snapshot>> = Mutex::new(None);
    let ppm = write_ppm(cell.read_share);
    let timing = run_team(EXPERIMENT, cell.threads, |worker| {
        let before = voluntary_switches();
        let (mut tally, escaped) = mixed(lock, ops, ppm);
        tally.switches = switches_between(before, voluntary_switches());
        tallies.set(worker, tally);
        if escaped.is_some() {
            *torn.lock().unwrap_or_else(PoisonError::into_inner) = escaped;
        }
    })?;
    let totals = Totals::of(&tallies.into_vec());
    let fail = |what: &str, expected: u64, actual: u64| RunError::Verification {
        experiment: EXPERIMENT,
        case: format!("{}: {what}", cell.label()),
        trial: trial.0,
        expected,
        actual,
    };
    if let Some(snapshot) = torn.into_inner().unwrap_or_else(PoisonError::into_inner) {
        // The fields disagree with the version they came with: two writes mixed.
        let expected = Snapshot::of(snapshot.version).fingerprint();
        return Err(fail("a torn read escaped (fields' fingerprint)", expected, snapshot.fingerprint()));
    }
    let planned_writes = (ops as u128 * ppm as u128 / PPM as u128) as u64 * cell.threads as u64;
    let version = lock.version() + fault::extra_increments();
    let checks = [
        ("writes done", planned_writes, totals.sum.writes),
        ("version after the writes", totals.sum.writes, version),
        ("operations", ops * cell.threads as u64, totals.sum.ops),
    ];
    if let Some(&(what, expected, actual)) = checks.iter().find(|(_, expected, actual)| expected != actual) {
        return Err(fail(what, expected, actual));
    }
    Ok(verified_row(cell, trial, &totals, &timing, MapFacts::default()))
}

/// The timed loop: `ops` operations, a write whenever the credit passes one. Returns the
/// tally and the first torn snapshot read, if any (the loop stops there).
#[inline(never)]
fn mixed<L: ReadWrite>(lock: &L, ops: u64, write_ppm: u64) -> (Tally, Option<Snapshot>) {
    let lock = black_box(lock);
    let mut tally = Tally { ops, ..Tally::default() };
    let (mut credit, mut checksum) = (0u64, 0u64);
    for _ in 0..ops {
        credit += write_ppm;
        if credit >= PPM {
            credit -= PPM;
            lock.write();
            tally.writes += 1;
            continue;
        }
        let (snapshot, retries) = lock.read();
        if !snapshot.is_consistent() {
            return (tally, Some(snapshot));
        }
        checksum = checksum.wrapping_add(snapshot.version);
        tally.torn_retries += retries;
        tally.reads += 1;
    }
    black_box(checksum);
    (tally, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_write_rhythm_is_exact() {
        assert_eq!(write_ppm(1.0), 0);
        assert_eq!(write_ppm(0.99), 10_000);
        assert_eq!(write_ppm(0.9), 100_000);
        let lock = RwLock::new(Snapshot::of(0));
        let (tally, torn) = mixed(&lock, 1_000, write_ppm(0.99));
        assert_eq!((tally.reads, tally.writes, torn), (990, 10, None));
        assert_eq!(ReadWrite::version(&lock), 10);
    }
}
