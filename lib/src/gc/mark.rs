//! Marking, shared by a quarter of the workers as Go's dedicated mark workers are.
//!
//! With the world stopped, the collector and the helpers it calls (parked workers) scan
//! every worker's roots, one stack at a time, then trace the live graph from them. Each
//! marker traces from its own stack of nodes; when that stack grows long while the shared
//! queue is empty, it gives half to the queue so an idle marker can take it. Marking ends
//! when every marker is idle and the queue is empty (all under one lock, so no work is
//! lost between "queue empty" and "idle"). The stacks also hold each worker's objects of
//! an operation under way at the stop: those are the cycle's survivors in the heap.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crossbeam_utils::CachePadded;

use super::live::{LiveGraph, NO_CHILD};
use super::span::ObjectRef;

/// Go runs `GOMAXPROCS x 0.25` dedicated mark workers, rounded to the nearest.
pub const MARK_WORKER_SHARE: f64 = 0.25;
/// Graph references on each worker's stack (its frames' pointers), scanned every cycle.
pub const STACK_FRAMES: usize = 256;
/// A marker shares work once its own stack holds this many nodes.
const SHARE_AT: usize = 128;

/// Mark workers for `threads` workers: a quarter, rounded, at least one.
pub fn mark_workers(threads: usize) -> usize {
    ((threads as f64 * MARK_WORKER_SHARE + 0.5) as usize).max(1)
}

/// A worker's roots.
#[derive(Debug)]
pub struct Stack {
    /// References into the live graph.
    pub frames: Box<[u32]>,
    /// The objects of the operation under way (empty between operations).
    pub in_flight: Vec<ObjectRef>,
}

impl Stack {
    /// `STACK_FRAMES` references to nodes of `graph`, chosen from `seed` (none when the
    /// graph is empty).
    pub fn new(graph: &LiveGraph, seed: u64) -> Self {
        let slots = if graph.node_count() == 0 { 0 } else { STACK_FRAMES as u64 };
        let frames = (0..slots)
            .map(|slot| graph.node_at(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(slot * 0x2545_F491)))
            .collect();
        Self { frames, in_flight: Vec::new() }
    }
}

/// What one cycle's marking found.
#[derive(Debug, Default)]
pub struct MarkFound {
    pub nodes: u64,
    pub stacks_scanned: u64,
    pub objects: Vec<ObjectRef>,
}

#[derive(Debug, Default)]
struct Queue {
    batches: Vec<Vec<u32>>,
    markers: usize,
    idle: usize,
    done: bool,
}

/// The state one cycle's markers share; reused from cycle to cycle.
#[derive(Debug, Default)]
pub struct MarkPhase {
    cycle: AtomicU32,
    /// Root jobs handed out: 0..stacks are workers' stacks, `stacks` is the graph's root.
    next_job: AtomicUsize,
    queued: AtomicUsize,
    queue: Mutex<Queue>,
    work_queued: Condvar,
    found: Mutex<MarkFound>,
}

impl MarkPhase {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Prepares cycle `cycle` for `markers` markers (before any of them starts).
    pub fn begin(&self, cycle: u32, markers: usize) {
        self.cycle.store(cycle, Ordering::Relaxed);
        self.next_job.store(0, Ordering::Relaxed);
        self.queued.store(0, Ordering::Relaxed);
        *self.queue() = Queue { markers, ..Queue::default() };
        *self.found.lock().unwrap_or_else(PoisonError::into_inner) = MarkFound::default();
    }

    /// One marker's part: root jobs until none are left, then the graph until every marker
    /// is idle.
    pub fn work(&self, graph: &LiveGraph, stacks: &[CachePadded<Mutex<Stack>>]) {
        let cycle = self.cycle.load(Ordering::Relaxed);
        let mut found = MarkFound::default();
        let mut local: Vec<u32> = Vec::with_capacity(2 * SHARE_AT);
        loop {
            let job = self.next_job.fetch_add(1, Ordering::Relaxed);
            match stacks.get(job) {
                Some(stack) => {
                    let stack = stack.lock().unwrap_or_else(PoisonError::into_inner);
                    local.extend_from_slice(&stack.frames);
                    found.objects.extend_from_slice(&stack.in_flight);
                    found.stacks_scanned += 1;
                }
                None if job == stacks.len() && graph.root() != NO_CHILD => local.push(graph.root()),
                None => break,
            }
        }
        loop {
            while let Some(node) = local.pop() {
                if graph.claim(node, cycle) {
                    found.nodes += 1;
                    local.extend(graph.children(node));
                }
                if local.len() >= SHARE_AT && self.queued.load(Ordering::Relaxed) == 0 {
                    self.share(&mut local);
                }
            }
            match self.take() {
                Some(batch) => local = batch,
                None => break,
            }
        }
        let mut total = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        total.nodes += found.nodes;
        total.stacks_scanned += found.stacks_scanned;
        total.objects.append(&mut found.objects);
    }

    fn share(&self, local: &mut Vec<u32>) {
        let half = local.split_off(local.len() / 2);
        self.queue().batches.push(half);
        self.queued.fetch_add(1, Ordering::Relaxed);
        self.work_queued.notify_one();
    }

    /// Work from the queue, or `None` once every marker is idle and nothing is queued.
    fn take(&self) -> Option<Vec<u32>> {
        let mut queue = self.queue();
        loop {
            if let Some(batch) = queue.batches.pop() {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                return Some(batch);
            }
            if queue.done {
                return None;
            }
            queue.idle += 1;
            if queue.idle == queue.markers {
                queue.done = true;
                self.work_queued.notify_all();
                return None;
            }
            queue = self.work_queued.wait(queue).unwrap_or_else(PoisonError::into_inner);
            queue.idle -= 1;
        }
    }

    /// What every marker found, once all have finished.
    pub fn take_found(&self) -> MarkFound {
        std::mem::take(&mut *self.found.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    #[test]
    fn a_quarter_of_the_workers_mark() {
        let counts: Vec<usize> = [1, 2, 3, 4, 6, 8, 16, 48].map(mark_workers).to_vec();
        assert_eq!(counts, vec![1, 1, 1, 1, 2, 2, 4, 12]);
    }

    #[test]
    fn markers_together_mark_every_node_once_and_scan_every_stack() {
        let graph = LiveGraph::build(1 << 20, 5);
        let stacks: Vec<CachePadded<Mutex<Stack>>> = (0..6)
            .map(|seed| {
                let mut stack = Stack::new(&graph, seed);
                stack.in_flight.push(ObjectRef { span: seed as u32, offset: 8 });
                CachePadded::new(Mutex::new(stack))
            })
            .collect();
        let phase = MarkPhase::default();
        for (cycle, markers) in [(1, 1), (2, 3), (3, 4)] {
            phase.begin(cycle, markers);
            thread::scope(|scope| {
                for _ in 0..markers {
                    scope.spawn(|| phase.work(&graph, &stacks));
                }
            });
            let found = phase.take_found();
            assert_eq!((found.nodes, found.stacks_scanned, found.objects.len()), (graph.node_count(), 6, 6));
        }
    }
}
