//! The service's real CPU work: a chain of hash rounds, calibrated on this machine so one
//! request costs the configured CPU time. The waits are simulated IO (see `arrivals`).

use std::hint::black_box;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Calibration keeps timing until one sample has used at least this much CPU.
const CALIBRATION_SAMPLE_NS: u64 = 20_000_000;
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
    let mut ns_per_round: Vec<f64> =
        (0..CALIBRATION_SAMPLES).map(|sample| sample_ns_per_round(sample as u64)).collect();
    ns_per_round.sort_by(f64::total_cmp);
    let median = ns_per_round[ns_per_round.len() / 2];
    let rounds = ((target.as_nanos() as f64 / median).round() as u64).max(1);
    CpuWork { rounds, ns: (rounds as f64 * median).round() as u64 }
}

/// Times `hash_rounds` on this thread's CPU clock (falling back to the wall clock where the
/// OS has no per-thread clock), doubling the rounds until the sample is long enough.
fn sample_ns_per_round(seed: u64) -> f64 {
    let mut rounds = 1024u64;
    loop {
        let before = thread_cpu_ns();
        let wall = std::time::Instant::now();
        black_box(hash_rounds(seed, rounds));
        let elapsed_ns = match (before, thread_cpu_ns()) {
            (Some(start), Some(end)) => end.saturating_sub(start),
            _ => wall.elapsed().as_nanos() as u64,
        };
        if elapsed_ns >= CALIBRATION_SAMPLE_NS || rounds >= 1 << 40 {
            return elapsed_ns.max(1) as f64 / rounds as f64;
        }
        rounds *= 2;
    }
}

/// CPU time this thread has used, in nanoseconds (Linux; elsewhere unknown, and the
/// calibration falls back to wall time).
/// The calling thread's own CPU time, where the OS keeps a per-thread clock.
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
        let before = thread_cpu_ns().expect("a per-thread CPU clock");
        black_box(hash_rounds(3, 5_000_000));
        assert!(thread_cpu_ns().expect("a per-thread CPU clock") > before);
    }
}
