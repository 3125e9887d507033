//! Every arrival's fate (completed, or dropped and counted at the timeout), its latency in
//! HDR histograms (all arrivals, hits, misses), and the waits for the shared lock and for
//! database connections.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use super::arrivals::Job;
use super::gate::Gate;

/// Latencies are recorded in microseconds, from 1 us to an hour, to 3 significant digits.
const LATENCY_MAX_US: u64 = 3_600_000_000;

/// Latencies of every arrival: all, and split by class.
#[derive(Debug, Clone)]
pub struct Latencies {
    pub all_us: Histogram<u64>,
    pub hits_us: Histogram<u64>,
    pub misses_us: Histogram<u64>,
}

impl Latencies {
    fn new() -> Self {
        let histogram =
            || Histogram::new_with_bounds(1, LATENCY_MAX_US, 3).expect("1 us .. 1 h at 3 digits is a valid range");
        Self { all_us: histogram(), hits_us: histogram(), misses_us: histogram() }
    }

    /// A value the histograms cannot hold is not recorded, so the run's count check fails.
    fn record(&mut self, hit: bool, latency: Duration) {
        let latency_us = (latency.as_micros() as u64).max(1);
        let _ = self.all_us.record(latency_us);
        let _ = if hit { self.hits_us.record(latency_us) } else { self.misses_us.record(latency_us) };
    }
}

/// A sum of waits and how many waits it holds.
#[derive(Debug, Default)]
struct WaitSum {
    total_ns: AtomicU64,
    count: AtomicU64,
}

