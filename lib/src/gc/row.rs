//! One trial's row, and how the collector's log and the workers' tallies become it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::collector::CycleLog;
use super::config::{Config, GcRatio, Workload};
use super::heap::HeapLimits;
use super::mutator::WorkerTally;
use super::span::{ObjectCount, SweepResult};

/// One trial of one (threads, ratio) cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub threads: u64,
    pub ratio: GcRatio,
    pub trial: u64,
    pub workload: Workload,
    pub elapsed_ns: u64,
    pub operations: u64,
    pub ops_per_sec: f64,
    pub cycles: u64,
    pub cycles_per_sec: f64,
    /// Cycles whose trigger the ceiling set (ratio `off`, or a ratio beyond it).
    pub ceiling_cycles: u64,
    pub pause_total_ns: u64,
    pub pause_max_ns: u64,
    /// Total pause over elapsed time.
    pub pause_share: f64,
    /// Parts of the pause: waiting for every worker to reach a safepoint, marking.
    pub stop_ns: u64,
    pub mark_ns: u64,
    /// All sweeping: by workers' refills (outside the pause) and at each stop.
    pub sweep_ns: u64,
    /// Workers' time waiting for the central heap's lock, summed over workers.
    pub refill_wait_ns: u64,
    pub refills: u64,
    /// Markers per cycle (a quarter of the threads, at least one).
    pub mark_workers: u64,
    /// Allocation between cycles that starts the next one (span bytes).
    pub trigger_bytes: u64,
    /// Live graph plus every span the heap held at its fullest.
    pub peak_heap_bytes: u64,
    pub ceiling_bytes: u64,
    pub live_bytes: u64,
    pub live_nodes: u64,
    pub nodes_marked: u64,
    /// Worker stacks scanned for roots, over all cycles.
    pub stacks_scanned: u64,
    pub alloc_per_op_bytes: u64,
    pub objects_per_op: u64,
    pub objects_allocated: u64,
    pub objects_freed: u64,
    /// Garbage not yet collected when the trial ended, counted by a final sweep.
    pub objects_outstanding: u64,
    pub bytes_allocated: u64,
    pub bytes_freed: u64,
    pub bytes_outstanding: u64,
    /// Objects a sweep kept because a stopped operation still held them.
    pub survivor_objects: u64,
    pub pinned: bool,
    /// The process's CPU time over what every logical CPU could have given during the trial
    /// (`top`'s 2266% of 4800% is 0.47); 0 where unknown (no `getrusage`, or a run saved
    /// before this column).
    #[serde(default)]
    pub cpu_share: f64,
}

crate::checked::checked_row!(
    Row, counts: [], amounts: [ops_per_sec, cycles_per_sec, pause_share, cpu_share], threads: [threads, mark_workers],
    cases: |row| (row.threads, row.ratio)
);

/// Everything a trial measured, before it becomes a row.
pub(super) struct MeasuredTrial<'a> {
    pub elapsed: Duration,
    pub pinned: bool,
    pub tallies: &'a [WorkerTally],
    pub outstanding: SweepResult,
    pub log: CycleLog,
    pub limits: HeapLimits,
    pub mark_workers: usize,
    pub peak_heap_bytes: u64,
    pub live_nodes: u64,
    /// Process CPU share over the trial ([`crate::usage::ProcessUsage::cpu_share`]).
    pub cpu_share: f64,
}

impl MeasuredTrial<'_> {
    /// What the workers' own sweeps found, summed.
    fn lazily_swept(&self) -> SweepResult {
        let mut swept = SweepResult::default();
        self.tallies.iter().for_each(|tally| swept += tally.refill.swept);
        swept
    }

    pub fn damaged_spans(&self) -> u64 {
        self.log.swept.damaged_spans + self.lazily_swept().damaged_spans + self.outstanding.damaged_spans
    }

    pub fn to_row(&self, (threads, ratio): (usize, GcRatio), round: usize, config: &Config) -> Row {
        let MeasuredTrial { elapsed, pinned, tallies, outstanding, log, limits, .. } = self;
        let seconds = elapsed.as_secs_f64();
        let mut freed = log.swept;
        freed += self.lazily_swept();
        let mut allocated = ObjectCount::default();
        tallies.iter().for_each(|tally| allocated += tally.allocated);
        let sum = |value: fn(&WorkerTally) -> Duration| tallies.iter().map(value).sum::<Duration>();
        let operations = tallies.iter().map(|tally| tally.operations).sum::<u64>();
        Row {
            threads: threads as u64,
            ratio,
            trial: round as u64,
            workload: config.workload,
            elapsed_ns: nanos(*elapsed),
            operations,
            ops_per_sec: operations as f64 / seconds,
            cycles: log.cycles,
            cycles_per_sec: log.cycles as f64 / seconds,
            ceiling_cycles: log.ceiling_cycles,
            pause_total_ns: nanos(log.pause_total),
            pause_max_ns: nanos(log.pause_max),
            pause_share: log.pause_total.as_secs_f64() / seconds,
            stop_ns: nanos(log.stop_total),
            mark_ns: nanos(log.mark_total),
            sweep_ns: nanos(log.sweep_total + sum(|tally| tally.refill.sweep)),
            refill_wait_ns: nanos(sum(|tally| tally.refill.lock_wait)),
            refills: tallies.iter().map(|tally| tally.refill.refills).sum(),
            mark_workers: self.mark_workers as u64,
            trigger_bytes: limits.trigger_bytes,
            peak_heap_bytes: self.peak_heap_bytes,
            ceiling_bytes: limits.ceiling_bytes,
            live_bytes: limits.live_bytes,
            live_nodes: self.live_nodes,
            nodes_marked: log.nodes_marked,
            stacks_scanned: log.stacks_scanned,
            alloc_per_op_bytes: config.alloc_per_op_bytes,
            objects_per_op: u64::from(config.objects_per_op),
            objects_allocated: allocated.objects,
            objects_freed: freed.freed.objects,
            objects_outstanding: outstanding.freed.objects,
            bytes_allocated: allocated.bytes,
            bytes_freed: freed.freed.bytes,
            bytes_outstanding: outstanding.freed.bytes,
            survivor_objects: freed.survivors,
            pinned: *pinned,
            cpu_share: self.cpu_share,
        }
    }
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}
