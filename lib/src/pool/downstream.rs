//! What every request shares downstream, as real OS primitives: a bounded database
//! connection pool that misses must acquire, and one lock around a short critical section
//! that every request enters (a shared cache's bookkeeping, a synchronized logger).
//!
//! The connection pool hands a returned connection straight to the oldest waiting thread
//! and wakes it (`unpark`, a futex on Linux), as HikariCP's hand-off queue does: a waiter is
//! parked, not spinning, so a pool with more threads than connections pays a sleep and a
//! wake-up per contended acquire. The lock is `std::sync::Mutex` (a futex): uncontended it
//! costs tens of nanoseconds; contended, the waiter sleeps, and a holder the scheduler
//! preempts mid-section makes every waiter queue behind it (a convoy).

use std::collections::VecDeque;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use super::service::CpuWork;

#[derive(Debug)]
struct Waiter {
    granted: AtomicBool,
    thread: Thread,
}

#[derive(Debug)]
struct PoolState {
    free: usize,
    waiters: VecDeque<Arc<Waiter>>,
    peak_waiters: usize,
}

/// A bounded pool of database connections with a blocking, first-come hand-off.
#[derive(Debug)]
pub struct DbPool {
    state: Mutex<PoolState>,
}

/// A connection held by a request; dropping it returns it (to a waiter first).
#[derive(Debug)]
pub struct Connection<'pool> {
    pool: &'pool DbPool,
}

impl DbPool {
    pub fn new(connections: usize) -> Self {
        Self { state: Mutex::new(PoolState { free: connections, waiters: VecDeque::new(), peak_waiters: 0 }) }
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A connection, or `None` if none came before `deadline` (the caller gave up, as a
    /// pool's connection timeout ends the wait); and how long this thread waited. Blocks
    /// (parked) while every connection is in use.
    pub fn acquire_before(&self, deadline: Instant) -> (Option<Connection<'_>>, Duration) {
        let asked = Instant::now();
        let mut state = self.lock();
        if state.free > 0 {
            state.free -= 1;
            return (Some(Connection { pool: self }), asked.elapsed());
        }
        let waiter = Arc::new(Waiter { granted: AtomicBool::new(false), thread: thread::current() });
        state.waiters.push_back(Arc::clone(&waiter));
        state.peak_waiters = state.peak_waiters.max(state.waiters.len());
        drop(state);
        // A park may return early (spuriously, or for an unpark meant for an earlier wait):
        // only the grant flag says the connection is ours.
        while !waiter.granted.load(Ordering::Acquire) {
            let now = Instant::now();
            if now >= deadline {
                // Built only when granted: a `Connection` returns itself when dropped.
                let connection = if self.give_up(&waiter) { Some(Connection { pool: self }) } else { None };
                return (connection, asked.elapsed());
            }
            thread::park_timeout(deadline - now);
        }
        (Some(Connection { pool: self }), asked.elapsed())
    }

    /// Leaves the waiting line at the deadline. A grant is made under the lock, so either it
    /// came first (true: the connection is ours after all) or the waiter is still in line.
    fn give_up(&self, waiter: &Arc<Waiter>) -> bool {
        let mut state = self.lock();
        if waiter.granted.load(Ordering::Acquire) {
            return true;
        }
        state.waiters.retain(|other| !Arc::ptr_eq(other, waiter));
        false
    }

    fn release(&self) {
        let mut state = self.lock();
        match state.waiters.pop_front() {
            Some(waiter) => {
                waiter.granted.store(true, Ordering::Release);
                drop(state);
                waiter.thread.unpark();
            }
            None => state.free += 1,
        }
    }

    /// The most threads that waited for a connection at once.
    pub fn peak_waiters(&self) -> usize {
        self.lock().peak_waiters
    }
}

impl Drop for Connection<'_> {
    fn drop(&mut self) {
        self.pool.release();
    }
}

/// One lock every request takes, around real CPU work on shared state.
#[derive(Debug)]
pub struct SharedSection {
    state: Mutex<u64>,
    work: CpuWork,
}

impl SharedSection {
    /// `work` is the calibrated critical section (hash rounds that read and write the state).
    pub fn new(work: CpuWork) -> Self {
        Self { state: Mutex::new(0), work }
    }

    /// Enters the section for one request; returns how long the lock took to get.
    pub fn enter(&self, seed: u64) -> Duration {
        let asked = Instant::now();
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let waited = asked.elapsed();
        *state = black_box(self.work.run(*state ^ seed));
        waited
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    #[test]
    fn a_connection_is_handed_to_a_waiter_when_returned() {
        let pool = DbPool::new(1);
        let (held, waited) = pool.acquire_before(far());
        assert!(held.is_some() && waited < Duration::from_secs(1));
        thread::scope(|scope| {
            let waiter = scope.spawn(|| {
                let (connection, waited) = pool.acquire_before(far());
                assert!(connection.is_some());
                waited
            });
            while pool.lock().waiters.is_empty() {
                thread::yield_now();
            }
            thread::sleep(Duration::from_millis(20));
            drop(held);
            assert!(waiter.join().expect("waiter") >= Duration::from_millis(20));
        });
        assert_eq!(pool.peak_waiters(), 1);
        assert_eq!(pool.lock().free, 1, "the waiter returned its connection");
    }

    #[test]
    fn the_pool_never_lends_more_than_its_size() {
        let pool = DbPool::new(2);
        let in_use = std::sync::atomic::AtomicUsize::new(0);
        let most = std::sync::atomic::AtomicUsize::new(0);
        thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..50 {
                        let (connection, _) = pool.acquire_before(far());
                        assert!(connection.is_some());
                        let now = in_use.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        thread::yield_now();
                        in_use.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(pool.lock().free, 2);
    }

    #[test]
    fn a_waiter_gives_up_at_its_deadline_and_leaves_the_line() {
        let pool = DbPool::new(1);
        let (held, _) = pool.acquire_before(far());
        let deadline = Instant::now() + Duration::from_millis(20);
        let (none, _) = pool.acquire_before(deadline);
        assert!(none.is_none() && Instant::now() >= deadline);
        assert!(pool.lock().waiters.is_empty());
        drop(held);
        assert_eq!(pool.lock().free, 1);
    }
}
