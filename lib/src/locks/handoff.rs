//! The uncontended, contended and fair-vs-barging cases: a team takes one lock until a
//! fixed total of acquisitions is done.
//!
//! # Timing model
//!
//! One operation is one acquisition: lock, look at the guarded count, add one if the total
//! is not reached, unlock. Every worker loops until the count reaches the total, so all of
//! them compete to the end (a fixed share per worker would let a barging thread finish
//! early and the last one run alone, uncontended), and how many acquisitions each worker
//! got is its share. The trial's elapsed time (the harness's: first release to last finish)
//! over the total is the time per hand-off; with one thread, the cost of one uncontended
//! acquire and release. Each worker reads its voluntary context switches before and after
//! its loop: every one is a sleep in the kernel (a futex wait) while the lock was held.
//!
//! The loop is generic over the lock, so each primitive gets its own compiled loop with no
//! indirect call in it; `black_box` hides the lock's identity from the optimiser, which then
//! cannot prove it unshared and drop the acquisition.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use crossbeam_utils::CachePadded;

use super::primitives::SpinLock;
use super::row::{switches_between, verified_row, MapFacts, Row, Tallies, Tally, Totals};
use super::switches::voluntary_switches;
use super::{Cell, Primitive, EXPERIMENT};
use crate::error::RunError;
use crate::fault;
use crate::harness::run_team;

/// A lock guarding a count of acquisitions.
trait TakeOne: Sync {
    /// Takes one acquisition of `total`; false once all were taken.
    fn take(&self, total: u64) -> bool;
    /// The guarded count, read after the team has finished.
    fn count(&self) -> u64;
    /// The count a correct trial ends with.
    fn expected(&self, total: u64, _threads: usize) -> u64 {
        total
    }
}

/// Adds one to `count` if it is below `total`: the critical section of every lock here.
#[inline(always)]
fn add_below(count: &mut u64, total: u64) -> bool {
    let below = *count < total;
    *count += u64::from(below);
    below
}

impl TakeOne for Mutex<u64> {
    fn take(&self, total: u64) -> bool {
        add_below(&mut self.lock().unwrap_or_else(PoisonError::into_inner), total)
    }

