//! The async variant, the analogue of Java's virtual threads: every request is a tokio task
//! on a runtime with one worker thread per CPU. The CPU work and the shared section run on a
//! worker (the section's `std` mutex blocks that worker, as `synchronized` pins a virtual
//! thread); a miss acquires its database connection from a fair async semaphore of the same
//! size as the other variants' pool, so waiting frees the worker, and gives up at its
//! caller's deadline as they do; the IO waits are timers.
//! tokio's timer wheel ticks in milliseconds, so waits end up to about 1 ms late; that is
//! part of what this variant costs and is measured as latency.
//!
//! With [`Waits::Blocking`] the same tasks wait the way the thread pools do: the IO wait is
//! `thread::sleep` (a blocking client call) and a miss takes its connection from the
//! blocking pool (a `std` mutex and condvar) and holds it across that sleep. Each wait then
//! holds a worker, as `synchronized` pins a virtual thread to its carrier (JDK 21), so the
//! runtime serves at most about workers / (wait + work) requests per second.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use super::closed::Feed;
use super::metrics::Meter;
use super::serve::{CaseResult, ServeParams, Service};
use super::EXPERIMENT;
use crate::error::RunError;

/// Tasks spawned but not yet started (the async counterpart of a pool's queue), and misses
/// waiting for a connection, with the most of each seen at once.
#[derive(Debug, Default)]
struct Waiting {
    not_started: AtomicUsize,
    peak_not_started: AtomicUsize,
    for_connection: AtomicUsize,
    peak_for_connection: AtomicUsize,
}

fn enter(count: &AtomicUsize, peak: &AtomicUsize) {
    peak.fetch_max(count.fetch_add(1, Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// How a task waits for its IO and its connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waits {
    /// `tokio::time::sleep` and an async semaphore: waiting frees the worker.
    Timers,
    /// `thread::sleep` and the blocking connection pool: waiting holds the worker.
    Blocking,
}

/// Serves the feed's requests as tasks on `worker_threads` tokio workers.
pub fn run(worker_threads: usize, feed: Feed, params: ServeParams, waits: Waits) -> Result<CaseResult, RunError> {
    let service = Arc::new(Service::new(&params, &feed));
    let (on_start, on_stop) = (Arc::clone(&service), Arc::clone(&service));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads)
        .thread_name(format!("{EXPERIMENT}-async"))
        .enable_time()
        // Each worker's run-queue delay, from its start to its stop (see `schedstat`).
        .on_thread_start(move || on_start.run_delay.begin_thread())
        .on_thread_stop(move || on_stop.run_delay.end_thread())
        .build()
        .map_err(|source| RunError::Spawn { experiment: EXPERIMENT, source })?;
    let connections = Arc::new(Semaphore::new(params.db_connections));
    let waiting = Arc::new(Waiting::default());
    let mut tasks = Vec::new();
    let mut meter = Meter::start();
    let start = meter.start_instant();
    service.tally.count_between(feed.counted(start));
    let arrived = feed.run(
        start,
        &service.tally,
        |job| {
            enter(&waiting.not_started, &waiting.peak_not_started);
            let (service, connections, waiting) =
                (Arc::clone(&service), Arc::clone(&connections), Arc::clone(&waiting));
            tasks.push(runtime.spawn(async move {
                waiting.not_started.fetch_sub(1, Ordering::Relaxed);
                if waits == Waits::Blocking {
                    // The thread pools' path, on a worker: every wait blocks it.
                    service.whole(&job);
                    return;
                }
                if service.tally.drop_if_expired(&job) {
                    return;
                }
                service.compute(&job);
                let wait = Duration::from_nanos(job.request.wait_ns);
                if job.request.hit {
                    tokio::time::sleep(wait).await;
                } else {
                    enter(&waiting.for_connection, &waiting.peak_for_connection);
                    let asked = Instant::now();
                    let deadline = tokio::time::Instant::from_std(service.tally.deadline(&job));
                    let connection = tokio::time::timeout_at(deadline, connections.acquire()).await;
                    waiting.for_connection.fetch_sub(1, Ordering::Relaxed);
                    service.tally.record_db_wait(asked.elapsed());
                    let Ok(Ok(connection)) = connection else {
                        service.tally.give_up(&job);
                        return;
                    };
                    tokio::time::sleep(wait).await;
                    drop(connection);
                }
                service.tally.complete(&job);
            }));
        },
        || meter.sample_memory(),
    );
    let all_joined = runtime.block_on(async {
        let mut all_joined = true;
        for task in tasks {
            all_joined &= task.await.is_ok();
        }
        all_joined
    });
    let metered = meter.finish();
    // Dropping the runtime stops its workers, which adds their run-queue delay.
    drop(runtime);
    if !all_joined {
        return Err(RunError::WorkerPanicked { experiment: EXPERIMENT });
    }
    let peak_queue = waiting.peak_not_started.load(Ordering::Relaxed);
    Ok(service.finish(arrived, metered, peak_queue, waiting.peak_for_connection.load(Ordering::Relaxed)))
}
