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
//! A worker still going at `cap` after its start stops there (the clock is read every
//! [`CHECK_EVERY`] acquisitions), and the trial counts what was done: a fair hand-off sized
//! while its waiters spun can fall into a convoy (a wake-up per acquisition, a hundred times
//! slower; the JVM's fair `ReentrantLock` ran 2.3 s trials sized for 12 ms) and would
//! otherwise overrun the budget by seconds.
//!
//! The loop is generic over the lock, so each primitive gets its own compiled loop with no
//! indirect call in it; `black_box` hides the lock's identity from the optimiser, which then
//! cannot prove it unshared and drop the acquisition.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

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
    /// The count a correct trial ends with after `done` acquisitions and `refusals` calls
    /// that found the total reached (one per worker that ran to the end).
    fn expected(&self, done: u64, _refusals: u64) -> u64 {
        done
    }
}

/// How many acquisitions a worker makes between two readings of the clock (a reading costs
/// about 20 ns, so its share of an acquisition is a few hundredths of a nanosecond).
const CHECK_EVERY: u64 = 1024;

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

    fn expected(&self, done: u64, refusals: u64) -> u64 {
        done + refusals
    }
}

/// One trial of a hand-off cell: `total` acquisitions shared by `cell.threads` workers, each
/// stopping at `cap` after its start if it is still going.
pub(crate) fn trial(cell: &Cell, total: u64, cap: Duration, trial: (usize, usize)) -> Result<Row, RunError> {
    let work = Work { total, cap };
    match cell.primitive {
        Primitive::StdMutex => measure(&*CachePadded::new(Mutex::new(0)), cell, work, trial),
        Primitive::ParkingLotMutex => measure(&*CachePadded::new(parking_lot::Mutex::new(0)), cell, work, trial),
        Primitive::ParkingLotFair => measure(&*CachePadded::new(FairMutex::default()), cell, work, trial),
        Primitive::SpinLock => measure(&*CachePadded::new(SpinCounter::default()), cell, work, trial),
        Primitive::SleepLock => measure(&*CachePadded::new(SleepLock::default()), cell, work, trial),
        Primitive::FetchAdd => measure(&*CachePadded::new(FetchAdd::default()), cell, work, trial),
        other => unreachable!("{other} is not a hand-off primitive"),
    }
}

/// A trial's work: acquisitions in all, and how long a worker may take before it stops.
#[derive(Debug, Clone, Copy)]
struct Work {
    total: u64,
    cap: Duration,
}

fn measure<L: TakeOne>(lock: &L, cell: &Cell, work: Work, trial: (usize, usize)) -> Result<Row, RunError> {
    let tallies = Tallies::new(cell.threads);
    let timing = run_team(EXPERIMENT, cell.threads, |worker| {
        let before = voluntary_switches();
        let (ops, cut) = take_all(lock, work.total, Instant::now() + work.cap);
        let switches = switches_between(before, voluntary_switches());
        tallies.set(worker, Tally { ops, switches, cut, ..Tally::default() });
    })?;
    let tallies = tallies.into_vec();
    let refusals = tallies.iter().filter(|tally| !tally.cut).count() as u64;
    let totals = Totals::of(&tallies);
    let count = lock.count() + fault::extra_increments();
    let expected = lock.expected(totals.sum.ops, refusals);
    // A trial cut at its cap did fewer acquisitions than asked: the count must still match.
    let asked = if totals.sum.cut { totals.sum.ops } else { work.total };
    let checks = [("acquisitions the workers got", asked, totals.sum.ops), ("the guarded count", expected, count)];
    if let Some(&(what, expected, actual)) = checks.iter().find(|(_, expected, actual)| expected != actual) {
        let case = format!("{}: {what}", cell.label());
        return Err(RunError::Verification { experiment: EXPERIMENT, case, trial: trial.0, expected, actual });
    }
    Ok(verified_row(cell, trial, &totals, &timing, MapFacts::default()))
}

/// The timed loop: acquisitions until none are left, or until `stop_at`; returns how many
/// this worker got, and whether it stopped at `stop_at` rather than at the total.
#[inline(never)]
fn take_all<L: TakeOne>(lock: &L, total: u64, stop_at: Instant) -> (u64, bool) {
    let lock = black_box(lock);
    let mut mine = 0u64;
    loop {
        if mine % CHECK_EVERY == 0 && mine > 0 && Instant::now() >= stop_at {
            return (mine, true);
        }
        if !lock.take(total) {
            return (mine, false);
        }
        mine += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locks::Case;

    fn cell(primitive: Primitive, threads: usize) -> Cell {
        Cell { case: Case::Contended, primitive, threads, read_share: 0.0 }
    }

    #[test]
    fn a_trial_past_its_cap_stops_there_and_still_checks_its_count() {
        // More acquisitions than any machine does in the cap: every worker is cut.
        let total = 1 << 40;
        for primitive in [Primitive::FetchAdd, Primitive::SleepLock, Primitive::StdMutex] {
            let started = Instant::now();
            let row = trial(&cell(primitive, 2), total, Duration::from_millis(20), (0, 1)).unwrap();
            assert!(row.ops > 0 && row.ops < total, "{primitive}: {} acquisitions", row.ops);
            assert!(started.elapsed() < Duration::from_secs(5), "{primitive} ran {:?}", started.elapsed());
        }
    }

    #[test]
    fn a_trial_within_its_cap_does_exactly_its_total() {
        for primitive in [Primitive::FetchAdd, Primitive::ParkingLotFair, Primitive::SpinLock] {
            let row = trial(&cell(primitive, 2), 10_000, Duration::from_secs(60), (0, 1)).unwrap();
            assert_eq!(row.ops, 10_000, "{primitive}");
        }
    }
}
