//! The fixed pool: N OS threads take requests from one queue. Each does the request's CPU
//! work, then blocks its thread for the simulated IO (`thread::sleep`, as a blocking
//! database call would), then records the latency. Also the pieces the split pool shares.

use std::hint::black_box;
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::Duration;

use hdrhistogram::Histogram;

use super::arrivals::{dispatch, Job, Request};
use super::metrics::{Meter, Metered, Tally};
use super::queue::JobQueue;
use super::service::CpuWork;
use super::EXPERIMENT;
use crate::error::RunError;

/// What one run of one variant saw.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// Requests released by the dispatcher.
    pub arrived: u64,
    pub completed: u64,
    /// Completed before the arrival window closed.
    pub completed_in_window: u64,
    /// Requests that waited in a queue past the timeout.
    pub dropped: u64,
    /// Latency from scheduled arrival to completion, in microseconds.
    pub latency_us: Histogram<u64>,
    pub metered: Metered,
    /// Most requests waiting at once for a thread (or, async, for a worker to start them).
    pub peak_queue: usize,
    /// Split variant: most misses waiting at once for a database connection.
    pub peak_db_queue: usize,
}

impl CaseResult {
    pub fn new(arrived: u64, tally: &Tally, metered: Metered, peak_queue: usize, peak_db_queue: usize) -> Self {
        Self {
            arrived,
            completed: tally.completed(),
            completed_in_window: tally.completed_in_window(),
            dropped: tally.dropped(),
            latency_us: tally.histogram(),
            metered,
            peak_queue,
            peak_db_queue,
        }
    }
}

/// How every variant serves a request.
#[derive(Debug, Clone, Copy)]
pub struct ServeParams {
    pub work: CpuWork,
    /// A request that waited longer than this in a queue is dropped.
    pub queue_timeout: Duration,
    /// How long requests arrive (for the in-window throughput).
    pub window: Duration,
}

/// Serves `requests` on a pool of `threads` OS threads sharing one queue.
pub fn run(threads: usize, requests: &[Request], params: ServeParams) -> Result<CaseResult, RunError> {
    let queue = JobQueue::default();
    let tally = Tally::new(params.queue_timeout);
    let work = params.work;
    let serve = || {
        while let Some(job) = queue.pop() {
            if !tally.drop_if_expired(&job) {
                black_box(work.run(job.request.seed));
                simulated_io(&job);
                tally.complete(&job);
            }
        }
    };
    let (arrived, metered) = thread::scope(|scope| {
        let workers = spawn_workers(scope, "fixed", threads, &queue, &serve)?;
        let mut meter = Meter::start();
        tally.close_window_at(meter.start_instant() + params.window);
        let arrived = dispatch(meter.start_instant(), requests, |job| queue.push(job), || meter.sample_memory());
        queue.close();
        join_all(workers)?;
        Ok::<_, RunError>((arrived, meter.finish()))
    })?;
    Ok(CaseResult::new(arrived, &tally, metered, queue.peak_len(), 0))
}

/// Blocks this thread for the request's simulated IO, as a blocking client call would.
pub fn simulated_io(job: &Job) {
    thread::sleep(Duration::from_nanos(job.request.wait_ns));
}

/// Starts `count` threads running `serve`. If the OS refuses a thread, `queue` is closed so
/// the threads already started finish, and the error names the failure.
pub fn spawn_workers<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    role: &str,
    count: usize,
    queue: &'env JobQueue,
    serve: &'env (dyn Fn() + Sync),
) -> Result<Vec<ScopedJoinHandle<'scope, ()>>, RunError> {
    let mut workers = Vec::with_capacity(count);
    for index in 0..count {
        match thread::Builder::new().name(format!("{EXPERIMENT}-{role}-{index}")).spawn_scoped(scope, serve) {
            Ok(worker) => workers.push(worker),
            Err(source) => {
                queue.close();
                return Err(RunError::Spawn { experiment: EXPERIMENT, source });
            }
        }
    }
    Ok(workers)
}

/// Joins every worker; a panic in any is an error (after all have been joined).
pub fn join_all(workers: Vec<ScopedJoinHandle<'_, ()>>) -> Result<(), RunError> {
    let panicked = workers.into_iter().map(ScopedJoinHandle::join).filter(Result::is_err).count();
    if panicked > 0 {
        return Err(RunError::WorkerPanicked { experiment: EXPERIMENT });
    }
    Ok(())
}
