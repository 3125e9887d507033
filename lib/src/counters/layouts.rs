//! The seven counter layouts. Each keeps its timed loop inside its own `add_ones`, so the
//! loop is compiled for that layout alone (one virtual call per trial, none per increment).

use std::fmt::Debug;
use std::hint::black_box;
use std::mem::size_of;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use crossbeam_utils::CachePadded;

use super::counter::Counter;
use super::spread::{LocalFlush, Striped};
use super::{Config, Layout};
use crate::arena::StridedSlots;
use crate::error::ConfigError;

/// Bytes one `CachePadded<AtomicU64>` occupies on this target: 128 on x86_64 and aarch64
/// (crossbeam's reasons: on x86_64 Intel's spatial prefetcher pulls lines in pairs; on aarch64
/// big.LITTLE designs, whose "big" cores have 128-byte lines).
///
/// ```
/// # use contention::counters::CACHE_PADDED_BYTES;
/// if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
///     assert_eq!(CACHE_PADDED_BYTES, 128);
/// }
/// assert!(CACHE_PADDED_BYTES >= 8 && CACHE_PADDED_BYTES.is_power_of_two());
/// ```
pub const CACHE_PADDED_BYTES: usize = size_of::<CachePadded<AtomicU64>>();

/// Article A's padding: each 8-byte shard padded to 128 bytes (`v int64; _pad [120]byte`).
pub const ARTICLE_PADDED_SHARD_BYTES: u64 = 128;
/// A compact shard: one 8-byte counter.
pub const COMPACT_SHARD_BYTES: u64 = 8;
/// Article A's counter: 8 shards (64 B compact, 1 024 B padded).
pub const ARTICLE_SHARDS: u64 = 8;

/// Bytes `counters` counters of `shards` shards take at `shard_bytes` each. For 100 000
/// connections: one 8-byte counter each, padded to 128 B, is 12.8 MB against 0.8 MB compact;
/// the article's 8-shard counter each is 102.4 MB against 6.4 MB (it printed "100 MB").
pub fn counters_memory_bytes(counters: u64, shards: u64, shard_bytes: u64) -> u64 {
    counters.saturating_mul(shards).saturating_mul(shard_bytes)
}

/// A value padded and aligned to 64 bytes, the line size of most x86 caches.
///
/// # Size and alignment
///
/// Always 64-byte aligned, and a multiple of 64 bytes long: an 8-byte counter fills one
/// 64-byte line alone, so neighbours in an array never share a 64-byte line.
///
/// ```
/// use std::mem::{align_of, size_of};
/// use std::sync::atomic::AtomicU64;
/// use contention::counters::Padded64;
///
/// assert_eq!(size_of::<Padded64<AtomicU64>>(), 64);
/// assert_eq!(align_of::<Padded64<AtomicU64>>(), 64);
/// assert_eq!(size_of::<Padded64<[u64; 9]>>(), 128);
/// ```
#[derive(Debug, Default)]
#[repr(C, align(64))]
pub struct Padded64<T>(pub T);

impl<T> Deref for Padded64<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Builds `layout` sized for `config` (its threads, stripes and flush interval).
pub fn build(layout: Layout, config: &Config) -> Result<Box<dyn Counter>, ConfigError> {
    let threads = config.threads;
    let padded = |n: usize| -> Box<[CachePadded<AtomicU64>]> { (0..n).map(|_| CachePadded::default()).collect() };
    Ok(match layout {
        Layout::Compact => {
            Box::new(Sharded { layout, shards: Compact { slots: StridedSlots::new(threads, 8)?, count: threads } })
        }
        Layout::Padded64 => {
            let shards: Box<[Padded64<AtomicU64>]> = (0..threads).map(|_| Padded64::default()).collect();
            Box::new(Sharded { layout, shards })
        }
        Layout::CachePadded => Box::new(Sharded { layout, shards: padded(threads) }),
        Layout::Mutex => Box::new(MutexCounter(Mutex::new(0))),
        Layout::SharedAtomic => Box::new(SharedAtomic(AtomicU64::new(0))),
        Layout::Striped => Box::new(Striped { cells: padded(config.stripes) }),
        Layout::LocalFlush => {
            Box::new(LocalFlush { shared: AtomicU64::new(0), flush_every: config.flush_every, threads })
        }
    })
}

/// A sharded layout of the shard-count sweep (article A's first wrong turn): `shards`
/// counters, compact or padded to [`CACHE_PADDED_BYTES`], whatever the thread count; worker
/// `i` adds to shard `i mod shards`. `None` for a layout that is not an array of shards.
pub fn build_shards(layout: Layout, shards: usize) -> Result<Option<Box<dyn Counter>>, ConfigError> {
    Ok(match layout {
        Layout::Compact => {
            let slots = StridedSlots::new(shards, 8)?;
            Some(Box::new(Sharded { layout, shards: Compact { slots, count: shards } }))
        }
        Layout::CachePadded => {
            let cells: Box<[CachePadded<AtomicU64>]> = (0..shards).map(|_| CachePadded::default()).collect();
            Some(Box::new(Sharded { layout, shards: cells }))
        }
        _ => None,
    })
}

