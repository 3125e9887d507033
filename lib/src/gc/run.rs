//! Running the sweep: one trial per (threads, ratio) cell and round, each checked before
//! its row is kept.
//!
//! # Timing model
//!
//! A trial releases `threads` workers together (the harness's start gate); each runs
//! operations until its own start plus [`Config::trial`], collections included (a cycle
//! under way at the deadline finishes first). Throughput is all operations over the
//! harness's elapsed time, from the earliest start to the latest finish. Pauses are timed
//! by the collector from raising the stop flag to waking the workers.

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use super::collector::{CycleLog, World};
use super::config::{Config, GcRatio, Workload};
use super::heap::{Heap, HeapLimits, ObjectCount};
use super::live::LiveGraph;
use super::mutator::{object_sizes, run_worker, Shared, WorkerTally};
use super::trigger::trigger_bytes;
use super::verify::{verify, Evidence};
use super::workload::Work;
use super::EXPERIMENT;
use crate::error::RunError;
use crate::harness::{run_team, warm_up, Outcome, Progress, ProgressEvent};

/// Seed of the live graph's links, fixed so every run traces the same shape.
const GRAPH_SEED: u64 = 0x0067_632d_6c69_7665;

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
    pub collections: u64,
    pub collections_per_sec: f64,
    /// Collections whose trigger the ceiling set (ratio `off`, or a ratio beyond it).
    pub ceiling_collections: u64,
    pub pause_total_ns: u64,
    pub pause_max_ns: u64,
    /// Total pause over elapsed time.
    pub pause_share: f64,
    /// Parts of the pause: waiting for safepoints, tracing, sweeping.
    pub stop_total_ns: u64,
    pub trace_total_ns: u64,
    pub sweep_total_ns: u64,
    /// Allocation between cycles that starts the next one (span bytes).
    pub trigger_bytes: u64,
    /// Live graph plus every span the heap held at its fullest.
    pub peak_heap_bytes: u64,
    pub ceiling_bytes: u64,
    pub live_bytes: u64,
    pub live_nodes: u64,
    pub nodes_traced: u64,
    pub alloc_per_op_bytes: u64,
    pub objects_allocated: u64,
    pub objects_freed: u64,
    /// Garbage not yet collected when the trial ended, counted by a final sweep.
    pub objects_outstanding: u64,
    pub bytes_allocated: u64,
    pub bytes_freed: u64,
    pub bytes_outstanding: u64,
    /// Workers found mid-operation while the world was stopped (always 0 in a kept row).
    pub mid_operation_at_stop: u64,
    pub pinned: bool,
    /// Every check below [`run`] passed.
    pub verified: bool,
}

/// Runs the sweep. Trials are interleaved (round 1 over every cell, then round 2, ...) so a
/// slow drift of the machine affects every cell alike.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let work = Work::new(config.workload)?;
    let live = Mutex::new(LiveGraph::build(config.live_bytes, GRAPH_SEED));
    let sizes = object_sizes(config.alloc_per_op_bytes, config.objects_per_op);
    let cells: Vec<(usize, GcRatio)> =
        config.threads.iter().flat_map(|&threads| config.ratios.iter().map(move |&ratio| (threads, ratio))).collect();
    let most_threads = config.threads.iter().copied().max().unwrap_or(1);
    let warm_trial = config.trial.min(Duration::from_millis(100));
    warm_up(config.warmup, || {
        let cell = (most_threads, config.ratios[0]);
        measure(&Trial { config, live: &live, work: &work, sizes: &sizes, length: warm_trial }, cell, 0).map(drop)
    })?;
    let trial = Trial { config, live: &live, work: &work, sizes: &sizes, length: config.trial };
    let started = Instant::now();
    let total = config.trials * cells.len();
    let mut rows = Vec::with_capacity(total);
    for round in 0..config.trials {
        // A round is only started when one more like the last still fits the budget.
        let elapsed = started.elapsed();
        if round > 0 && elapsed + elapsed / round as u32 > config.budget {
            return Ok(Outcome { rows, budget_exhausted: true });
        }
        for &(threads, ratio) in &cells {
            rows.push(measure(&trial, (threads, ratio), round)?);
            progress(&ProgressEvent {
                experiment: EXPERIMENT,
                done: rows.len(),
                total,
                label: format!("{threads} threads, ratio {ratio}, trial {}/{}", round + 1, config.trials),
            });
        }
    }
    Ok(Outcome { rows, budget_exhausted: false })
}

/// What every trial of a run shares.
struct Trial<'a> {
    config: &'a Config,
    live: &'a Mutex<LiveGraph>,
    work: &'a Work,
    sizes: &'a [usize],
    length: Duration,
}

