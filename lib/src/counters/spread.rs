//! The two layouts that spread writes instead of padding per-thread shards: a striped
//! counter in the manner of Java's `LongAdder`, and per-thread local counts flushed to one
//! shared atomic now and then.

use std::hint::black_box;
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_utils::CachePadded;

use super::counter::Counter;
use super::Layout;

/// Padded cells; a thread starts on the cell its probe picks and, whenever its
/// compare-and-swap loses to another thread, moves its probe to another cell (as
/// `LongAdder` rehashes its per-thread probe on contention). The value is the sum of the
/// cells, exact once the writers have been joined (like `LongAdder::sum`, not a snapshot
/// while they run). Unlike `LongAdder` there is no uncontended `base` field tried first and
/// the cell count is fixed, not grown.
#[derive(Debug)]
pub(super) struct Striped {
    pub(super) cells: Box<[CachePadded<AtomicU64>]>,
}

/// splitmix64's finaliser: spreads worker numbers into unrelated probes, as `LongAdder`'s
/// per-thread random probe does, so two threads may start on the same cell.
fn first_probe(worker: usize) -> u64 {
    let mut z = (worker as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) | 1
}

/// Marsaglia's xorshift64, the step `LongAdder` uses to move a probe after a collision.
fn next_probe(mut probe: u64) -> u64 {
    probe ^= probe << 13;
    probe ^= probe >> 7;
    probe ^= probe << 17;
    probe
}

impl Counter for Striped {
    fn layout(&self) -> Layout {
        Layout::Striped
    }
    /// Timed loop: per iteration one load and one compare-and-swap on the current cell;
    /// a lost race moves the probe (the modulo is paid only then).
    fn add_ones(&self, worker: usize, count: u64) {
        let cells = black_box(&self.cells[..]);
        let mut probe = first_probe(worker);
        let mut cell = &cells[(probe % cells.len() as u64) as usize];
        for _ in 0..black_box(count) {
            loop {
                let seen = cell.load(Ordering::Relaxed);
                if cell.compare_exchange_weak(seen, seen + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
                    break;
                }
                probe = next_probe(probe);
                cell = &cells[(probe % cells.len() as u64) as usize];
            }
        }
    }
    fn read(&self) -> u64 {
        self.cells.iter().map(|cell| cell.load(Ordering::Acquire)).sum()
    }
    fn reset(&self) {
        self.cells.iter().for_each(|cell| cell.store(0, Ordering::Release));
    }
    fn cells(&self) -> usize {
        self.cells.len()
    }
    fn bytes_used(&self) -> usize {
        self.cells.len() * size_of::<CachePadded<AtomicU64>>()
    }
}

/// Each thread counts in a plain local variable and adds it to one shared atomic every
/// `flush_every` increments; whatever is left when it finishes is added at the end, so the
/// shared value is exact once the writers have been joined (and lags by less than
/// `threads x flush_every` while they run).
#[derive(Debug)]
pub(super) struct LocalFlush {
    pub(super) shared: AtomicU64,
    pub(super) flush_every: u64,
    pub(super) threads: usize,
}

impl LocalFlush {
    /// Adds 1, `count` times, flushing every `flush_every`; returns the remainder it had to
    /// flush at the end (tests check it was flushed).
    pub(super) fn add_ones_with_remainder(&self, count: u64) -> u64 {
        let shared = black_box(&self.shared);
        let flush_every = black_box(self.flush_every);
        let mut local = 0u64;
        for _ in 0..black_box(count) {
            // `black_box(1)` keeps each increment a real add: without it the compiler
            // could replace the loop with arithmetic on `count`.
            local += black_box(1);
            if local == flush_every {
                shared.fetch_add(local, Ordering::Relaxed);
                local = 0;
            }
        }
        shared.fetch_add(local, Ordering::Relaxed);
        local
    }
}

impl Counter for LocalFlush {
    fn layout(&self) -> Layout {
        Layout::LocalFlush
    }
    /// Timed loop: one register add and one compare per iteration, one atomic add per
    /// `flush_every` iterations, and one for the remainder.
    fn add_ones(&self, _worker: usize, count: u64) {
        black_box(self.add_ones_with_remainder(count));
    }
    fn read(&self) -> u64 {
        self.shared.load(Ordering::Acquire)
    }
    fn reset(&self) {
        self.shared.store(0, Ordering::Release);
    }
    /// The shared atomic and one local count per thread.
    fn cells(&self) -> usize {
        1 + self.threads
    }
    /// Every thread's local count is memory this layout needs too (a register or a stack
    /// slot per thread, per counter).
    fn bytes_used(&self) -> usize {
        (1 + self.threads) * size_of::<u64>()
    }
    fn increments_per_write(&self) -> u64 {
        self.flush_every
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_flush_adds_its_remainder_at_the_end() {
        let counter = LocalFlush { shared: AtomicU64::new(0), flush_every: 1024, threads: 1 };
        let remainder = counter.add_ones_with_remainder(2500);
        assert_eq!(remainder, 2500 - 2 * 1024);
        assert_eq!(counter.read(), 2500);
    }

    #[test]
    fn local_flush_with_an_exact_multiple_leaves_no_remainder() {
        let counter = LocalFlush { shared: AtomicU64::new(0), flush_every: 100, threads: 1 };
        assert_eq!(counter.add_ones_with_remainder(300), 0);
        assert_eq!(counter.read(), 300);
    }

    #[test]
    fn probes_stay_nonzero_and_move() {
        for worker in 0..64 {
            let probe = first_probe(worker);
            assert_ne!(probe, 0);
            assert_ne!(next_probe(probe), probe);
            assert_ne!(next_probe(probe), 0);
        }
    }

    #[test]
    fn striped_cells_are_padded_apart() {
        let striped = Striped { cells: (0..4).map(|_| CachePadded::default()).collect() };
        let distance =
            &*striped.cells[1] as *const AtomicU64 as usize - &*striped.cells[0] as *const AtomicU64 as usize;
        assert_eq!(distance, size_of::<CachePadded<AtomicU64>>());
        assert_eq!(striped.bytes_used(), 4 * size_of::<CachePadded<AtomicU64>>());
    }
}