/// One 64-bit atomic per worker, in some memory layout.
pub trait Shards: Sync + Debug {
    fn shard(&self, index: usize) -> &AtomicU64;
    fn count(&self) -> usize;
    /// Bytes per shard: the distance between neighbours.
    fn shard_bytes(&self) -> usize;
}

/// The compact array: page-aligned (so where lines split it is the same on every run),
/// neighbours 8 bytes apart.
#[derive(Debug)]
struct Compact {
    slots: StridedSlots,
    count: usize,
}

impl Shards for Compact {
    fn shard(&self, index: usize) -> &AtomicU64 {
        self.slots.slot(index)
    }
    fn count(&self) -> usize {
        self.count
    }
    fn shard_bytes(&self) -> usize {
        size_of::<AtomicU64>()
    }
}

impl<P: Deref<Target = AtomicU64> + Sync + Debug> Shards for Box<[P]> {
    fn shard(&self, index: usize) -> &AtomicU64 {
        &self[index]
    }
    fn count(&self) -> usize {
        self.len()
    }
    fn shard_bytes(&self) -> usize {
        size_of::<P>()
    }
}

/// Worker `i` adds to shard `i` (`i mod shards` when there are fewer shards than workers);
/// the total is the sum of the shards (the article's sharded counter).
#[derive(Debug)]
struct Sharded<S> {
    layout: Layout,
    shards: S,
}

impl<S: Shards> Counter for Sharded<S> {
    fn layout(&self) -> Layout {
        self.layout
    }
    /// Timed loop: one atomic add per iteration on this worker's own shard.
    fn add_ones(&self, worker: usize, count: u64) {
        let shard = black_box(self.shards.shard(worker % self.shards.count().max(1)));
        for _ in 0..black_box(count) {
            shard.fetch_add(1, Ordering::Relaxed);
        }
    }
    fn read(&self) -> u64 {
        (0..self.shards.count()).map(|index| self.shards.shard(index).load(Ordering::Acquire)).sum()
    }
    fn reset(&self) {
        (0..self.shards.count()).for_each(|index| self.shards.shard(index).store(0, Ordering::Release));
    }
    fn cells(&self) -> usize {
        self.shards.count()
    }
    fn bytes_used(&self) -> usize {
        self.shards.count() * self.shards.shard_bytes()
    }
}

#[derive(Debug)]
struct MutexCounter(Mutex<i64>);

impl Counter for MutexCounter {
    fn layout(&self) -> Layout {
        Layout::Mutex
    }
    /// Timed loop: lock, add 1, unlock, per iteration.
    fn add_ones(&self, _worker: usize, count: u64) {
        let mutex = black_box(&self.0);
        for _ in 0..black_box(count) {
            *mutex.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        }
    }
    fn read(&self) -> u64 {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) as u64
    }
    fn reset(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = 0;
    }
    fn cells(&self) -> usize {
        1
    }
    fn bytes_used(&self) -> usize {
        size_of::<Mutex<i64>>()
    }
}

#[derive(Debug)]
struct SharedAtomic(AtomicU64);

impl Counter for SharedAtomic {
    fn layout(&self) -> Layout {
        Layout::SharedAtomic
    }
    /// Timed loop: one atomic add per iteration, every thread on the same atomic.
    fn add_ones(&self, _worker: usize, count: u64) {
        let shared = black_box(&self.0);
        for _ in 0..black_box(count) {
            shared.fetch_add(1, Ordering::Relaxed);
        }
    }
    fn read(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
    fn reset(&self) {
        self.0.store(0, Ordering::Release);
    }
    fn cells(&self) -> usize {
        1
    }
    fn bytes_used(&self) -> usize {
        size_of::<AtomicU64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::{format_bytes, EXTRAPOLATED_COUNTERS};

    #[test]
    fn the_articles_memory_figures_are_these_products() {
        let bytes = |shards, shard_bytes| counters_memory_bytes(EXTRAPOLATED_COUNTERS, shards, shard_bytes);
        // One 8-byte counter per connection, padded to 128 B or compact.
        assert_eq!(format_bytes(bytes(1, ARTICLE_PADDED_SHARD_BYTES)), "12.8 MB");
        assert_eq!(bytes(1, COMPACT_SHARD_BYTES), 800_000);
        // The article's 8-shard counter per connection: 1 024 B padded, 64 B compact.
        assert_eq!(format_bytes(bytes(ARTICLE_SHARDS, ARTICLE_PADDED_SHARD_BYTES)), "102.4 MB");
        assert_eq!(format_bytes(bytes(ARTICLE_SHARDS, COMPACT_SHARD_BYTES)), "6.4 MB");
        assert_eq!(counters_memory_bytes(u64::MAX, 2, 8), u64::MAX);
    }
}
