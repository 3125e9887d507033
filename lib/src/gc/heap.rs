//! The central heap: every span no worker holds, behind one lock, and the accounting the
//! pacer and the verification rely on.
//!
//! Like Go's mcentral, a worker whose span is full hands it back and takes another here
//! (a refill), under the lock: an empty span if one is free, else one left from the last
//! cycle, which the worker sweeps itself outside the lock (Go sweeps lazily the same way),
//! else fresh memory while the ceiling allows. Each refill counts a span's bytes towards
//! the pacer's trigger; the refill that reaches it tells the worker to start a cycle. Every
//! cycle flushes every worker's span back here, so after each one all workers refill
//! through this lock at once. Spans outlive a trial (see [`SpanPool`]), so a cell's heap is
//! warm memory, not first-touch page faults.

use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::{Duration, Instant};

use super::span::{ObjectRef, Span, SweepResult};

/// The heap's sizes for one trial.
#[derive(Debug, Clone, Copy)]
pub struct HeapLimits {
    pub live_bytes: u64,
    /// Span bytes handed out between cycles that start the next one (from the pacer).
    pub trigger_bytes: u64,
    pub ceiling_bytes: u64,
    pub span_bytes: u64,
    /// The ceiling, not the ratio, set the trigger (ratio `off`, or a ratio too large).
    pub trigger_from_ceiling: bool,
}

/// Empty spans kept from one trial to the next.
#[derive(Debug, Default)]
pub struct SpanPool {
    spans: Vec<Span>,
    next_id: u32,
}

#[derive(Debug, Default)]
struct Central {
    free: Vec<Span>,
    /// Spans the last cycle marked, not yet swept.
    to_sweep: Vec<Span>,
    /// Spans handed back since the last cycle, and swept spans that kept survivors.
    full: Vec<Span>,
    taken_since_cycle: u64,
    /// Span memory out of the free list (held by workers, full or to sweep).
    in_use_bytes: u64,
    peak_in_use_bytes: u64,
    next_id: u32,
}

/// What a refill gives the worker.
#[derive(Debug)]
pub enum Refill {
    /// A span; `cycle_due` when this refill reached the pacer's trigger.
    Granted { span: Span, cycle_due: bool },
    /// No span can be had without passing the ceiling: a cycle must run first.
    CeilingReached,
}

/// What one worker's refills cost it.
#[derive(Debug, Clone, Copy, Default)]
pub struct RefillCosts {
    pub refills: u64,
    /// Time spent waiting for the central lock (zero when it was free).
    pub lock_wait: Duration,
    /// Time spent sweeping spans left from the last cycle.
    pub sweep: Duration,
    pub swept: SweepResult,
}

#[derive(Debug)]
pub struct Heap {
    limits: HeapLimits,
    central: Mutex<Central>,
}

impl Heap {
    /// A heap for one trial, starting from the pool's empty spans.
    pub fn new(limits: HeapLimits, pool: SpanPool) -> Self {
        let central = Central { free: pool.spans, next_id: pool.next_id, ..Central::default() };
        Self { limits, central: Mutex::new(central) }
    }

