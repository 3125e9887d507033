//! Stop-the-world: the handshake between the worker that collects and the workers that
//! must stop at a safepoint, and the log of what each cycle cost.
//!
//! A worker that finds the heap's trigger reached becomes the collector: it raises the
//! stop flag and waits until every other running worker has reached a safepoint (workers
//! check the flag before each operation's allocations) and parked. Parked workers sleep
//! on a condition variable, so on an oversubscribed machine the CPU goes to the workers
//! that still have to arrive; the slowest one sets the wait. The collector then traces
//! the live graph and sweeps the garbage, and wakes everyone. The whole time, from raising
//! the flag to waking the workers, is the pause.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

#[derive(Debug, Default)]
struct StopState {
    /// Workers that have not retired (the collector included).
    running: usize,
    parked: usize,
    /// Completed cycles; parked workers wait for this to change.
    cycle: u64,
    collecting: bool,
}

#[derive(Debug)]
pub struct World {
    /// Read by every worker before every operation: the only cost of a safepoint when no
    /// cycle is pending. Written only under `state`'s lock.
    stop_requested: AtomicBool,
    state: Mutex<StopState>,
    all_parked: Condvar,
    resumed: Condvar,
}

impl World {
    pub fn new(workers: usize) -> Self {
        Self {
            stop_requested: AtomicBool::new(false),
            state: Mutex::new(StopState { running: workers, ..StopState::default() }),
            all_parked: Condvar::new(),
            resumed: Condvar::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, StopState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The safepoint's fast path.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop_requested.load(Ordering::Relaxed)
    }

    /// Claims the collector's role and raises the stop flag; false when another worker is
    /// already collecting (the caller should then [`park`](Self::park)).
    pub fn begin_stop(&self) -> bool {
        let mut state = self.state();
        if state.collecting {
            return false;
        }
        state.collecting = true;
        self.stop_requested.store(true, Ordering::Relaxed);
        true
    }

    /// Parks a worker at its safepoint until the cycle under way ends (at once if none is).
    pub fn park(&self) {
        let mut state = self.state();
        if !state.collecting {
            return;
        }
        let cycle = state.cycle;
        state.parked += 1;
        if state.parked + 1 >= state.running {
            self.all_parked.notify_one();
        }
        while state.cycle == cycle {
            state = self.resumed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The collector waits here until every other running worker is parked; returns how
    /// many workers it stopped.
    pub fn wait_until_stopped(&self) -> usize {
        let mut state = self.state();
        while state.parked + 1 < state.running {
            state = self.all_parked.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.parked
    }

    /// Ends the cycle and wakes every parked worker.
    pub fn resume(&self) {
        let mut state = self.state();
        state.parked = 0;
        state.cycle += 1;
        state.collecting = false;
        self.stop_requested.store(false, Ordering::Relaxed);
        self.resumed.notify_all();
    }

    /// A worker leaves for good (its trial is over): a collector no longer waits for it.
    pub fn retire(&self) {
        let mut state = self.state();
        state.running -= 1;
        self.all_parked.notify_one();
    }
}

/// What the cycles of one trial cost and found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CycleLog {
    pub collections: u64,
    /// Collections the ceiling forced (ratio `off`, or a trigger capped by the ceiling).
    pub forced_by_ceiling: u64,
    pub pause_total: Duration,
    pub pause_max: Duration,
    /// Part of the pause spent waiting for the other workers to reach a safepoint.
    pub stop_total: Duration,
    pub trace_total: Duration,
    pub sweep_total: Duration,
    pub nodes_traced: u64,
    /// Cycles whose trace found fewer or more nodes than the graph holds (must stay 0).
    pub trace_mismatches: u64,
    /// Workers found mid-operation while the world was stopped (must stay 0).
    pub mid_operation_at_stop: u64,
    pub freed: super::heap::ObjectCount,
    pub damaged_spans: u64,
}

/// One cycle's phases, as the collector timed them.
#[derive(Debug, Clone, Copy)]
pub struct CycleTiming {
    pub stop: Duration,
    pub trace: Duration,
    pub sweep: Duration,
    pub pause: Duration,
}

impl CycleLog {
    pub fn record(&mut self, timing: CycleTiming, forced_by_ceiling: bool) {
        self.collections += 1;
        self.forced_by_ceiling += u64::from(forced_by_ceiling);
        self.pause_total += timing.pause;
        self.pause_max = self.pause_max.max(timing.pause);
        self.stop_total += timing.stop;
        self.trace_total += timing.trace;
        self.sweep_total += timing.sweep;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::thread;

    #[test]
    fn only_one_collector_at_a_time() {
        let world = World::new(2);
        assert!(world.begin_stop());
        assert!(world.stop_requested());
        assert!(!world.begin_stop());
        world.resume();
        assert!(!world.stop_requested());
        assert!(world.begin_stop());
    }

    #[test]
    fn collector_waits_for_every_worker_to_park() {
        let workers = 4;
        let world = World::new(workers);
        let parked_before_resume = AtomicUsize::new(0);
        assert!(world.begin_stop());
        thread::scope(|scope| {
            for _ in 1..workers {
                scope.spawn(|| {
                    while !world.stop_requested() {
                        thread::yield_now();
                    }
                    parked_before_resume.fetch_add(1, Ordering::SeqCst);
                    world.park();
                });
            }
            assert_eq!(world.wait_until_stopped(), workers - 1);
            assert_eq!(parked_before_resume.load(Ordering::SeqCst), workers - 1);
            world.resume();
        });
    }

    #[test]
    fn retired_workers_are_not_waited_for() {
        let world = World::new(3);
        world.retire();
        world.retire();
        assert!(world.begin_stop());
        assert_eq!(world.wait_until_stopped(), 0);
        world.resume();
        // Parking with no cycle under way returns at once.
        world.park();
    }
}
