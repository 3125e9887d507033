//! Article B's signing service on the lab's collector: a handler that allocates per request
//! what Go's P-256 `Sign` allocates (33 objects, 2573 bytes), so the heap grows by that per
//! signature and the pacer starts a cycle, with its stop-the-world and its mark of the live
//! graph, every `trigger` bytes. The student makes it allocate less (reuse a buffer the
//! worker keeps, pool, batch); the reference fix keeps the temporaries in a scratch buffer
//! of its own and allocates nothing per request. What a trial measures is signatures per
//! second, and beside it collector cycles per second.
//!
//! # Timing model
//!
//! One trial is one trial of the GC sweep ([`crate::gc::run::HandlerBench`]) at the sweep's
//! peak cell (as many workers as CPUs) and Go's default ratio (GOGC=100), each worker
//! running its own handler: requests until the trial's length is spent, cycles included;
//! every trial is checked as the sweep's are (every byte accounted, the live graph marked
//! whole at every cycle, each worker's last signature verified).

use std::collections::BTreeSet;
use std::time::Duration;

use super::check::{measure_and_judge, Checked, Sample, Side};
use super::{Challenge, Plan};
use crate::error::RunError;
use crate::gc::config::{GO_SIGN_ALLOC_BYTES, GO_SIGN_OBJECTS};
use crate::gc::handler::Handlers;
pub use crate::gc::handler::{Allocate, Handler};
use crate::gc::mutator::object_sizes;
use crate::gc::run::HandlerBench;
use crate::gc::workload::message;
pub use crate::gc::workload::Work;
use crate::gc::{Config as GcConfig, GcRatio};
use crate::harness::Progress;
use crate::machine::logical_cpus;

/// The temporaries of one signature: Go's `Sign`, 33 objects of 2573 bytes in all.
pub fn sign_temporaries() -> Vec<usize> {
    object_sizes(GO_SIGN_ALLOC_BYTES, GO_SIGN_OBJECTS)
}

/// The baseline: every request allocates the signature's temporaries on the collected heap,
/// half before the signing and half after (as the GC sweep's operation does).
#[derive(Debug)]
pub struct AllocatePerRequest {
    temporaries: Vec<usize>,
}

impl Default for AllocatePerRequest {
    fn default() -> Self {
        Self { temporaries: sign_temporaries() }
    }
}

impl Handler for AllocatePerRequest {
    fn handle(&mut self, message: &[u8; 32], heap: &mut dyn Allocate, work: &Work) -> [u8; 64] {
        let (before, after) = self.temporaries.split_at(self.temporaries.len() / 2);
        for (object, &bytes) in before.iter().enumerate() {
            heap.allocate(bytes, message[object % message.len()]);
        }
        let signature = work.perform(message);
        for (object, &bytes) in after.iter().enumerate() {
            heap.allocate(bytes, message[(before.len() + object) % message.len()]);
        }
        signature
    }
}

/// The reference fix: the same temporaries, written into one scratch buffer the worker
/// keeps from request to request; nothing allocated on the collected heap.
#[derive(Debug)]
pub struct ReuseScratch {
    temporaries: Vec<usize>,
    scratch: Vec<u8>,
}

impl Default for ReuseScratch {
    fn default() -> Self {
        let temporaries = sign_temporaries();
        let largest = temporaries.iter().copied().max().unwrap_or(0);
        Self { temporaries, scratch: vec![0; largest] }
    }
}

impl Handler for ReuseScratch {
    fn handle(&mut self, message: &[u8; 32], _heap: &mut dyn Allocate, work: &Work) -> [u8; 64] {
        let (before, after) = self.temporaries.split_at(self.temporaries.len() / 2);
        for (object, &bytes) in before.iter().enumerate() {
            self.scratch[..bytes].fill(message[object % message.len()]);
        }
        let signature = work.perform(message);
        for (object, &bytes) in after.iter().enumerate() {
            self.scratch[..bytes].fill(message[(before.len() + object) % message.len()]);
        }
        std::hint::black_box(&self.scratch);
        signature
    }
}

/// A heap that only counts, for the correctness check.
#[derive(Debug, Default)]
struct CountingHeap {
    objects: u64,
}

impl Allocate for CountingHeap {
    fn allocate(&mut self, _bytes: usize, _fill: u8) {
        self.objects += 1;
    }
}

/// Requests the correctness check signs.
const CHECKED_REQUESTS: u64 = 64;

/// The sizes a trial runs at: the sweep's (quick) config at one cell.
fn sizes(plan: &Plan) -> GcConfig {
    let base = if plan.quick {
        GcConfig::quick()
    } else {
        GcConfig { trial: Duration::from_millis(300), ..GcConfig::default() }
    };
    GcConfig { threads: vec![cell().0], ratios: vec![cell().1], trials: plan.trials.max(1), ..base }
}

/// The sweep's peak cell: as many workers as CPUs, at Go's default ratio.
fn cell() -> (usize, GcRatio) {
    (logical_cpus().max(1), GcRatio::Percent(100))
}

/// Checks `Yours` for correctness, then measures it beside the baseline and the reference.
pub fn check<Yours: Handler + Default + 'static>(plan: &Plan, progress: Progress) -> Result<Checked, RunError> {
    let mut bench = HandlerBench::new(&sizes(plan))?;
    if let Err(wrong) = correctness::<Yours>(bench.work()) {
        return Ok(Checked::refused(Challenge::Allocation, wrong));
    }
    let baseline = || -> Box<dyn Handler> { Box::new(AllocatePerRequest::default()) };
    let reference = || -> Box<dyn Handler> { Box::new(ReuseScratch::default()) };
    let yours = || -> Box<dyn Handler> { Box::new(Yours::default()) };
    let verdict = measure_and_judge(Challenge::Allocation, plan, progress, false, |side, trial| {
        let handlers = match side {
            Side::Baseline => Handlers(&baseline),
            Side::Reference => Handlers(&reference),
            Side::Yours => Handlers(&yours),
        };
        let row = bench.trial(handlers, cell(), trial)?;
        Ok(Sample {
            side,
            trial,
            per_sec: row.ops_per_sec,
            pinned: row.pinned,
            cycles_per_sec: Some(row.cycles_per_sec),
        })
    })?;
    Ok(Checked { challenge: Challenge::Allocation, wrong: None, verdict: Some(verdict) })
}

/// Every signature verifies, and each request gets a signature of its own (a signature kept
/// from an earlier request is not one made for this request).
pub fn correctness<H: Handler + Default>(work: &Work) -> Result<(), String> {
    let mut handler = H::default();
    let mut heap = CountingHeap::default();
    let mut seen = BTreeSet::new();
    for request in 0..CHECKED_REQUESTS {
        let message = message(0, request);
        let signature = handler.handle(&message, &mut heap, work);
        if !work.check(&message, &signature) {
            return Err(format!(
                "every signature must verify: request {request} of {CHECKED_REQUESTS} got a signature that does not"
            ));
        }
        if !seen.insert(signature) {
            return Err(format!(
                "every request needs its own signature: request {request} got one an earlier request already had"
            ));
        }
    }
    Ok(())
}
