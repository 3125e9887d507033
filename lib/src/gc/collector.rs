//! Stop-the-world: the handshake between the worker that collects and the workers that
//! must stop at a safepoint, and the log of what each cycle cost.
//!
//! A worker whose refill reaches the heap's trigger becomes the collector: it raises the
//! stop flag and waits until every other running worker has reached a safepoint (workers
//! check the flag at every allocation, Go's safepoint, so the wait is at most the work
//! between two allocations) and parked. Parked workers sleep on a condition variable, so
//! on an oversubscribed machine the CPU goes to the workers that still have to arrive; the
//! slowest one sets the wait. The collector then calls parked workers to help it mark
//! ([`open_marking`](World::open_marking)), ends the cycle and wakes everyone. The whole
//! time, from raising the flag to waking the workers, is the pause.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::span::SweepResult;

#[derive(Debug, Default)]
struct StopState {
    /// Workers that have not retired (the collector included).
    running: usize,
    parked: usize,
    /// Completed cycles; parked workers wait for this to change.
    cycle: u64,
    collecting: bool,
    /// Mark helpers the collector has asked for and no parked worker has taken yet.
    helpers_wanted: usize,
    /// Parked workers marking right now.
    helpers_busy: usize,
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

    /// Parks a worker at its safepoint until the cycle under way ends (at once if none is);
    /// while parked it runs `help` when the collector asks for a mark helper.
    pub fn park(&self, help: impl Fn()) {
        let mut state = self.state();
        if !state.collecting {
            return;
        }
        let cycle = state.cycle;
        state.parked += 1;
        if state.parked + 1 >= state.running {
            self.all_parked.notify_all();
        }
        while state.cycle == cycle {
            if state.helpers_wanted > 0 {
                state.helpers_wanted -= 1;
                state.helpers_busy += 1;
                drop(state);
                help();
                state = self.state();
                state.helpers_busy -= 1;
                self.all_parked.notify_all();
                continue;
            }
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

    /// Asks up to `wanted` parked workers to help mark; returns how many will (every parked
    /// worker is woken, and exactly that many take the job). `prepare` gets that number
    /// before any helper starts. Call once the world is stopped.
    pub fn open_marking(&self, wanted: usize, prepare: impl FnOnce(usize)) -> usize {
        let mut state = self.state();
        let helpers = wanted.min(state.parked);
        prepare(helpers);
        state.helpers_wanted = helpers;
        self.resumed.notify_all();
        helpers
    }

    /// Waits until every helper called by [`open_marking`](Self::open_marking) is done.
    pub fn wait_for_helpers(&self) {
        let mut state = self.state();
        while state.helpers_wanted > 0 || state.helpers_busy > 0 {
            state = self.all_parked.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
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
        self.all_parked.notify_all();
    }
}

/// What the cycles of one trial cost and found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CycleLog {
    pub cycles: u64,
    /// Cycles the ceiling forced (ratio `off`, or a trigger capped by the ceiling).
    pub ceiling_cycles: u64,
    pub pause_total: Duration,
    pub pause_max: Duration,
    /// Part of the pause spent waiting for the other workers to reach a safepoint.
    pub stop_total: Duration,
    pub mark_total: Duration,
    /// Part of the pause spent sweeping what the last cycle left (`finishsweep`).
    pub sweep_total: Duration,
    /// Markers that took part, summed over cycles.
    pub markers: u64,
    pub nodes_marked: u64,
    pub stacks_scanned: u64,
    /// Cycles whose marking found fewer or more nodes than the graph holds (must stay 0).
    pub mark_mismatches: u64,
    pub swept: SweepResult,
}

/// One cycle's phases, as the collector timed them.
#[derive(Debug, Clone, Copy)]
pub struct CycleTiming {
    pub stop: Duration,
    pub sweep: Duration,
    pub mark: Duration,
    pub pause: Duration,
}

impl CycleLog {
    pub fn record(&mut self, timing: CycleTiming, forced_by_ceiling: bool) {
        self.cycles += 1;
        self.ceiling_cycles += u64::from(forced_by_ceiling);
        self.pause_total += timing.pause;
        self.pause_max = self.pause_max.max(timing.pause);
        self.stop_total += timing.stop;
        self.sweep_total += timing.sweep;
        self.mark_total += timing.mark;
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
        let helped = AtomicUsize::new(0);
        assert!(world.begin_stop());
        thread::scope(|scope| {
            for _ in 1..workers {
                scope.spawn(|| {
                    while !world.stop_requested() {
                        thread::yield_now();
                    }
                    parked_before_resume.fetch_add(1, Ordering::SeqCst);
                    world.park(|| {
                        helped.fetch_add(1, Ordering::SeqCst);
                    });
                });
            }
            assert_eq!(world.wait_until_stopped(), workers - 1);
            assert_eq!(parked_before_resume.load(Ordering::SeqCst), workers - 1);
            assert_eq!(world.open_marking(2, |helpers| assert_eq!(helpers, 2)), 2);
            world.wait_for_helpers();
            assert_eq!(helped.load(Ordering::SeqCst), 2, "exactly the helpers asked for");
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
        world.park(|| panic!("no cycle, no help"));
    }
}