impl WaitSum {
    fn add(&self, wait: Duration) {
        self.total_ns.fetch_add(wait.as_nanos() as u64, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    fn mean_ms(&self) -> f64 {
        let count = self.count.load(Ordering::Relaxed);
        if count == 0 {
            return 0.0;
        }
        self.total_ns.load(Ordering::Relaxed) as f64 / count as f64 / 1e6
    }
}

/// Counts every arrival's fate. Shared by all of a run's threads (or tasks).
#[derive(Debug)]
pub struct Tally {
    completed: AtomicU64,
    /// Completions inside the counted span (while requests arrive; a closed loop skips its
    /// ramp-up): the steady-state throughput, without the drain after the last arrival.
    completed_in_window: AtomicU64,
    counted: OnceLock<(Instant, Instant)>,
    dropped: AtomicU64,
    /// Closed loop only: requests still waiting when the probe stopped counting.
    unserved: AtomicU64,
    latencies: Mutex<Latencies>,
    lock_waits: WaitSum,
    db_waits: WaitSum,
    queue_timeout: Duration,
    /// Closed loop only: a finished request frees its caller to send the next.
    gate: Option<Gate>,
}

impl Tally {
    pub fn new(queue_timeout: Duration) -> Self {
        Self {
            completed: AtomicU64::new(0),
            completed_in_window: AtomicU64::new(0),
            counted: OnceLock::new(),
            dropped: AtomicU64::new(0),
            unserved: AtomicU64::new(0),
            latencies: Mutex::new(Latencies::new()),
            lock_waits: WaitSum::default(),
            db_waits: WaitSum::default(),
            queue_timeout,
            gate: None,
        }
    }

    /// A tally whose finished requests free `gate`'s callers (the closed-loop probe).
    pub fn gated(queue_timeout: Duration, gate: Gate) -> Self {
        Self { gate: Some(gate), ..Self::new(queue_timeout) }
    }

    pub fn gate(&self) -> Option<&Gate> {
        self.gate.as_ref()
    }

    /// Sets the span whose completions count as in-window; the others still count as
    /// completed.
    pub fn count_between(&self, (from, until): (Instant, Instant)) {
        let _ = self.counted.set((from, until));
    }

    fn latencies(&self) -> std::sync::MutexGuard<'_, Latencies> {
        self.latencies.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Drops `job` when it waited in a queue past its deadline ([`Tally::deadline`]): its
    /// caller has given up, so serving it would only delay the others. Returns true when
    /// dropped.
    pub fn drop_if_expired(&self, job: &Job) -> bool {
        let expired = Instant::now() > self.deadline(job);
        if expired {
            self.give_up(job);
        }
        expired
    }

    /// When the caller gives up on `job`: its queue timeout after its arrival. In the
    /// capacity probe (a gated tally) also when the probe stops counting: a request still
    /// waiting then cannot add to the count, and serving it would only lengthen the run.
    pub fn deadline(&self, job: &Job) -> Instant {
        let timeout = job.arrived + self.queue_timeout;
        match (&self.gate, self.counted.get()) {
            (Some(_), Some(&(_, until))) => timeout.min(until),
            _ => timeout,
        }
    }

    /// `job` leaves unserved at its deadline (it waited past it in some queue): dropped and
    /// counted at the timeout (censored: its real latency is at least that), or, when the
    /// capacity probe ended first, counted as unserved, outside the latencies.
    pub fn give_up(&self, job: &Job) {
        if Instant::now() < job.arrived + self.queue_timeout {
            self.unserved.fetch_add(1, Ordering::Relaxed);
        } else {
            self.latencies().record(job.request.hit, self.queue_timeout);
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        self.free_caller();
    }

    /// Records a finished request's latency, from its scheduled arrival to now.
    pub fn complete(&self, job: &Job) {
        let now = Instant::now();
        self.latencies().record(job.request.hit, now.saturating_duration_since(job.arrived));
        self.completed.fetch_add(1, Ordering::Relaxed);
        if self.counted.get().is_some_and(|&(from, until)| from <= now && now <= until) {
            self.completed_in_window.fetch_add(1, Ordering::Relaxed);
        }
        self.free_caller();
    }

    fn free_caller(&self) {
        if let Some(gate) = &self.gate {
            gate.release();
        }
    }

    pub fn record_lock_wait(&self, wait: Duration) {
        self.lock_waits.add(wait);
    }

    pub fn record_db_wait(&self, wait: Duration) {
        self.db_waits.add(wait);
    }

    /// Mean wait for the shared lock per entry, in ms.
    pub fn lock_wait_ms(&self) -> f64 {
        self.lock_waits.mean_ms()
    }

    /// Mean wait for a database connection per acquire (per miss served), in ms.
    pub fn db_wait_ms(&self) -> f64 {
        self.db_waits.mean_ms()
    }

    pub fn completed(&self) -> u64 {
        self.completed.load(Ordering::Relaxed)
    }

    pub fn completed_in_window(&self) -> u64 {
        self.completed_in_window.load(Ordering::Relaxed)
    }

    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    pub fn unserved(&self) -> u64 {
        self.unserved.load(Ordering::Relaxed)
    }

    pub fn latencies_snapshot(&self) -> Latencies {
        self.latencies().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::arrivals::Request;

    fn job(arrived: Instant) -> Job {
        Job { request: Request { arrival_ns: 0, wait_ns: 0, hit: false, seed: 1 }, arrived }
    }

    #[test]
    fn the_capacity_probe_lets_waiting_requests_go_unserved_when_it_ends() {
        let timeout = Duration::from_secs(10);
        let start = Instant::now();
        let probe = Tally::gated(timeout, Gate::new(4));
        probe.count_between((start, start + Duration::from_millis(5)));
        let waiting = job(start);
        assert_eq!(probe.deadline(&waiting), start + Duration::from_millis(5), "the probe ends before the timeout");
        std::thread::sleep(Duration::from_millis(10));
        assert!(probe.drop_if_expired(&waiting));
        assert_eq!((probe.unserved(), probe.dropped(), probe.completed()), (1, 0, 0));
        assert_eq!(probe.latencies_snapshot().all_us.len(), 0, "an unserved request has no latency");
    }

    #[test]
    fn the_open_loop_drops_only_at_the_timeout_and_counts_it_there() {
        let timeout = Duration::from_millis(5);
        let start = Instant::now();
        let open = Tally::new(timeout);
        open.count_between((start, start + Duration::from_millis(1)));
        let waiting = job(start);
        assert_eq!(open.deadline(&waiting), start + timeout, "the window's end is no deadline here");
        std::thread::sleep(Duration::from_millis(10));
        assert!(open.drop_if_expired(&waiting));
        assert_eq!((open.unserved(), open.dropped()), (0, 1));
        let latencies = open.latencies_snapshot().all_us;
        assert!(latencies.equivalent(latencies.max(), 5000), "counted at the timeout: {}", latencies.max());
    }
}
