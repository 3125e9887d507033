//! The fixed pool: N OS threads take requests from one queue and serve each whole (CPU
//! work, the shared lock, then the cache or the database). Also the pieces the split pool
//! shares.

use std::thread::{self, Scope, ScopedJoinHandle};

use super::closed::Feed;
use super::metrics::Meter;
use super::queue::JobQueue;
use super::serve::{CaseResult, ServeParams, Service};
use super::EXPERIMENT;
use crate::error::RunError;

/// Serves the feed's requests on a pool of `threads` OS threads sharing one queue.
pub fn run(threads: usize, feed: Feed, params: ServeParams) -> Result<CaseResult, RunError> {
    let queue = JobQueue::default();
    let service = Service::new(&params, &feed);
    let serve = || {
        service.run_delay.around(|| {
            while let Some(job) = queue.pop() {
                service.whole(&job);
            }
        });
    };
    let (arrived, metered) = thread::scope(|scope| {
        let workers = spawn_workers(scope, "fixed", threads, &queue, &serve)?;
        let mut meter = Meter::start();
        service.tally.count_between(feed.counted(meter.start_instant()));
        let arrived = feed.run(meter.start_instant(), &service.tally, |job| queue.push(job), || meter.sample_memory());
        queue.close();
        join_all(workers)?;
        Ok::<_, RunError>((arrived, meter.finish()))
    })?;
    Ok(service.finish(arrived, metered, queue.peak_len(), 0))
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
