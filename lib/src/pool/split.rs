//! The split pool, sized per class instead of by the mean: a small pool does every request's
//! CPU work, the shared section and the cache wait of hits; misses move on to a second pool
//! with one thread per database connection, so slow misses can no longer occupy the threads
//! hits need.

use std::thread;

use super::closed::Feed;
use super::fixed::{join_all, spawn_workers};
use super::formula::SplitSizes;
use super::metrics::Meter;
use super::queue::JobQueue;
use super::serve::{CaseResult, ServeParams, Service};
use crate::error::RunError;

/// Serves the feed's requests on the two pools. A request is dropped if it waited past the
/// timeout (counted from its arrival) in either queue.
pub fn run(sizes: SplitSizes, feed: Feed, params: ServeParams) -> Result<CaseResult, RunError> {
    let fast_queue = JobQueue::default();
    let miss_queue = JobQueue::default();
    let service = Service::new(&params, &feed);
    let serve_fast = || {
        service.run_delay.around(|| {
            while let Some(job) = fast_queue.pop() {
                if service.tally.drop_if_expired(&job) {
                    continue;
                }
                service.compute(&job);
                if job.request.hit {
                    service.cache(&job);
                } else {
                    miss_queue.push(job);
                }
            }
        });
    };
    let serve_misses = || {
        service.run_delay.around(|| {
            while let Some(job) = miss_queue.pop() {
                if !service.tally.drop_if_expired(&job) {
                    service.database(&job);
                }
            }
        });
    };
    let (arrived, metered) = thread::scope(|scope| {
        let miss_workers = spawn_workers(scope, "miss", sizes.miss_threads, &miss_queue, &serve_misses)?;
        let fast_workers = match spawn_workers(scope, "fast", sizes.fast_threads, &fast_queue, &serve_fast) {
            Ok(workers) => workers,
            Err(error) => {
                miss_queue.close();
                return Err(error);
            }
        };
        let mut meter = Meter::start();
        service.tally.count_between(feed.counted(meter.start_instant()));
        let arrived =
            feed.run(meter.start_instant(), &service.tally, |job| fast_queue.push(job), || meter.sample_memory());
        // The fast pool finishes first: it is the only producer of the miss queue.
        fast_queue.close();
        let fast_joined = join_all(fast_workers);
        miss_queue.close();
        let miss_joined = join_all(miss_workers);
        fast_joined.and(miss_joined)?;
        Ok::<_, RunError>((arrived, meter.finish()))
    })?;
    Ok(service.finish(arrived, metered, fast_queue.peak_len(), miss_queue.peak_len()))
}
