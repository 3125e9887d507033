//! The split pool, sized per class instead of by the mean: a small pool does every request's
//! CPU work and the cache wait of hits; misses move on to a second pool bounded like a
//! database connection pool, so slow misses can no longer occupy the threads hits need.

use std::hint::black_box;
use std::thread;

use super::arrivals::{dispatch, Request};
use super::fixed::{join_all, simulated_io, spawn_workers, CaseResult, ServeParams};
use super::formula::SplitSizes;
use super::metrics::{Meter, Tally};
use super::queue::JobQueue;
use crate::error::RunError;

/// Serves `requests` on the two pools. A request is dropped if it waited past the timeout
/// (counted from its arrival) in either queue.
pub fn run(sizes: SplitSizes, requests: &[Request], params: ServeParams) -> Result<CaseResult, RunError> {
    let fast_queue = JobQueue::default();
    let db_queue = JobQueue::default();
    let tally = Tally::new(params.queue_timeout);
    let work = params.work;
    let serve_fast = || {
        while let Some(job) = fast_queue.pop() {
            if tally.drop_if_expired(&job) {
                continue;
            }
            black_box(work.run(job.request.seed));
            if job.request.hit {
                simulated_io(&job);
                tally.complete(&job);
            } else {
                db_queue.push(job);
            }
        }
    };
    let serve_db = || {
        while let Some(job) = db_queue.pop() {
            if !tally.drop_if_expired(&job) {
                simulated_io(&job);
                tally.complete(&job);
            }
        }
    };
    let (arrived, metered) = thread::scope(|scope| {
        let db_workers = spawn_workers(scope, "db", sizes.db_connections, &db_queue, &serve_db)?;
        let fast_workers = match spawn_workers(scope, "fast", sizes.fast_threads, &fast_queue, &serve_fast) {
            Ok(workers) => workers,
            Err(error) => {
                db_queue.close();
                return Err(error);
            }
        };
        let mut meter = Meter::start();
        tally.close_window_at(meter.start_instant() + params.window);
        let arrived = dispatch(meter.start_instant(), requests, |job| fast_queue.push(job), || meter.sample_memory());
        // The fast pool finishes first: it is the only producer of the database queue.
        fast_queue.close();
        let fast_joined = join_all(fast_workers);
        db_queue.close();
        let db_joined = join_all(db_workers);
        fast_joined.and(db_joined)?;
        Ok::<_, RunError>((arrived, meter.finish()))
    })?;
    Ok(CaseResult::new(arrived, &tally, metered, fast_queue.peak_len(), db_queue.peak_len()))
}
