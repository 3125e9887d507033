//! A worker (a "mutator" in collector terms): it runs operations until its trial ends,
//! allocating each operation's objects from its span, stopping at safepoints, and running
//! a collection itself when the heap refuses it a span.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crossbeam_utils::CachePadded;

use super::collector::{CycleLog, CycleTiming, World};
use super::heap::{Heap, ObjectCount, Span, HEADER_BYTES};
use super::live::LiveGraph;
use super::workload::{message, Work};

/// Everything the workers of one trial share.
#[derive(Debug)]
pub struct Shared<'a> {
    pub heap: Heap,
    pub world: World,
    pub live: &'a Mutex<LiveGraph>,
    pub work: &'a Work,
    /// Payload sizes of one operation's objects.
    pub object_sizes: &'a [usize],
    /// Set by each worker while it runs an operation; padded so the per-operation writes
    /// stay in the worker's own cache line.
    pub mid_operation: Vec<CachePadded<AtomicBool>>,
    pub log: Mutex<CycleLog>,
    pub tallies: Mutex<Vec<WorkerTally>>,
}

/// What one worker did, collected after the trial.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkerTally {
    pub operations: u64,
    pub allocated: ObjectCount,
    /// Its last operation's message and output, checked after the trial.
    pub last: Option<([u8; 32], [u8; 64])>,
}

impl Shared<'_> {
    /// Bytes one operation needs in a span, headers included.
    fn op_span_bytes(&self) -> usize {
        self.object_sizes.iter().map(|size| size + HEADER_BYTES as usize).sum()
    }
}

#[derive(Debug)]
struct Mutator<'s, 'a> {
    index: usize,
    shared: &'s Shared<'a>,
    span: Option<Span>,
    tally: WorkerTally,
}

/// Runs worker `index` until `deadline`, then records its tally and retires.
pub fn run_worker(shared: &Shared<'_>, index: usize, deadline: Instant) {
    let mut mutator = Mutator { index, shared, span: None, tally: WorkerTally::default() };
    // The timed loop: one operation per iteration (safepoint check, allocation of its
    // objects, the work). Collections run inside `begin_operation`, so their pauses fall
    // in the trial's time; the clock is read once per operation to stop at the deadline.
    while mutator.begin_operation(deadline) {
        mutator.operate();
        shared.mid_operation[index].store(false, Ordering::Relaxed);
    }
    mutator.hand_back_span();
    shared.tallies.lock().unwrap_or_else(PoisonError::into_inner)[index] = mutator.tally;
    shared.world.retire();
}

impl Mutator<'_, '_> {
    /// The safepoint before an operation: parks if a cycle is pending, takes a span (or
    /// collects) when the current one cannot hold the operation. False once the trial is over.
    fn begin_operation(&mut self, deadline: Instant) -> bool {
        let needed = self.shared.op_span_bytes();
        loop {
            if Instant::now() >= deadline {
                return false;
            }
            if self.shared.world.stop_requested() {
                self.hand_back_span();
                self.shared.world.park();
                continue;
            }
            if self.span.as_ref().is_some_and(|span| span.room() >= needed) {
                self.shared.mid_operation[self.index].store(true, Ordering::Relaxed);
                return true;
            }
            self.hand_back_span();
            match self.shared.heap.take_span() {
                Some(span) => self.span = Some(span),
                None => self.collect(),
            }
        }
    }

    /// One operation: allocate its objects and fill them (Go zeroes new objects; the fill is
    /// that write), then do the work. The objects are garbage once it returns.
    fn operate(&mut self) {
        let op = self.tally.operations;
        let message = message(self.index, op);
        let span = self.span.as_mut().expect("begin_operation leaves a span with room");
        for (object, &size) in self.shared.object_sizes.iter().enumerate() {
            let payload = span.allocate(size);
            payload.fill(message[object % message.len()]);
            black_box(payload);
            self.tally.allocated += ObjectCount { objects: 1, bytes: size as u64 };
        }
        let output = black_box(self.shared.work.perform(black_box(&message)));
        self.tally.last = Some((message, output));
        self.tally.operations += 1;
    }

    fn hand_back_span(&mut self) {
        if let Some(span) = self.span.take() {
            self.shared.heap.hand_back(span);
        }
    }

