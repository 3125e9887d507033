//! Run-queue delay: how long a pool's threads were runnable but waited for a CPU, from the
//! kernel's per-thread scheduler statistics (`/proc/self/task/<tid>/schedstat`, read through
//! `/proc/thread-self`, its second field: nanoseconds spent waiting on a run queue). This is
//! what `perf sched` reports as a thread's wait for a CPU (the article: 1.7 ms mean).
//!
//! Each worker reads its own line when it starts and when it stops, and adds the difference
//! to the run's total; a kernel without schedstat (or another OS) makes the run's reading
//! unavailable, never zero.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// This thread's total run-queue delay so far in nanoseconds; `None` where the kernel keeps
/// no scheduler statistics.
pub fn thread_run_delay_ns() -> Option<u64> {
    crate::platform::thread_run_delay_ns().ok()
}

thread_local! {
    static THREAD_START: Cell<Option<Started>> = const { Cell::new(None) };
}

/// The run-queue delay of every thread of one run, summed.
#[derive(Debug, Default)]
pub struct RunDelay {
    total_ns: AtomicU64,
    unavailable: AtomicBool,
}

/// A worker's reading at its start; [`RunDelay::stop`] adds what accrued since.
#[derive(Debug, Clone, Copy)]
pub struct Started(Option<u64>);

impl RunDelay {
    pub fn start(&self) -> Started {
        Started(thread_run_delay_ns())
    }

    /// Adds this thread's delay since `started`. Call on the thread that called `start`.
    pub fn stop(&self, started: Started) {
        match started.0.zip(thread_run_delay_ns()) {
            Some((before, after)) => {
                self.total_ns.fetch_add(after.saturating_sub(before), Ordering::Relaxed);
            }
            None => self.unavailable.store(true, Ordering::Relaxed),
        }
    }

    /// Runs `work` on this thread between a start and a stop.
    pub fn around(&self, work: impl FnOnce()) {
        let started = self.start();
        work();
        self.stop(started);
    }

    /// Marks this thread's start, for a thread whose start and stop are separate callbacks
    /// (tokio's `on_thread_start` / `on_thread_stop`).
    pub fn begin_thread(&self) {
        THREAD_START.with(|start| start.set(Some(self.start())));
    }

    /// Adds this thread's delay since [`RunDelay::begin_thread`]; a thread that never began
    /// makes the reading unavailable.
    pub fn end_thread(&self) {
        self.stop(THREAD_START.with(Cell::take).unwrap_or(Started(None)));
    }

    /// The summed delay, or `None` when any thread could not read its statistics.
    pub fn total_ns(&self) -> Option<u64> {
        (!self.unavailable.load(Ordering::Relaxed)).then(|| self.total_ns.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_unavailable_if_any_thread_could_not_read() {
        let delay = RunDelay::default();
        delay.around(|| {});
        let readable = thread_run_delay_ns().is_some();
        assert_eq!(delay.total_ns().is_some(), readable);
        delay.stop(Started(None));
        assert_eq!(delay.total_ns(), None);
    }
}
