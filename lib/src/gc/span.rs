//! A span: a small run of memory (8 KiB, Go's page size for small objects) that one worker
//! bump-allocates objects from until it is full, then hands back to the central heap.
//!
//! Every object carries an 8-byte header (size and a check word) so a sweep can walk the
//! span object by object. A sweep frees every object a cycle did not mark. Objects of an
//! operation still under way when the world stopped are marked from the worker's roots;
//! they always form the tail of the span (one worker fills a span, in order), so a mark is
//! one offset, `live_from`, and a span with survivors waits for a later sweep.

/// Go's span size for small objects.
pub const SPAN_BYTES: u64 = 8 << 10;
/// Size and check word in front of every object.
pub const HEADER_BYTES: u64 = 8;
const HEADER_CHECK: u32 = 0x6763_6f62; // "gcob"
const NOTHING_LIVE: usize = usize::MAX;

/// The span size that holds an object of `largest_object_bytes`: 8 KiB, or whole 8 KiB
/// pages around a larger object (Go's large-object spans).
pub fn span_bytes_for(largest_object_bytes: u64) -> u64 {
    largest_object_bytes.saturating_add(HEADER_BYTES).next_multiple_of(SPAN_BYTES)
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

/// What one or more sweeps found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepResult {
    pub freed: ObjectCount,
    /// Objects kept because a cycle marked them (an operation under way at the stop).
    pub survivors: u64,
    /// Spans whose headers did not add up: heap damage, fails the trial.
    pub damaged_spans: u64,
}

impl std::ops::AddAssign for SweepResult {
    fn add_assign(&mut self, other: Self) {
        self.freed += other.freed;
        self.survivors += other.survivors;
        self.damaged_spans += other.damaged_spans;
    }
}

/// Where a live object lies: its span and the offset of its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ObjectRef {
    pub span: u32,
    pub offset: usize,
}

#[derive(Debug)]
pub struct Span {
    id: u32,
    memory: Box<[u8]>,
    used: usize,
    /// Objects below this offset were freed by an earlier sweep.
    freed_upto: usize,
    /// The first object the last cycle marked live, or [`NOTHING_LIVE`].
    live_from: usize,
}

impl Span {
    pub(super) fn new(id: u32, bytes: u64) -> Self {
        let memory = vec![0; bytes as usize].into_boxed_slice();
        Self { id, memory, used: 0, freed_upto: 0, live_from: NOTHING_LIVE }
    }

    pub fn id(&self) -> u32 {
        self.id
    }

    pub fn bytes(&self) -> u64 {
        self.memory.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// Allocates an object of `size` bytes filled with `fill` (Go zeroes new objects; the
    /// fill is that write) and returns where it lies, or `None` when the span is full.
    pub fn allocate(&mut self, size: usize, fill: u8) -> Option<ObjectRef> {
        let start = self.used;
        let payload = start + HEADER_BYTES as usize;
        let end = payload.checked_add(size).filter(|&end| end <= self.memory.len())?;
        self.memory[start..start + 4].copy_from_slice(&(size as u32).to_le_bytes());
        self.memory[start + 4..payload].copy_from_slice(&HEADER_CHECK.to_le_bytes());
        self.memory[payload..end].fill(fill);
        self.used = end;
        Some(ObjectRef { span: self.id, offset: start })
    }

    /// Marks the object at `offset` (and so every later one: the tail of an operation) live.
    pub(super) fn mark_live_from(&mut self, offset: usize) {
        self.live_from = self.live_from.min(offset);
    }

    /// Frees every object not marked live since the last sweep, then forgets the mark.
    /// Returns what it found; an emptied span is ready for reuse.
    pub(super) fn sweep(&mut self) -> SweepResult {
        let mut result = SweepResult::default();
        let stop = self.live_from.min(self.used);
        match self.walk(self.freed_upto, stop) {
            Some(freed) => result.freed = freed,
            None => {
                // A damaged span is reported and emptied: its objects cannot be counted.
                result.damaged_spans = 1;
                self.reset();
                return result;
            }
        }
        self.freed_upto = stop;
        match self.walk(stop, self.used) {
            Some(kept) => result.survivors = kept.objects,
            None => result.damaged_spans = 1,
        }
        if self.freed_upto == self.used || result.damaged_spans > 0 {
            self.reset();
        }
        self.live_from = NOTHING_LIVE;
        result
    }

    fn reset(&mut self) {
        self.used = 0;
        self.freed_upto = 0;
        self.live_from = NOTHING_LIVE;
    }

    /// Counts the objects from `start` to exactly `end`; `None` when a header is damaged.
    fn walk(&self, start: usize, end: usize) -> Option<ObjectCount> {
        let mut count = ObjectCount::default();
        let mut offset = start;
        while offset < end {
            let header = self.memory.get(offset..offset + HEADER_BYTES as usize)?;
            let size = u32::from_le_bytes(header[..4].try_into().ok()?) as usize;
            if u32::from_le_bytes(header[4..].try_into().ok()?) != HEADER_CHECK {
                return None;
            }
            count += ObjectCount { objects: 1, bytes: size as u64 };
            offset += HEADER_BYTES as usize + size;
        }
        (offset == end).then_some(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_frees_every_unmarked_object() {
        let mut span = Span::new(1, SPAN_BYTES);
        for size in [1, 40, 100] {
            span.allocate(size, 0xAB).unwrap();
        }
        let result = span.sweep();
        assert_eq!(result.freed, ObjectCount { objects: 3, bytes: 141 });
        assert_eq!((result.survivors, result.damaged_spans), (0, 0));
        assert!(span.is_empty());
    }

    #[test]
    fn marked_tail_survives_one_sweep_and_is_freed_by_the_next() {
        let mut span = Span::new(1, SPAN_BYTES);
        span.allocate(10, 1).unwrap();
        let live = span.allocate(20, 2).unwrap();
        span.allocate(30, 3).unwrap();
        span.mark_live_from(live.offset);
        let first = span.sweep();
        assert_eq!((first.freed, first.survivors), (ObjectCount { objects: 1, bytes: 10 }, 2));
        assert!(!span.is_empty());
        let second = span.sweep();
        assert_eq!((second.freed, second.survivors), (ObjectCount { objects: 2, bytes: 50 }, 0));
        assert!(span.is_empty());
    }

    #[test]
    fn a_full_span_refuses_and_a_damaged_one_is_reported() {
        let mut span = Span::new(1, SPAN_BYTES);
        assert!(span.allocate(SPAN_BYTES as usize, 0).is_none());
        span.allocate(16, 0).unwrap();
        span.memory[5] ^= 0xFF;
        assert_eq!(span.sweep().damaged_spans, 1);
        assert!(span.is_empty());
    }

    #[test]
    fn large_objects_get_whole_pages() {
        assert_eq!(span_bytes_for(100), SPAN_BYTES);
        assert_eq!(span_bytes_for(SPAN_BYTES - HEADER_BYTES), SPAN_BYTES);
        assert_eq!(span_bytes_for(SPAN_BYTES), 2 * SPAN_BYTES);
    }
}
