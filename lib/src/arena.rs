//! Atomic counters placed at an exact byte distance from each other inside one
//! page-aligned allocation, so an experiment decides which counters share a cache line.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::hint::black_box;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{ConfigError, RunError};
use crate::fault;
use crate::harness::{run_team, TeamTiming};

/// Alignment of the allocation: a page, so slot 0 starts a cache line on every machine
/// (lines are 32 to 256 bytes) and the layout repeats identically across runs.
pub const ARENA_ALIGN_BYTES: usize = 4096;
/// The largest arena a sweep allocates: bounds `threads x largest stride`.
pub const MAX_ARENA_BYTES: usize = 1 << 20;

/// `count` 64-bit atomic slots, slot `i` at byte offset `i * stride_bytes`.
#[derive(Debug)]
pub struct StridedSlots {
    base: NonNull<u8>,
    layout: Layout,
    stride_bytes: usize,
    count: usize,
}

// SAFETY: the slots are only accessed as `AtomicU64`, which is Sync; the allocation is
// owned by this value and freed once in Drop.
unsafe impl Send for StridedSlots {}
// SAFETY: as above: shared access goes through atomics only.
unsafe impl Sync for StridedSlots {}

impl StridedSlots {
    /// Allocates zeroed slots. `stride_bytes` must be a positive multiple of 8 (an
    /// `AtomicU64` needs 8-byte alignment); `count` must be positive.
    pub fn new(count: usize, stride_bytes: usize) -> Result<Self, ConfigError> {
        if stride_bytes < 8 || stride_bytes % 8 != 0 {
            return Err(ConfigError::new("stride", stride_bytes, "a multiple of 8 bytes, at least 8"));
        }
        if count == 0 {
            return Err(ConfigError::new("threads", count, "at least 1"));
        }
        let bytes = count.checked_mul(stride_bytes).ok_or_else(|| {
            ConfigError::new("stride", stride_bytes, "small enough that threads x stride fits in memory")
        })?;
        let size = bytes.next_multiple_of(ARENA_ALIGN_BYTES);
        let layout = Layout::from_size_align(size, ARENA_ALIGN_BYTES)
            .map_err(|_| ConfigError::new("stride", stride_bytes, "small enough to allocate"))?;
        // SAFETY: the layout has a non-zero size (count and stride are positive).
        let raw = unsafe { alloc_zeroed(layout) };
        let base = NonNull::new(raw).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        Ok(Self { base, layout, stride_bytes, count })
    }

    /// The counter at `index`.
    ///
    /// # Panics
    /// When `index >= count`.
    pub fn slot(&self, index: usize) -> &AtomicU64 {
        assert!(index < self.count, "slot {index} of {}", self.count);
        // SAFETY: `index * stride_bytes < count * stride_bytes <= layout.size()`, the offset is
        // a multiple of 8 from a 4096-aligned base, and the memory was zeroed (a valid
        // AtomicU64). The reference lives no longer than `self`, which owns the allocation.
        unsafe { &*self.base.as_ptr().add(index * self.stride_bytes).cast::<AtomicU64>() }
    }

    /// The timed loop the false-sharing experiments share: `iters` relaxed atomic adds of 1
    /// to slot `index`, one `lock inc`/`lock xadd` (x86) or `ldadd` (arm64) per iteration.
    /// `black_box` keeps the compiler from reasoning about the slot or the count.
    #[inline(never)]
    pub fn add_ones(&self, index: usize, iters: u64) {
        let counter = black_box(self.slot(index));
        for _ in 0..black_box(iters) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// One verified trial: resets the slots, runs `threads` workers released together
    /// (worker `w` adds 1 to slot `slot_of(w)`, `iters` times; the harness counts what the
    /// kernel allows), and checks that the slots sum to `threads x iters`. A wrong sum is an
    /// error naming `case` and `trial`, never a dropped row.
    pub fn verified_trial(
        &self,
        experiment: &'static str,
        threads: usize,
        iters: u64,
        slot_of: impl Fn(usize) -> usize + Sync,
        case: impl FnOnce() -> String,
        trial: usize,
    ) -> Result<TeamTiming, RunError> {
        self.reset();
        let timing = run_team(experiment, threads, |worker| self.add_ones(slot_of(worker), iters))?;
        self.add_ones(0, fault::extra_increments());
        let expected = threads as u64 * iters;
        let actual = self.sum();
        if actual != expected {
            return Err(RunError::Verification { experiment, case: case(), trial, expected, actual });
        }
        Ok(timing)
    }

    /// Sum of all slots (read after the writers have been joined).
    pub fn sum(&self) -> u64 {
        (0..self.count).map(|index| self.slot(index).load(Ordering::Acquire)).sum()
    }

    /// Sets every slot back to zero between trials.
    pub fn reset(&self) {
        (0..self.count).for_each(|index| self.slot(index).store(0, Ordering::Release));
    }

    /// Address of slot 0 (tests check its alignment).
    pub fn base_address(&self) -> usize {
        self.base.as_ptr() as usize
    }

    /// Bytes the allocation occupies (rounded up to whole pages).
    pub fn allocated_bytes(&self) -> usize {
        self.layout.size()
    }
}

impl Drop for StridedSlots {
    fn drop(&mut self) {
        // SAFETY: `base` came from `alloc_zeroed` with exactly this layout and is freed once.
        unsafe { dealloc(self.base.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_sit_stride_apart_on_a_page_boundary() {
        let slots = StridedSlots::new(8, 64).unwrap();
        assert_eq!(slots.base_address() % ARENA_ALIGN_BYTES, 0);
        let distance = slots.slot(1) as *const AtomicU64 as usize - slots.slot(0) as *const AtomicU64 as usize;
        assert_eq!(distance, 64);
        assert_eq!(slots.allocated_bytes(), 4096);
    }

    #[test]
    fn bad_strides_and_counts_are_rejected() {
        let message = StridedSlots::new(2, 12).unwrap_err().to_string();
        assert_eq!(message, "invalid stride = 12: a multiple of 8 bytes, at least 8");
        assert!(StridedSlots::new(2, 0).is_err());
        assert!(StridedSlots::new(0, 8).is_err());
    }

    #[test]
    fn sum_and_reset() {
        let slots = StridedSlots::new(3, 8).unwrap();
        slots.slot(0).fetch_add(2, Ordering::Relaxed);
        slots.slot(2).fetch_add(5, Ordering::Relaxed);
        assert_eq!(slots.sum(), 7);
        slots.reset();
        assert_eq!(slots.sum(), 0);
    }
}
