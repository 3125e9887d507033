//! How fine the clock every trial reads is: the smallest step `Instant::now` shows between
//! two reads in a row. A trial lasts at least [`super::MIN_TRIAL_TIME`], so a clock that
//! steps by microseconds (some VMs, an old hardware timer) costs it precision long before it
//! costs it correctness; the laptop check says which this machine has.

use std::time::Instant;

/// What `reads` reads of the clock in a row showed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClockResolution {
    /// The smallest non-zero step between two reads, in nanoseconds (`None`: the clock
    /// never moved while it was read).
    pub smallest_step_ns: Option<u64>,
    /// The mean cost of one read, in nanoseconds.
    pub read_cost_ns: f64,
}

/// Reads the clock `reads` times in a row (at least 2).
pub fn clock_resolution(reads: usize) -> ClockResolution {
    let reads = reads.max(2);
    let first = Instant::now();
    let mut previous = first;
    let mut smallest: Option<u64> = None;
    for _ in 1..reads {
        let now = Instant::now();
        let step = u64::try_from(now.duration_since(previous).as_nanos()).unwrap_or(u64::MAX);
        if step > 0 {
            smallest = Some(smallest.map_or(step, |smallest| smallest.min(step)));
        }
        previous = now;
    }
    let total_ns = previous.duration_since(first).as_nanos() as f64;
    ClockResolution { smallest_step_ns: smallest, read_cost_ns: total_ns / (reads - 1) as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_moves_within_a_hundred_thousand_reads() {
        let resolution = clock_resolution(100_000);
        assert!(resolution.smallest_step_ns.is_some_and(|step| step > 0), "{resolution:?}");
        assert!(resolution.read_cost_ns > 0.0, "{resolution:?}");
    }
}