    /// The lock, and the time spent waiting for it.
    fn lock_timed(&self, costs: &mut RefillCosts) -> MutexGuard<'_, Central> {
        match self.central.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => {
                let asked = Instant::now();
                let guard = self.lock();
                costs.lock_wait += asked.elapsed();
                guard
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Central> {
        self.central.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A span for a worker whose span is full (or who has none).
    pub fn refill(&self, costs: &mut RefillCosts) -> Refill {
        costs.refills += 1;
        loop {
            let mut central = self.lock_timed(costs);
            if let Some(span) = central.free.pop() {
                central.in_use_bytes += span.bytes();
                return self.grant(central, span);
            }
            if let Some(mut span) = central.to_sweep.pop() {
                drop(central);
                let started = Instant::now();
                costs.swept += span.sweep();
                costs.sweep += started.elapsed();
                let mut central = self.lock_timed(costs);
                if span.is_empty() {
                    return self.grant(central, span);
                }
                central.full.push(span);
                continue;
            }
            let bytes = self.limits.span_bytes;
            if self.limits.live_bytes + central.in_use_bytes + bytes > self.limits.ceiling_bytes {
                return Refill::CeilingReached;
            }
            central.in_use_bytes += bytes;
            let id = central.next_id;
            central.next_id += 1;
            return self.grant(central, Span::new(id, bytes));
        }
    }

    fn grant(&self, mut central: MutexGuard<'_, Central>, span: Span) -> Refill {
        central.peak_in_use_bytes = central.peak_in_use_bytes.max(central.in_use_bytes);
        central.taken_since_cycle += span.bytes();
        let cycle_due = central.taken_since_cycle >= self.limits.trigger_bytes;
        Refill::Granted { span, cycle_due }
    }

    /// Takes back a worker's span (full, or flushed at a stop).
    pub fn hand_back(&self, span: Span) {
        self.lock().full.push(span);
    }

    /// Sweeps whatever the last cycle left unswept (Go's `finishsweep_m`, with the world
    /// stopped, so every span is marked by the cycle it belongs to).
    pub fn finish_sweep(&self) -> SweepResult {
        let mut central = self.lock();
        let mut result = SweepResult::default();
        for mut span in std::mem::take(&mut central.to_sweep) {
            result += span.sweep();
            if span.is_empty() {
                central.in_use_bytes -= span.bytes();
                central.free.push(span);
            } else {
                central.full.push(span);
            }
        }
        result
    }

    /// Ends a cycle (world stopped): marks the objects the workers' roots hold, makes every
    /// span handed back since the last cycle sweepable, and starts a new pacing period.
    pub fn end_cycle(&self, marked: &mut [ObjectRef]) {
        marked.sort_unstable();
        let mut central = self.lock();
        let Central { full, to_sweep, .. } = &mut *central;
        for mut span in full.drain(..) {
            let first = marked.partition_point(|object| object.span < span.id());
            if let Some(object) = marked.get(first).filter(|object| object.span == span.id()) {
                span.mark_live_from(object.offset);
            }
            to_sweep.push(span);
        }
        central.taken_since_cycle = 0;
    }

    /// After the trial, with no operation under way: sweeps every span and returns them,
    /// empty, for the next trial, with what that last sweep found.
    pub fn into_pool(self) -> (SpanPool, SweepResult) {
        let mut result = self.finish_sweep();
        self.end_cycle(&mut []);
        result += self.finish_sweep();
        let central = self.central.into_inner().unwrap_or_else(PoisonError::into_inner);
        let mut spans = central.free;
        spans.extend(central.full.into_iter().chain(central.to_sweep));
        (SpanPool { spans, next_id: central.next_id }, result)
    }

    /// The most memory the heap held at once: the live graph plus every span in use.
    pub fn peak_bytes(&self) -> u64 {
        self.limits.live_bytes + self.lock().peak_in_use_bytes
    }

    pub fn limits(&self) -> HeapLimits {
        self.limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gc::span::SPAN_BYTES;

    fn heap(trigger_spans: u64, ceiling_spans: u64) -> Heap {
        let limits = HeapLimits {
            live_bytes: 0,
            trigger_bytes: trigger_spans * SPAN_BYTES,
            ceiling_bytes: ceiling_spans * SPAN_BYTES,
            span_bytes: SPAN_BYTES,
            trigger_from_ceiling: false,
        };
        Heap::new(limits, SpanPool::default())
    }

    fn granted(heap: &Heap) -> (Span, bool) {
        match heap.refill(&mut RefillCosts::default()) {
            Refill::Granted { span, cycle_due } => (span, cycle_due),
            Refill::CeilingReached => panic!("refused"),
        }
    }

    #[test]
    fn the_refill_that_reaches_the_trigger_starts_a_cycle_and_is_still_granted() {
        let heap = heap(2, 100);
        assert!(!granted(&heap).1);
        let (span, due) = granted(&heap);
        assert!(due);
        heap.hand_back(span);
        heap.end_cycle(&mut []);
        assert!(!granted(&heap).1, "a new pacing period after the cycle");
    }

    #[test]
    fn spans_are_reused_after_a_sweep_and_survivors_wait() {
        let heap = heap(100, 100);
        let (mut span, _) = granted(&heap);
        span.allocate(10, 0).unwrap();
        let live = span.allocate(10, 0).unwrap();
        heap.hand_back(span);
        heap.end_cycle(&mut [live]);
        let swept = heap.finish_sweep();
        assert_eq!((swept.freed.objects, swept.survivors), (1, 1));
        heap.end_cycle(&mut []);
        let mut costs = RefillCosts::default();
        let Refill::Granted { span, .. } = heap.refill(&mut costs) else { panic!("refused") };
        assert!(span.is_empty());
        assert_eq!(costs.swept.freed.objects, 1, "the refill swept the survivor's span itself");
        assert_eq!(heap.peak_bytes(), SPAN_BYTES);
    }

    #[test]
    fn the_ceiling_refuses_fresh_memory_and_the_pool_keeps_every_span() {
        let heap = heap(100, 2);
        let spans = [granted(&heap).0, granted(&heap).0];
        assert!(matches!(heap.refill(&mut RefillCosts::default()), Refill::CeilingReached));
        spans.into_iter().for_each(|span| heap.hand_back(span));
        let (pool, _) = heap.into_pool();
        assert_eq!((pool.spans.len(), pool.next_id), (2, 2));
        assert!(pool.spans.iter().all(Span::is_empty));
    }
}