fn measure(trial: &Trial<'_>, (threads, ratio): (usize, GcRatio), round: usize) -> Result<Row, RunError> {
    let shared = Shared {
        heap: Heap::new(heap_limits(trial, ratio)),
        world: World::new(threads),
        live: trial.live,
        work: trial.work,
        object_sizes: trial.sizes,
        mid_operation: (0..threads).map(|_| CachePadded::new(AtomicBool::new(false))).collect(),
        log: Mutex::default(),
        tallies: Mutex::new(vec![WorkerTally::default(); threads]),
    };
    let timing = run_team(EXPERIMENT, threads, |worker| run_worker(&shared, worker, Instant::now() + trial.length))?;
    // After the trial, outside the timed window: count the garbage left and trace again.
    let outstanding = shared.heap.sweep();
    let (live_nodes, expected_nodes) = {
        let mut live = trial.live.lock().unwrap_or_else(PoisonError::into_inner);
        (live.trace(), live.node_count())
    };
    let log = *shared.log.lock().unwrap_or_else(PoisonError::into_inner);
    let tallies = shared.tallies.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut allocated = ObjectCount::default();
    tallies.iter().for_each(|tally| allocated += tally.allocated);
    let measured = Measured {
        elapsed: timing.elapsed.max(Duration::from_nanos(1)),
        pinned: timing.pinned,
        operations: tallies.iter().map(|tally| tally.operations).sum(),
        allocated,
        outstanding: outstanding.freed,
        log,
        limits: shared.heap.limits(),
        peak_heap_bytes: shared.heap.peak_bytes(),
        live_nodes,
    };
    let row = measured.into_row((threads, ratio), round, trial.config);
    let evidence = Evidence {
        expected_nodes,
        damaged_spans: log.damaged_spans + outstanding.damaged_spans,
        trace_mismatches: log.trace_mismatches,
        work: trial.work,
        tallies: &tallies,
    };
    verify(&row, trial.config, &evidence)?;
    Ok(Row { verified: true, ..row })
}

/// Everything a trial measured, before it becomes a row.
struct Measured {
    elapsed: Duration,
    pinned: bool,
    operations: u64,
    allocated: ObjectCount,
    outstanding: ObjectCount,
    log: CycleLog,
    limits: HeapLimits,
    peak_heap_bytes: u64,
    live_nodes: u64,
}

impl Measured {
    fn into_row(self, (threads, ratio): (usize, GcRatio), round: usize, config: &Config) -> Row {
        let Measured { elapsed, pinned, operations, allocated, outstanding, log, limits, peak_heap_bytes, live_nodes } =
            self;
        let seconds = elapsed.as_secs_f64();
        Row {
            threads: threads as u64,
            ratio,
            trial: round as u64,
            workload: config.workload,
            elapsed_ns: elapsed.as_nanos() as u64,
            operations,
            ops_per_sec: operations as f64 / seconds,
            collections: log.collections,
            collections_per_sec: log.collections as f64 / seconds,
            ceiling_collections: log.forced_by_ceiling,
            pause_total_ns: log.pause_total.as_nanos() as u64,
            pause_max_ns: log.pause_max.as_nanos() as u64,
            pause_share: log.pause_total.as_secs_f64() / seconds,
            stop_total_ns: log.stop_total.as_nanos() as u64,
            trace_total_ns: log.trace_total.as_nanos() as u64,
            sweep_total_ns: log.sweep_total.as_nanos() as u64,
            trigger_bytes: limits.trigger_bytes,
            peak_heap_bytes,
            ceiling_bytes: limits.ceiling_bytes,
            live_bytes: limits.live_bytes,
            live_nodes,
            nodes_traced: log.nodes_traced,
            alloc_per_op_bytes: config.alloc_per_op_bytes,
            objects_allocated: allocated.objects,
            objects_freed: log.freed.objects,
            objects_outstanding: outstanding.objects,
            bytes_allocated: allocated.bytes,
            bytes_freed: log.freed.bytes,
            bytes_outstanding: outstanding.bytes,
            mid_operation_at_stop: log.mid_operation_at_stop,
            pinned,
            verified: false,
        }
    }
}

/// The heap's sizes for one ratio: the pacer's trigger, capped by the ceiling.
fn heap_limits(trial: &Trial<'_>, ratio: GcRatio) -> HeapLimits {
    let config = trial.config;
    let live_bytes = trial.live.lock().unwrap_or_else(PoisonError::into_inner).bytes();
    let trigger = trigger_bytes(live_bytes, ratio, config.min_heap_bytes, config.ceiling_bytes);
    HeapLimits {
        live_bytes,
        trigger_bytes: trigger,
        ceiling_bytes: config.ceiling_bytes,
        span_bytes: config.span_bytes(),
        trigger_from_ceiling: trigger_bytes(live_bytes, ratio, config.min_heap_bytes, u64::MAX) > trigger,
    }
}