    fn count(&self) -> u64 {
        *self.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TakeOne for parking_lot::Mutex<u64> {
    fn take(&self, total: u64) -> bool {
        add_below(&mut self.lock(), total)
    }

    fn count(&self) -> u64 {
        *self.lock()
    }
}

/// `parking_lot::Mutex` released with `unlock_fair`: the next owner is the oldest waiter.
#[derive(Debug, Default)]
struct FairMutex(parking_lot::Mutex<u64>);

impl TakeOne for FairMutex {
    fn take(&self, total: u64) -> bool {
        let mut guard = self.0.lock();
        let taken = add_below(&mut guard, total);
        parking_lot::MutexGuard::unlock_fair(guard);
        taken
    }

    fn count(&self) -> u64 {
        *self.0.lock()
    }
}

/// The spin lock with its count in a relaxed atomic (see [`super::primitives`]).
#[derive(Debug, Default)]
struct SpinCounter {
    lock: SpinLock,
    count: AtomicU64,
}

impl TakeOne for SpinCounter {
    fn take(&self, total: u64) -> bool {
        let _guard = self.lock.lock();
        let mut count = self.count.load(Ordering::Relaxed);
        let taken = add_below(&mut count, total);
        self.count.store(count, Ordering::Relaxed);
        taken
    }

    fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

/// A lock whose waiters never spin: a ticket lock on a condition variable. A thread takes
/// the next ticket and, if it is not being served, sleeps on the condition variable (a futex
/// wait) at once; releasing serves the next ticket and, when a ticket is waiting, wakes the
/// sleepers (a futex wake). Turns go in ticket order, so with two or more threads nearly
/// every acquisition is a sleep and a wake-up: the trip to the kernel article C prices.
#[derive(Debug, Default)]
struct SleepLock {
    tickets: Mutex<Tickets>,
    turn: Condvar,
    /// The guarded count: written only by the thread whose ticket is served.
    count: AtomicU64,
}

#[derive(Debug, Default)]
struct Tickets {
    next: u64,
    serving: u64,
}

impl SleepLock {
    fn tickets(&self) -> std::sync::MutexGuard<'_, Tickets> {
        self.tickets.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TakeOne for SleepLock {
    fn take(&self, total: u64) -> bool {
        let mut tickets = self.tickets();
        let mine = tickets.next;
        tickets.next += 1;
        while tickets.serving != mine {
            tickets = self.turn.wait(tickets).unwrap_or_else(PoisonError::into_inner);
        }
        drop(tickets);
        let mut count = self.count.load(Ordering::Relaxed);
        let taken = add_below(&mut count, total);
        self.count.store(count, Ordering::Relaxed);
        let mut tickets = self.tickets();
        tickets.serving += 1;
        let waiting = tickets.next > tickets.serving;
        drop(tickets);
        if waiting {
            self.turn.notify_all();
        }
        taken
    }

    fn count(&self) -> u64 {
        let _tickets = self.tickets();
        self.count.load(Ordering::Relaxed)
    }
}

/// No lock: one `fetch_add` per acquisition. Each worker stops at the first add that
/// returns the total or more, so the count ends exactly one past the total per worker.
#[derive(Debug, Default)]
struct FetchAdd(AtomicU64);

impl TakeOne for FetchAdd {
    fn take(&self, total: u64) -> bool {
        self.0.fetch_add(1, Ordering::Relaxed) < total
    }

    fn count(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn expected(&self, total: u64, threads: usize) -> u64 {
        total + threads as u64
    }
}

/// One trial of a hand-off cell: `total` acquisitions shared by `cell.threads` workers.
pub(crate) fn trial(cell: &Cell, total: u64, trial: (usize, usize)) -> Result<Row, RunError> {
    match cell.primitive {
        Primitive::StdMutex => measure(&*CachePadded::new(Mutex::new(0)), cell, total, trial),
        Primitive::ParkingLotMutex => measure(&*CachePadded::new(parking_lot::Mutex::new(0)), cell, total, trial),
        Primitive::ParkingLotFair => measure(&*CachePadded::new(FairMutex::default()), cell, total, trial),
        Primitive::SpinLock => measure(&*CachePadded::new(SpinCounter::default()), cell, total, trial),
        Primitive::SleepLock => measure(&*CachePadded::new(SleepLock::default()), cell, total, trial),
        Primitive::FetchAdd => measure(&*CachePadded::new(FetchAdd::default()), cell, total, trial),
        other => unreachable!("{other} is not a hand-off primitive"),
    }
}

fn measure<L: TakeOne>(lock: &L, cell: &Cell, total: u64, trial: (usize, usize)) -> Result<Row, RunError> {
    let tallies = Tallies::new(cell.threads);
    let timing = run_team(EXPERIMENT, cell.threads, |worker| {
        let before = voluntary_switches();
        let ops = take_all(lock, total);
        let switches = switches_between(before, voluntary_switches());
        tallies.set(worker, Tally { ops, switches, ..Tally::default() });
    })?;
    let totals = Totals::of(&tallies.into_vec());
    let count = lock.count() + fault::extra_increments();
    let expected = lock.expected(total, cell.threads);
    let checks = [("acquisitions the workers got", total, totals.sum.ops), ("the guarded count", expected, count)];
    if let Some(&(what, expected, actual)) = checks.iter().find(|(_, expected, actual)| expected != actual) {
        let case = format!("{}: {what}", cell.label());
        return Err(RunError::Verification { experiment: EXPERIMENT, case, trial: trial.0, expected, actual });
    }
    Ok(verified_row(cell, trial, &totals, &timing, MapFacts::default()))
}

/// The timed loop: acquisitions until none are left; returns how many this worker got.
#[inline(never)]
fn take_all<L: TakeOne>(lock: &L, total: u64) -> u64 {
    let lock = black_box(lock);
    let mut mine = 0u64;
    while lock.take(total) {
        mine += 1;
    }
    mine
}
