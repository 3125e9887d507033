//! The service's real CPU work: a chain of hash rounds, calibrated on this machine so one
//! request costs the configured CPU time. The waits are simulated IO (see `arrivals`).

use std::hint::black_box;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Calibration keeps timing until one sample has used at least this much CPU, and at least
/// [`CLOCK_STEPS_PER_SAMPLE`] steps of the thread's CPU clock (Windows' steps by a tick of
/// about 15.6 ms, so a 20 ms sample could read as one step or two).
const CALIBRATION_SAMPLE_NS: u64 = 20_000_000;
const CLOCK_STEPS_PER_SAMPLE: u64 = 20;
const CALIBRATION_SAMPLES: usize = 5;

/// One multiply-xorshift round per step, each depending on the last (so the rounds cannot run
/// in parallel or be skipped): a stand-in for hashing a request's payload.
#[inline(never)]
pub fn hash_rounds(seed: u64, rounds: u64) -> u64 {
    let mut state = black_box(seed) | 1;
    for round in 0..black_box(rounds) {
        state = (state ^ round).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        state ^= state >> 29;
    }
    black_box(state)
}

/// The calibrated CPU work of one request.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CpuWork {
    /// Hash rounds per request.
    pub rounds: u64,
    /// Those rounds' CPU time as calibrated, in nanoseconds.
    pub ns: u64,
}

impl CpuWork {
    /// Does one request's CPU work; the result depends on `seed` so it cannot be hoisted.
    pub fn run(&self, seed: u64) -> u64 {
        hash_rounds(seed, self.rounds)
    }
}

/// Finds how many rounds cost `target` of CPU on this thread. Each sample doubles the rounds
/// until it has used [`CALIBRATION_SAMPLE_NS`] of this thread's CPU time (not wall time, so
/// being descheduled by a neighbour does not count); the median of five samples is kept.
pub fn calibrate(target: Duration) -> CpuWork {
    let long_enough = CALIBRATION_SAMPLE_NS.max(CLOCK_STEPS_PER_SAMPLE * clock_step_ns());
    let mut ns_per_round: Vec<f64> =
        (0..CALIBRATION_SAMPLES).map(|sample| sample_ns_per_round(sample as u64, long_enough)).collect();
    ns_per_round.sort_by(f64::total_cmp);
    let median = ns_per_round[ns_per_round.len() / 2];
    let rounds = ((target.as_nanos() as f64 / median).round() as u64).max(1);
    CpuWork { rounds, ns: (rounds as f64 * median).round() as u64 }
}

/// The smallest step of this thread's CPU clock, in nanoseconds: the clock read while
/// working until it moves twice (at most a second); 0 without a per-thread clock.
fn clock_step_ns() -> u64 {
    let Some(mut last) = thread_cpu_ns() else { return 0 };
    let started = std::time::Instant::now();
    let mut steps = Vec::new();
    while steps.len() < 2 && started.elapsed() < Duration::from_secs(1) {
        black_box(hash_rounds(last, 1000));
        let now = thread_cpu_ns().unwrap_or(last);
        if now > last {
            steps.push(now - last);
            last = now;
        }
    }
    steps.into_iter().max().unwrap_or(0)
}

/// Times `hash_rounds` on this thread's CPU clock (falling back to the wall clock where the
/// OS has no per-thread clock), doubling the rounds until the sample has used `long_enough`.
fn sample_ns_per_round(seed: u64, long_enough: u64) -> f64 {
    let mut rounds = 1024u64;
    loop {
        let before = thread_cpu_ns();
        let wall = std::time::Instant::now();
        black_box(hash_rounds(seed, rounds));
        let elapsed_ns = match (before, thread_cpu_ns()) {
            (Some(start), Some(end)) => end.saturating_sub(start),
            _ => wall.elapsed().as_nanos() as u64,
        };
        if elapsed_ns >= long_enough || rounds >= 1 << 40 {
            return elapsed_ns.max(1) as f64 / rounds as f64;
        }
        rounds *= 2;
    }
}

/// The calling thread's own CPU time, in nanoseconds, where the OS keeps a per-thread clock
/// (elsewhere the calibration falls back to wall time).
pub fn thread_cpu_ns() -> Option<u64> {
    crate::platform::thread_cpu_ns().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_rounds_depend_on_seed_and_rounds() {
        assert_ne!(hash_rounds(1, 100), hash_rounds(2, 100));
        assert_ne!(hash_rounds(1, 100), hash_rounds(1, 101));
        assert_eq!(hash_rounds(7, 1000), hash_rounds(7, 1000));
    }

    #[test]
    fn calibration_scales_rounds_to_the_target() {
        let short = calibrate(Duration::from_micros(100));
        assert!(short.rounds >= 1);
        // The recorded cost is rounds x the measured rate, so it is close to the target.
        assert!((short.ns as f64 - 100_000.0).abs() < 1_000.0, "calibrated {} ns", short.ns);
    }

    #[test]
    #[cfg_attr(feature = "platform-fallback", ignore = "the fallback has no thread CPU clock")]
    fn thread_cpu_clock_advances_with_work() {
        // Windows' clock steps by a scheduler tick: work until it moves, for at most 2 s.
        let before = thread_cpu_ns().expect("a per-thread CPU clock");
        let started = std::time::Instant::now();
        while thread_cpu_ns().expect("a per-thread CPU clock") == before && started.elapsed() < Duration::from_secs(2) {
            black_box(hash_rounds(3, 1_000_000));
        }
        assert!(thread_cpu_ns().expect("a per-thread CPU clock") > before, "2 s of work and the clock did not move");
        assert!(clock_step_ns() > 0);
    }
}
