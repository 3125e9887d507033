//! The managed heap: spans of memory that workers fill with real objects, and the
//! accounting the pacer and the verification rely on.
//!
//! Like Go's allocator, each worker allocates from its own span (bump allocation, no lock)
//! and takes a new span from the heap when the current one is full: that is when the heap
//! counts the bytes, checks the pacer's trigger and the ceiling, and can refuse (then the
//! worker starts a collection). Every object carries an 8-byte header (size and a check
//! word) so the sweep can walk a span object by object. All per-operation objects are
//! garbage once their operation ends; a sweep counts them and returns the span to the
//! heap's free list, where the next worker reuses its memory.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Usual span size: room for about 25 operations of 2.5 KB.
pub const SPAN_BYTES: u64 = 64 << 10;
/// Size and check word in front of every object.
pub const HEADER_BYTES: u64 = 8;
const HEADER_CHECK: u32 = 0x6763_6f62; // "gcob"

/// The span size for operations of `alloc_per_op_bytes` in `objects` objects: one whole
/// operation always fits in a span.
pub fn span_bytes_for(alloc_per_op_bytes: u64, objects: u32) -> u64 {
    let per_op = alloc_per_op_bytes.saturating_add(u64::from(objects) * HEADER_BYTES);
    SPAN_BYTES.max(per_op.next_multiple_of(4096))
}

/// Objects and payload bytes, as allocated or as found by a sweep.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObjectCount {
    pub objects: u64,
    pub bytes: u64,
}

impl std::ops::AddAssign for ObjectCount {
    fn add_assign(&mut self, other: Self) {
        self.objects += other.objects;
        self.bytes += other.bytes;
    }
}

/// A run of memory that one worker bump-allocates objects from.
#[derive(Debug)]
pub struct Span {
    memory: Box<[u8]>,
    used: usize,
}

impl Span {
    fn new(bytes: u64) -> Self {
        Self { memory: vec![0; bytes as usize].into_boxed_slice(), used: 0 }
    }

    pub fn room(&self) -> usize {
        self.memory.len() - self.used
    }

    /// Allocates an object of `size` bytes and returns its payload.
    ///
    /// # Panics
    /// When the span has no room: callers check [`room`](Self::room) before an operation.
    pub fn allocate(&mut self, size: usize) -> &mut [u8] {
        let start = self.used;
        let payload = start + HEADER_BYTES as usize;
        assert!(payload + size <= self.memory.len(), "object of {size} bytes does not fit the span");
        self.memory[start..start + 4].copy_from_slice(&(size as u32).to_le_bytes());
        self.memory[start + 4..payload].copy_from_slice(&HEADER_CHECK.to_le_bytes());
        self.used = payload + size;
        &mut self.memory[payload..self.used]
    }

    /// Walks the span object by object, counts what it holds and frees it all (no object
    /// in a span is ever reachable from the live graph). `None` when a header is damaged.
    fn sweep(&mut self) -> Option<ObjectCount> {
        let mut count = ObjectCount::default();
        let mut offset = 0;
        while offset < self.used {
            let header = self.memory.get(offset..offset + HEADER_BYTES as usize)?;
            let size = u32::from_le_bytes(header[..4].try_into().ok()?) as usize;
            if u32::from_le_bytes(header[4..].try_into().ok()?) != HEADER_CHECK {
                return None;
            }
            count += ObjectCount { objects: 1, bytes: size as u64 };
            offset += HEADER_BYTES as usize + size;
        }
        (offset == self.used).then(|| {
            self.used = 0;
            count
        })
    }
}

/// The heap's sizes for one trial.
#[derive(Debug, Clone, Copy)]
pub struct HeapLimits {
    pub live_bytes: u64,
    /// Span bytes that may be taken between cycles (from the pacer).
    pub trigger_bytes: u64,
    pub ceiling_bytes: u64,
    pub span_bytes: u64,
    /// The ceiling, not the ratio, set the trigger (ratio `off`, or a ratio too large).
    pub trigger_from_ceiling: bool,
}

#[derive(Debug, Default)]
struct Spans {
    free: Vec<Span>,
    /// Spans handed back by workers, full of garbage, waiting for the next sweep.
    unswept: Vec<Span>,
    /// Span bytes handed to workers since the last cycle.
    taken_since_cycle: u64,
    /// Span memory the heap holds (in use, unswept or free).
    held_bytes: u64,
    peak_held_bytes: u64,
}

#[derive(Debug)]
pub struct Heap {
    limits: HeapLimits,
    spans: Mutex<Spans>,
}

