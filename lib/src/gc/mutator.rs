//! A worker (a "mutator" in collector terms): it runs operations until its trial ends,
//! allocating each operation's objects from its own span (its allocation cache), stopping
//! at the safepoint every allocation is, refilling from the central heap when the span is
//! full, and running a cycle itself when its refill reaches the pacer's trigger.

use std::hint::black_box;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crossbeam_utils::CachePadded;

use super::collector::{CycleLog, CycleTiming, World};
use super::handler::{Allocate, Handler, Handlers};
use super::heap::{Heap, Refill, RefillCosts};
use super::live::LiveGraph;
use super::mark::{MarkPhase, Stack};
use super::span::{ObjectCount, ObjectRef, Span};
use super::workload::{message, Work};

/// Everything the workers of one trial share.
#[derive(Debug)]
pub struct Shared<'a> {
    pub heap: Heap,
    pub world: World,
    pub live: &'a LiveGraph,
    /// Every worker's roots, scanned at every cycle.
    pub stacks: Vec<CachePadded<Mutex<Stack>>>,
    pub marking: MarkPhase,
    /// Markers per cycle (the collector included).
    pub mark_workers: usize,
    pub work: &'a Work,
    /// Payload sizes of one operation's objects.
    pub object_sizes: &'a [usize],
    pub log: Mutex<CycleLog>,
    /// Each worker's request handler, in place of the fixed operation (`None`: Go's `Sign`
    /// objects around the work, as the sweep runs).
    pub handlers: Option<Handlers<'a>>,
    pub tallies: Mutex<Vec<WorkerTally>>,
}

/// What one worker did, collected after the trial.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkerTally {
    pub operations: u64,
    pub allocated: ObjectCount,
    pub refill: RefillCosts,
    /// Its last operation's message and output, checked after the trial.
    pub last: Option<([u8; 32], [u8; 64])>,
}

struct Mutator<'s, 'a> {
    index: usize,
    shared: &'s Shared<'a>,
    span: Option<Span>,
    /// The objects of the operation under way: roots for a cycle that stops it midway.
    in_flight: Vec<ObjectRef>,
    handler: Option<Box<dyn Handler>>,
    tally: WorkerTally,
}

/// Runs worker `index` until `deadline`, then records its tally and retires.
pub fn run_worker(shared: &Shared<'_>, index: usize, deadline: Instant) {
    let handler = shared.handlers.map(|Handlers(build)| build());
    let mut mutator =
        Mutator { index, shared, span: None, in_flight: Vec::new(), handler, tally: WorkerTally::default() };
    // The timed loop: one operation per iteration (half its objects, the work, the other
    // half; every allocation a safepoint). Cycles run inside allocations, so their pauses
    // fall in the trial's time; the clock is read once per operation to stop at the deadline.
    while Instant::now() < deadline {
        mutator.operate();
    }
    mutator.flush();
    // No operation is under way any more: its stack holds no objects for later cycles.
    mutator.publish_roots();
    shared.tallies.lock().unwrap_or_else(PoisonError::into_inner)[index] = mutator.tally;
    shared.world.retire();
}

impl Mutator<'_, '_> {
    /// One operation. Its objects are garbage once it returns.
    fn operate(&mut self) {
        let message = message(self.index, self.tally.operations);
        let output = match self.handler.take() {
            Some(mut handler) => {
                let work = self.shared.work;
                let output = handler.handle(&message, self, work);
                self.handler = Some(handler);
                output
            }
            None => self.sign_objects_around_work(&message),
        };
        self.in_flight.clear();
        self.tally.last = Some((message, output));
        self.tally.operations += 1;
    }

    /// The sweep's operation: half of Go's `Sign` objects, the work, the other half.
    fn sign_objects_around_work(&mut self, message: &[u8; 32]) -> [u8; 64] {
        let sizes = self.shared.object_sizes;
        let (before, after) = sizes.split_at(sizes.len() / 2);
        for (object, &size) in before.iter().enumerate() {
            self.allocate(size, message[object % message.len()]);
        }
        let output = black_box(self.shared.work.perform(black_box(message)));
        for (object, &size) in after.iter().enumerate() {
            self.allocate(size, message[(before.len() + object) % message.len()]);
        }
        output
    }