    /// Becomes the collector (or parks, when another worker already is one): stops the
    /// world, traces the live graph, sweeps every span and resumes the world.
    fn collect(&mut self) {
        let shared = self.shared;
        let started = Instant::now();
        if !shared.world.begin_stop() {
            shared.world.park();
            return;
        }
        self.hand_back_span();
        shared.world.wait_until_stopped();
        let stopped = Instant::now();
        let mid_operation = shared.mid_operation.iter().filter(|flag| flag.load(Ordering::Relaxed)).count() as u64;
        let (traced, expected) = {
            let mut live = shared.live.lock().unwrap_or_else(PoisonError::into_inner);
            (live.trace(), live.node_count())
        };
        let traced_at = Instant::now();
        let swept = shared.heap.sweep();
        let swept_at = Instant::now();
        shared.world.resume();
        let mut log = shared.log.lock().unwrap_or_else(PoisonError::into_inner);
        log.record(
            CycleTiming {
                stop: stopped - started,
                trace: traced_at - stopped,
                sweep: swept_at - traced_at,
                pause: swept_at - started,
            },
            shared.heap.limits().trigger_from_ceiling,
        );
        log.nodes_traced += traced;
        log.trace_mismatches += u64::from(traced != expected);
        log.mid_operation_at_stop += mid_operation;
        log.freed += swept.freed;
        log.damaged_spans += swept.damaged_spans;
    }
}

/// Splits `total_bytes` into `objects` payload sizes that add up exactly, alternating
/// smaller and larger objects around the mean (like a signature's temporaries).
pub fn object_sizes(total_bytes: u64, objects: u32) -> Vec<usize> {
    let count = objects.max(1) as usize;
    let mean = (total_bytes as usize / count).max(1);
    let mut sizes: Vec<usize> =
        (0..count).map(|i| if i % 2 == 0 { mean.div_ceil(2) } else { mean + mean / 2 }).collect();
    let assigned: usize = sizes.iter().sum();
    let last = sizes.last_mut().expect("at least one object");
    *last = (*last + total_bytes as usize).saturating_sub(assigned).max(1);
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gc::config::Workload;
    use crate::gc::heap::{HeapLimits, SPAN_BYTES};
    use crate::gc::live::LiveGraph;
    use std::thread;

    /// The counter behind "never stopped mid-operation" is not vacuous: a worker parked with
    /// its flag still set is counted.
    #[test]
    fn a_worker_parked_mid_operation_is_counted() {
        let live = Mutex::new(LiveGraph::build(6400, 1));
        let work = Work::new(Workload::Hash).unwrap();
        let sizes = object_sizes(256, 4);
        let limits = HeapLimits {
            live_bytes: 6400,
            trigger_bytes: SPAN_BYTES,
            ceiling_bytes: 1 << 20,
            span_bytes: SPAN_BYTES,
            trigger_from_ceiling: false,
        };
        let shared = Shared {
            heap: Heap::new(limits),
            world: World::new(2),
            live: &live,
            work: &work,
            object_sizes: &sizes,
            mid_operation: (0..2).map(|_| CachePadded::new(AtomicBool::new(false))).collect(),
            log: Mutex::default(),
            tallies: Mutex::new(vec![WorkerTally::default(); 2]),
        };
        shared.mid_operation[1].store(true, Ordering::Relaxed);
        thread::scope(|scope| {
            scope.spawn(|| {
                while !shared.world.stop_requested() {
                    thread::yield_now();
                }
                shared.world.park();
            });
            Mutator { index: 0, shared: &shared, span: None, tally: WorkerTally::default() }.collect();
        });
        let log = *shared.log.lock().unwrap();
        assert_eq!((log.collections, log.mid_operation_at_stop, log.nodes_traced), (1, 1, 100));
    }

    #[test]
    fn object_sizes_add_up_exactly() {
        for (total, objects) in [(2560, 34), (100, 3), (34, 34), (7, 1), (1 << 20, 5)] {
            let sizes = object_sizes(total, objects);
            assert_eq!(sizes.len(), objects as usize);
            assert_eq!(sizes.iter().sum::<usize>() as u64, total, "{total} in {objects}");
            assert!(sizes.iter().all(|&size| size >= 1));
        }
    }
}
