//! One request's path, shared by every variant: real CPU work, the shared lock's critical
//! section, then the IO wait: a hit waits on the cache; a miss first acquires a database
//! connection from the bounded pool (blocking hand-off) and holds it for its wait. The waits
//! themselves block the thread (`thread::sleep`, as a blocking client call would); what a
//! pool's size costs comes from the lock, the connection hand-off and the scheduler.

use std::hint::black_box;
use std::thread;
use std::time::Duration;

use super::arrivals::Job;
use super::closed::Feed;
use super::downstream::{DbPool, SharedSection};
use super::metrics::Metered;
use super::schedstat::RunDelay;
use super::service::CpuWork;
use super::tally::{Latencies, Tally};

/// How every variant serves a request.
#[derive(Debug, Clone, Copy)]
pub struct ServeParams {
    pub work: CpuWork,
    /// The critical section under the shared lock.
    pub section: CpuWork,
    pub db_connections: usize,
    /// A request that waited longer than this in a queue is dropped.
    pub queue_timeout: Duration,
}

/// What one run of one variant saw.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// Requests released by the dispatcher.
    pub arrived: u64,
    pub completed: u64,
    /// Completed before the arrival window closed.
    pub completed_in_window: u64,
    /// Requests that waited in a queue past the timeout (recorded at the timeout).
    pub dropped: u64,
    /// Capacity probe only: requests still waiting when it ended (not in the latencies).
    pub unserved: u64,
    /// Latency of every arrival from its scheduled arrival, in microseconds.
    pub latencies: Latencies,
    pub metered: Metered,
    /// Most requests waiting at once for a thread (or, async, for a worker to start them).
    pub peak_queue: usize,
    /// Most misses waiting at once for a database connection (split: or for a miss thread).
    pub peak_db_queue: usize,
    pub lock_wait_ms: f64,
    pub db_wait_ms: f64,
    /// Run-queue delay of the serving threads, summed; `None` without schedstat.
    pub run_delay_ns: Option<u64>,
}

/// What a run's workers share: the downstream, the tally and the run-queue total.
#[derive(Debug)]
pub struct Service {
    pub tally: Tally,
    pub run_delay: RunDelay,
    db: DbPool,
    section: SharedSection,
    work: CpuWork,
}

impl Service {
    pub fn new(params: &ServeParams, feed: &Feed) -> Self {
        Self {
            tally: feed.tally(params.queue_timeout),
            run_delay: RunDelay::default(),
            db: DbPool::new(params.db_connections),
            section: SharedSection::new(params.section),
            work: params.work,
        }
    }

    /// The request's CPU work, then the shared critical section.
    pub fn compute(&self, job: &Job) {
        black_box(self.work.run(job.request.seed));
        self.tally.record_lock_wait(self.section.enter(job.request.seed));
    }

    /// A hit's wait on the cache; then the request is complete.
    pub fn cache(&self, job: &Job) {
        block_for(job);
        self.tally.complete(job);
    }

    /// A miss's query: a connection from the pool, held for the wait; then complete. A miss
    /// still waiting for a connection at its caller's deadline is dropped.
    pub fn database(&self, job: &Job) {
        let (connection, waited) = self.db.acquire_before(self.tally.deadline(job));
        self.tally.record_db_wait(waited);
        match connection {
            Some(connection) => {
                block_for(job);
                drop(connection);
                self.tally.complete(job);
            }
            None => self.tally.give_up(job),
        }
    }

    /// The whole path on one thread, unless the request expired in the queue.
    pub fn whole(&self, job: &Job) {
        if self.tally.drop_if_expired(job) {
            return;
        }
        self.compute(job);
        if job.request.hit {
            self.cache(job);
        } else {
            self.database(job);
        }
    }

    /// The run's result; `peak_miss_queue` is the split pool's miss queue (0 otherwise).
    pub fn finish(&self, arrived: u64, metered: Metered, peak_queue: usize, peak_miss_queue: usize) -> CaseResult {
        CaseResult {
            arrived,
            completed: self.tally.completed(),
            completed_in_window: self.tally.completed_in_window(),
            dropped: self.tally.dropped(),
            unserved: self.tally.unserved(),
            latencies: self.tally.latencies_snapshot(),
            metered,
            peak_queue,
            peak_db_queue: self.db.peak_waiters().max(peak_miss_queue),
            lock_wait_ms: self.tally.lock_wait_ms(),
            db_wait_ms: self.tally.db_wait_ms(),
            run_delay_ns: self.run_delay.total_ns(),
        }
    }
}

/// Blocks this thread for the request's IO, as a blocking client call would.
fn block_for(job: &Job) {
    thread::sleep(Duration::from_nanos(job.request.wait_ns));
}