    fn refill(&mut self) {
        self.flush();
        match self.shared.heap.refill(&mut self.tally.refill) {
            Refill::Granted { span, cycle_due } => {
                self.span = Some(span);
                if cycle_due {
                    self.collect(false);
                }
            }
            Refill::CeilingReached => self.collect(true),
        }
    }

    /// Hands the span back to the central heap (Go flushes every mcache at each cycle).
    fn flush(&mut self) {
        if let Some(span) = self.span.take() {
            self.shared.heap.hand_back(span);
        }
    }

    /// Flushes, publishes the operation's objects as roots, and parks until the cycle ends
    /// (marking, if the collector calls this worker to help).
    fn safepoint(&mut self) {
        self.flush();
        self.publish_roots();
        let shared = self.shared;
        shared.world.park(|| shared.marking.work(shared.live, &shared.stacks));
    }

    fn publish_roots(&self) {
        let mut stack = self.shared.stacks[self.index].lock().unwrap_or_else(PoisonError::into_inner);
        stack.in_flight.clone_from(&self.in_flight);
    }

    /// Becomes the collector (or parks, when another worker already is one): stops the
    /// world, finishes the last cycle's sweep, marks with the helpers, ends the cycle.
    fn collect(&mut self, forced_by_ceiling: bool) {
        let shared = self.shared;
        let started = Instant::now();
        if !shared.world.begin_stop() {
            self.safepoint();
            return;
        }
        self.flush();
        self.publish_roots();
        shared.world.wait_until_stopped();
        let stopped = Instant::now();
        let swept = shared.heap.finish_sweep();
        let swept_at = Instant::now();
        let epoch = shared.live.next_epoch();
        let helpers = shared.world.open_marking(shared.mark_workers - 1, |helpers| {
            shared.marking.begin(epoch, helpers + 1);
        });
        shared.marking.work(shared.live, &shared.stacks);
        shared.world.wait_for_helpers();
        let mut found = shared.marking.take_found();
        shared.heap.end_cycle(&mut found.objects);
        let ended = Instant::now();
        shared.world.resume();
        let mut log = shared.log.lock().unwrap_or_else(PoisonError::into_inner);
        let timing = CycleTiming {
            stop: stopped - started,
            sweep: swept_at - stopped,
            mark: ended - swept_at,
            pause: ended - started,
        };
        log.record(timing, forced_by_ceiling || shared.heap.limits().trigger_from_ceiling);
        log.markers += helpers as u64 + 1;
        log.nodes_marked += found.nodes;
        log.stacks_scanned += found.stacks_scanned;
        log.mark_mismatches += u64::from(found.nodes != shared.live.node_count());
        log.swept += swept;
    }
}

impl Allocate for Mutator<'_, '_> {
    /// Allocates one object: the safepoint, then the span, refilled when full.
    fn allocate(&mut self, size: usize, fill: u8) {
        loop {
            if self.shared.world.stop_requested() {
                self.safepoint();
            }
            if let Some(object) = self.span.as_mut().and_then(|span| span.allocate(size, fill)) {
                self.in_flight.push(object);
                self.tally.allocated += ObjectCount { objects: 1, bytes: size as u64 };
                return;
            }
            self.refill();
        }
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

    #[test]
    fn object_sizes_add_up_exactly() {
        for (total, objects) in [(2573, 34), (2560, 34), (100, 3), (34, 34), (7, 1), (1 << 20, 5)] {
            let sizes = object_sizes(total, objects);
            assert_eq!(sizes.len(), objects as usize);
            assert_eq!(sizes.iter().sum::<usize>() as u64, total, "{total} in {objects}");
            assert!(sizes.iter().all(|&size| size >= 1));
        }
    }
}
