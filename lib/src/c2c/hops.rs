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
        let mut turns = Turns::INITIATOR;
        for _ in 0..samples {
            timings.push(self.initiate_sample::<false>(&mut turns, round_trips));
        }
        black_box(timings)
    }

    /// The responder: answers every turn of [`Flags::initiate`]'s samples, in the same order.
    #[inline(never)]
    pub fn respond(&self, round_trips: u64, samples: usize) {
        let mut turns = Turns::RESPONDER;
        for _ in 0..samples {
            self.respond_sample::<false>(&mut turns, round_trips);
        }
    }

    /// One sample of the initiator's: `round_trips` by compare-and-swap, then as many by
    /// handshake. `YIELDING` threads (unpinned, so perhaps on one CPU) yield after a long
    /// wait, so the other side can take its turn.
    #[inline(never)]
    pub fn initiate_sample<const YIELDING: bool>(&self, turns: &mut Turns, round_trips: u64) -> SampleNs {
        let start = Instant::now();
        turns.cas = cas_turns::<YIELDING>(&self.cas, turns.cas, round_trips);
        // The responder's last answer closes the sample: 2 x round_trips hops in all.
        let mut spins = 0;
        while self.cas.compare_exchange(turns.cas, turns.cas, Ordering::AcqRel, Ordering::Relaxed).is_err() {
            waited::<YIELDING>(&mut spins);
        }
        let cas = start.elapsed().as_nanos() as u64;
        let start = Instant::now();
        turns.handshake = initiate_handshake::<YIELDING>(&self.handshake, turns.handshake, round_trips);
        SampleNs { cas, handshake: start.elapsed().as_nanos() as u64 }
    }

    /// One sample of the responder's, answering [`Flags::initiate_sample`].
    #[inline(never)]
    pub fn respond_sample<const YIELDING: bool>(&self, turns: &mut Turns, round_trips: u64) {
        turns.cas = cas_turns::<YIELDING>(&self.cas, turns.cas, round_trips);
        turns.handshake = respond_handshake::<YIELDING>(&self.handshake, turns.handshake, round_trips);
    }
}

/// Where one side stands on each flag: the value its next turn waits for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Turns {
    cas: u64,
    handshake: u64,
}

impl Turns {
    pub const INITIATOR: Self = Self { cas: 0, handshake: 0 };
    pub const RESPONDER: Self = Self { cas: 1, handshake: 1 };
}

/// Failed tries before a yielding thread yields: far more than a transfer takes (tens to a
/// few hundred ns a try), far less than a time slice.
const SPINS_BEFORE_YIELD: u32 = 1 << 10;

/// Counts one failed try; a `YIELDING` thread yields after [`SPINS_BEFORE_YIELD`] of them.
/// Compiled away where `YIELDING` is false (the pinned method).
#[inline(always)]
fn waited<const YIELDING: bool>(spins: &mut u32) {
    if YIELDING {
        *spins += 1;
        if *spins >= SPINS_BEFORE_YIELD {
            *spins = 0;
            std::thread::yield_now();
        }
    }
}

/// `turns` turns of one side of the ping-pong from `turn`: wait for the flag to hold the
/// turn's value and bump it in one read-modify-write. Returns the side's next turn.
#[inline(never)]
fn cas_turns<const YIELDING: bool>(flag: &AtomicU64, mut turn: u64, turns: u64) -> u64 {
    let mut spins = 0;
    for _ in 0..black_box(turns) {
        while flag.compare_exchange(turn, turn + 1, Ordering::AcqRel, Ordering::Relaxed).is_err() {
            waited::<YIELDING>(&mut spins);
        }
        turn += 2;
    }
    turn
}

/// The initiator's handshake: writes the odd value, waits for the even answer.
#[inline(never)]
fn initiate_handshake<const YIELDING: bool>(flag: &AtomicU64, mut value: u64, round_trips: u64) -> u64 {
    let mut spins = 0;
    for _ in 0..black_box(round_trips) {
        flag.store(value + 1, Ordering::Release);
        value += 2;
        while flag.load(Ordering::Acquire) != value {
            waited::<YIELDING>(&mut spins);
        }
    }
    value
}

/// The responder's handshake: answers each odd value with the next even one.
#[inline(never)]
fn respond_handshake<const YIELDING: bool>(flag: &AtomicU64, mut awaited: u64, round_trips: u64) -> u64 {
    let mut spins = 0;
    for _ in 0..black_box(round_trips) {
        while flag.load(Ordering::Acquire) != awaited {
            waited::<YIELDING>(&mut spins);
        }
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
