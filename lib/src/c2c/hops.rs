//! The two timed loops of a pair, on two flags each on its own cache line. No `spin_loop`
//! hint in either: a pause instruction can cost more than the transfer being measured.
//!
//! - **Compare-and-swap ping-pong**, the way the standard tools measure it
//!   (core-to-core-latency's `cas` bench): each side spins on `compare_exchange` until the
//!   flag holds its turn's value and bumps it, so every hop takes the line exclusive in one
//!   transfer.
//! - **Handshake**: each side spins on a load until it sees its turn's value, then stores
//!   the next one, so every hop pays a shared read and then an upgrade to exclusive.
//!
//! Either way the flag counts hops: after `n` round trips it holds `2n`, which
//! [`Flags::hops`] returns for the caller to verify that no hop was lost.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crossbeam_utils::CachePadded;

use crate::harness::MAX_PREALLOCATED_ROWS;

/// One sample's two timings of the same number of round trips.
#[derive(Debug, Clone, Copy)]
pub(super) struct SampleNs {
    pub cas: u64,
    pub handshake: u64,
}

/// The pair's flags, padded so neither shares a line with the other or with anything else.
#[derive(Default)]
pub(super) struct Flags {
    cas: CachePadded<AtomicU64>,
    handshake: CachePadded<AtomicU64>,
}

impl Flags {
    /// The hops each flag counted: (compare-and-swap, handshake).
    pub fn hops(&self) -> (u64, u64) {
        (self.cas.load(Ordering::Acquire), self.handshake.load(Ordering::Acquire))
    }

    /// The initiator: each sample times `round_trips` by compare-and-swap, then as many by
    /// handshake.
    #[inline(never)]
    pub fn initiate(&self, round_trips: u64, samples: usize) -> Vec<SampleNs> {
        let mut timings = Vec::with_capacity(samples.min(MAX_PREALLOCATED_ROWS));
        let (mut cas_turn, mut handshake_turn) = (0u64, 0u64);
        for _ in 0..samples {
            let start = Instant::now();
            cas_turn = cas_turns(&self.cas, cas_turn, round_trips);
            // The responder's last answer closes the sample: 2 x round_trips hops in all.
            while self.cas.compare_exchange(cas_turn, cas_turn, Ordering::AcqRel, Ordering::Relaxed).is_err() {}
            let cas = start.elapsed().as_nanos() as u64;
            let start = Instant::now();
            handshake_turn = initiate_handshake(&self.handshake, handshake_turn, round_trips);
            timings.push(SampleNs { cas, handshake: start.elapsed().as_nanos() as u64 });
        }
        black_box(timings)
    }

    /// The responder: answers every turn of [`Flags::initiate`]'s samples, in the same order.
    #[inline(never)]
    pub fn respond(&self, round_trips: u64, samples: usize) {
        let (mut cas_turn, mut handshake_turn) = (1u64, 1u64);
        for _ in 0..samples {
            cas_turn = cas_turns(&self.cas, cas_turn, round_trips);
            handshake_turn = respond_handshake(&self.handshake, handshake_turn, round_trips);
        }
    }
}

/// `turns` turns of one side of the ping-pong from `turn`: wait for the flag to hold the
/// turn's value and bump it in one read-modify-write. Returns the side's next turn.
#[inline(never)]
fn cas_turns(flag: &AtomicU64, mut turn: u64, turns: u64) -> u64 {
    for _ in 0..black_box(turns) {
        while flag.compare_exchange(turn, turn + 1, Ordering::AcqRel, Ordering::Relaxed).is_err() {}
        turn += 2;
    }
    turn
}

/// The initiator's handshake: writes the odd value, waits for the even answer.
#[inline(never)]
fn initiate_handshake(flag: &AtomicU64, mut value: u64, round_trips: u64) -> u64 {
    for _ in 0..black_box(round_trips) {
        flag.store(value + 1, Ordering::Release);
        value += 2;
        while flag.load(Ordering::Acquire) != value {}
    }
    value
}

/// The responder's handshake: answers each odd value with the next even one.
#[inline(never)]
fn respond_handshake(flag: &AtomicU64, mut awaited: u64, round_trips: u64) -> u64 {
    for _ in 0..black_box(round_trips) {
        while flag.load(Ordering::Acquire) != awaited {}
        flag.store(awaited + 1, Ordering::Release);
        awaited += 2;
    }
    awaited
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_loops_count_every_hop_of_every_sample() {
        let flags = Flags::default();
        let timings = std::thread::scope(|scope| {
            scope.spawn(|| flags.respond(7, 3));
            flags.initiate(7, 3)
        });
        assert_eq!(timings.len(), 3);
        assert_eq!(flags.hops(), (2 * 7 * 3, 2 * 7 * 3));
    }
}
