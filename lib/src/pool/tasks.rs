//! The async variant, the analogue of Java's virtual threads: every request is a tokio task
//! on a runtime with one worker thread per CPU; the CPU work runs on a worker, and the
//! simulated IO is a timer (`tokio::time::sleep`), which frees the worker instead of
//! blocking a thread. tokio's timer wheel ticks in milliseconds, so waits end up to about
//! 1 ms late; that is part of what this variant costs and is measured as latency.

use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::arrivals::{dispatch, Request};
use super::fixed::{CaseResult, ServeParams};
use super::metrics::{Meter, Tally};
use super::EXPERIMENT;
use crate::error::RunError;

/// Serves `requests` as tasks on `worker_threads` tokio workers.
pub fn run(worker_threads: usize, requests: &[Request], params: ServeParams) -> Result<CaseResult, RunError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads)
        .thread_name(format!("{EXPERIMENT}-async"))
        .enable_time()
        .build()
        .map_err(|source| RunError::Spawn { experiment: EXPERIMENT, source })?;
    let tally = Arc::new(Tally::new(params.queue_timeout));
    let work = params.work;
    // Tasks spawned but not yet started: the async counterpart of a pool's queue.
    let not_started = Arc::new(AtomicUsize::new(0));
    let mut peak_not_started = 0;
    let mut tasks = Vec::with_capacity(requests.len());
    let mut meter = Meter::start();
    let start = meter.start_instant();
    tally.close_window_at(start + params.window);
    let arrived = dispatch(
        start,
        requests,
        |job| {
            peak_not_started = peak_not_started.max(not_started.fetch_add(1, Ordering::Relaxed) + 1);
            let (tally, not_started) = (Arc::clone(&tally), Arc::clone(&not_started));
            tasks.push(runtime.spawn(async move {
                not_started.fetch_sub(1, Ordering::Relaxed);
                if tally.drop_if_expired(&job) {
                    return;
                }
                black_box(work.run(job.request.seed));
                tokio::time::sleep(Duration::from_nanos(job.request.wait_ns)).await;
                tally.complete(&job);
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
    drop(runtime);
    if !all_joined {
        return Err(RunError::WorkerPanicked { experiment: EXPERIMENT });
    }
    Ok(CaseResult::new(arrived, &tally, metered, peak_not_started, 0))
}