/// What one sweep (or the final accounting) found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepResult {
    pub freed: ObjectCount,
    /// Spans whose headers did not add up: heap damage, fails the trial.
    pub damaged_spans: u64,
}

impl Heap {
    pub fn new(limits: HeapLimits) -> Self {
        Self { limits, spans: Mutex::new(Spans::default()) }
    }

    fn spans(&self) -> MutexGuard<'_, Spans> {
        self.spans.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A span for a worker, or `None` when the pacer says a cycle must run first. The first
    /// span after a cycle is always granted, so every cycle lets work proceed; the ceiling
    /// holds because `live + span <= ceiling` (checked by the config) and the trigger never
    /// exceeds `ceiling - live`.
    pub fn take_span(&self) -> Option<Span> {
        let limits = self.limits;
        let mut spans = self.spans();
        let first = spans.taken_since_cycle == 0;
        if !first && spans.taken_since_cycle + limits.span_bytes > limits.trigger_bytes {
            return None;
        }
        spans.taken_since_cycle += limits.span_bytes;
        let span = match spans.free.pop() {
            Some(span) => span,
            None => {
                spans.held_bytes += limits.span_bytes;
                spans.peak_held_bytes = spans.peak_held_bytes.max(spans.held_bytes);
                Span::new(limits.span_bytes)
            }
        };
        Some(span)
    }

    /// Takes back a worker's span, full of garbage, for the next sweep.
    pub fn hand_back(&self, span: Span) {
        self.spans().unswept.push(span);
    }

    /// Sweeps every handed-back span onto the free list and starts a new pacing period.
    /// Called with the world stopped (or after the trial, for the final accounting).
    pub fn sweep(&self) -> SweepResult {
        let mut spans = self.spans();
        let mut result = SweepResult::default();
        let unswept = std::mem::take(&mut spans.unswept);
        for mut span in unswept {
            match span.sweep() {
                Some(count) => result.freed += count,
                None => result.damaged_spans += 1,
            }
            spans.free.push(span);
        }
        spans.taken_since_cycle = 0;
        result
    }

    /// The most memory the heap held at once: the live graph plus every span.
    pub fn peak_bytes(&self) -> u64 {
        self.limits.live_bytes + self.spans().peak_held_bytes
    }

    pub fn limits(&self) -> HeapLimits {
        self.limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(trigger_bytes: u64) -> HeapLimits {
        HeapLimits {
            live_bytes: 0,
            trigger_bytes,
            ceiling_bytes: 1 << 20,
            span_bytes: SPAN_BYTES,
            trigger_from_ceiling: false,
        }
    }

    #[test]
    fn sweep_counts_every_object_allocated() {
        let heap = Heap::new(limits(1 << 20));
        let mut span = heap.take_span().unwrap();
        for size in [1, 40, 100] {
            span.allocate(size).fill(0xAB);
        }
        heap.hand_back(span);
        let result = heap.sweep();
        assert_eq!(result, SweepResult { freed: ObjectCount { objects: 3, bytes: 141 }, damaged_spans: 0 });
        // The swept span is reused, empty.
        assert_eq!(heap.take_span().unwrap().room(), SPAN_BYTES as usize);
        assert_eq!(heap.peak_bytes(), SPAN_BYTES);
    }

    #[test]
    fn trigger_refuses_spans_until_a_sweep() {
        let heap = Heap::new(limits(3 * SPAN_BYTES));
        let taken: Vec<Span> = (0..3).map(|_| heap.take_span().unwrap()).collect();
        assert!(heap.take_span().is_none());
        taken.into_iter().for_each(|span| heap.hand_back(span));
        heap.sweep();
        assert!(heap.take_span().is_some());
        assert_eq!(heap.peak_bytes(), 3 * SPAN_BYTES);
    }

    #[test]
    fn first_span_after_a_cycle_is_granted_even_below_one_span() {
        let heap = Heap::new(limits(100));
        assert!(heap.take_span().is_some());
        assert!(heap.take_span().is_none());
    }

    #[test]
    fn damaged_header_is_reported() {
        let heap = Heap::new(limits(1 << 20));
        let mut span = heap.take_span().unwrap();
        span.allocate(16);
        span.memory[5] ^= 0xFF;
        heap.hand_back(span);
        assert_eq!(heap.sweep().damaged_spans, 1);
    }

    #[test]
    fn span_holds_at_least_one_operation() {
        assert_eq!(span_bytes_for(2560, 34), SPAN_BYTES);
        assert_eq!(span_bytes_for(1 << 20, 1), (1 << 20) + 4096);
    }
}
