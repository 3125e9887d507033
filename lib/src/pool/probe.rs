//! What one context switch costs here: two threads hand a token back and forth, so every
//! hand-over puts one thread to sleep and wakes the other. The pool runs turn switches per
//! second into "CPU spent switching" with this cost; the pool runs one probe before each run
//! of a case, so its samples spread over the whole experiment.
//!
//! # Timing model
//!
//! Both threads are pinned to the same logical CPU, so each hand-over is a real switch on
//! that CPU (the waker makes the sleeper runnable, then blocks itself) rather than two CPUs
//! spinning. The hand-over is `Thread::unpark` / `thread::park` (a futex on Linux) on a
//! shared turn counter. One trial times `round_trips` round trips on the slower thread's
//! clock; a round trip is two switches. Thread start-up falls inside that clock, which is
//! why a trial is thousands of round trips. The process's switch counters are read around
//! the trial to show that the switches really happened.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread::{self, Thread};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::metrics::ProcessUsage;
use crate::error::RunError;
use crate::pool::EXPERIMENT;

/// One probe trial.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ProbeSample {
    pub ns_per_switch: f64,
    /// Hand-overs timed (two per round trip).
    pub switches_timed: u64,
    /// Switches the process counted meanwhile (about `switches_timed`; a waker preempted by
    /// the thread it woke shows as one involuntary switch instead of a voluntary one); `None`
    /// where the OS counts none (Windows).
    pub switches_counted: Option<u64>,
    /// Both threads ran pinned to one CPU.
    pub pinned: bool,
}

/// Runs one trial of `round_trips` round trips.
pub fn switch_cost(round_trips: u64) -> Result<ProbeSample, RunError> {
    let turn = AtomicU64::new(0);
    let handles: [OnceLock<Thread>; 2] = [OnceLock::new(), OnceLock::new()];
    let cpu = crate::platform::available_cpu_ids().first().copied();
    let before = ProcessUsage::now();
    let results = thread::scope(|scope| {
        let players: Vec<_> = (0..2u64)
            .map(|player| {
                let (turn, handles) = (&turn, &handles);
                thread::Builder::new().name(format!("{EXPERIMENT}-probe-{player}")).spawn_scoped(scope, move || {
                    let pinned = cpu.is_some_and(|cpu| crate::platform::pin_current_thread(cpu).is_ok());
                    let _ = handles[player as usize].set(thread::current());
                    let started = Instant::now();
                    play(turn, handles, player, round_trips);
                    (pinned, started.elapsed())
                })
            })
            .collect();
        players
            .into_iter()
            .map(|spawned| {
                let handle = spawned.map_err(|source| RunError::Spawn { experiment: EXPERIMENT, source })?;
                handle.join().map_err(|_| RunError::WorkerPanicked { experiment: EXPERIMENT })
            })
            .collect::<Result<Vec<_>, RunError>>()
    })?;
    let counted = ProcessUsage::now().zip(before).map(|(after, before)| {
        let used = after.since(&before);
        used.voluntary_switches + used.involuntary_switches
    });
    let elapsed = results.iter().map(|&(_, elapsed)| elapsed).max().unwrap_or_default();
    let switches = 2 * round_trips;
    Ok(ProbeSample {
        ns_per_switch: elapsed.as_nanos() as f64 / switches as f64,
        switches_timed: switches,
        switches_counted: counted,
        pinned: results.iter().all(|&(pinned, _)| pinned),
    })
}

/// The timed loop: player 0 moves on even turns, player 1 on odd ones; each move passes the
/// turn and wakes the other player, then sleeps until the turn comes back.
fn play(turn: &AtomicU64, handles: &[OnceLock<Thread>; 2], player: u64, round_trips: u64) {
    let other = &handles[1 - player as usize];
    for round in 0..round_trips {
        let mine = 2 * round + player;
        while turn.load(Ordering::Acquire) != mine {
            thread::park();
        }
        turn.store(mine + 1, Ordering::Release);
        // The other player may not have registered yet on the first move: wait for it.
        let other = loop {
            match other.get() {
                Some(thread) => break thread,
                None => thread::yield_now(),
            }
        };
        other.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_hands_the_token_over_and_counts_switches() {
        let sample = switch_cost(500).expect("probe");
        assert_eq!(sample.switches_timed, 1000);
        assert!(sample.ns_per_switch > 0.0 && sample.ns_per_switch.is_finite());
        // A sleeping hand-over is a voluntary switch; spurious wake-ups only add more.
        if let (true, Some(counted)) = (sample.pinned, sample.switches_counted) {
            assert!(counted >= 500, "counted {counted}");
        }
    }
}
