//! Running the sweep: one trial per (threads, ratio) cell and round, each checked before
//! its row is kept.
//!
//! # Timing model
//!
//! A trial releases `threads` workers together (the harness's start gate); each runs
//! operations until its own start plus [`Config::trial`], cycles included (an operation
//! under way at the deadline finishes first). Throughput is all operations over the
//! harness's elapsed time, from the earliest start to the latest finish. Pauses are timed
//! by the collector from raising the stop flag to waking the workers; refill waits and
//! lazy sweeps by each worker around its own lock and sweep calls. The process's CPU share
//! is its CPU time (`getrusage`, every thread) over the team's wall time x the logical
//! CPUs, what `top` showed the article as 2266% of 4800%. The live graph and the
//! heap's spans outlive the trials, so later trials run on warm memory.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use super::collector::World;
use super::config::{Config, GcRatio};
use super::handler::Handlers;
use super::heap::{Heap, HeapLimits, SpanPool};
use super::live::LiveGraph;
use super::mark::{mark_workers, MarkPhase, Stack};
use super::mutator::{object_sizes, run_worker, Shared, WorkerTally};
use super::row::MeasuredTrial;
pub use super::row::Row;
use super::trigger::trigger_bytes;
use super::verify::{verify, TrialChecks};
use super::workload::Work;
use super::EXPERIMENT;
use crate::error::RunError;
use crate::harness::{run_team, warm_up, Outcome, Progress, ProgressEvent};
use crate::machine::logical_cpus;
use crate::usage::ProcessUsage;

/// Seed of the live graph's links, fixed so every run traces the same shape.
const GRAPH_SEED: u64 = 0x0067_632d_6c69_7665;

/// Runs the sweep. Trials are interleaved (round 1 over every cell, then round 2, ...) so a
/// slow drift of the machine affects every cell alike.
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let work = Work::new(config.workload)?;
    let live = LiveGraph::build(config.live_bytes, GRAPH_SEED);
    let sizes = object_sizes(config.alloc_per_op_bytes, config.objects_per_op);
    let cells: Vec<(usize, GcRatio)> =
        config.threads.iter().flat_map(|&threads| config.ratios.iter().map(move |&ratio| (threads, ratio))).collect();
    let most_threads = config.threads.iter().copied().max().unwrap_or(1);
    let mut pool = SpanPool::default();
    let warm = Trial {
        config,
        live: &live,
        work: &work,
        sizes: &sizes,
        length: config.trial.min(Duration::from_millis(100)),
        handlers: None,
    };
    warm_up(config.warmup, || measure(&warm, &mut pool, (most_threads, config.ratios[0]), 0).map(drop))?;
    let trial = Trial { length: config.trial, ..warm };
    let started = Instant::now();
    let total = config.trials * cells.len();
    let mut rows = Vec::with_capacity(total.min(crate::harness::MAX_PREALLOCATED_ROWS));
    for round in 0..config.trials {
        // A round is only started when one more like the last still fits the budget.
        let elapsed = started.elapsed();
        if round > 0 && elapsed + elapsed / round as u32 > config.budget {
            return Ok(Outcome { rows, budget_exhausted: true });
        }
        for &(threads, ratio) in &cells {
            // Within a round too: a long list of cells stops at the budget, one trial late at most.
            if !rows.is_empty() && started.elapsed() >= config.budget {
                return Ok(Outcome { rows, budget_exhausted: true });
            }
            rows.push(measure(&trial, &mut pool, (threads, ratio), round)?);
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
#[derive(Clone, Copy)]
struct Trial<'a> {
    config: &'a Config,
    live: &'a LiveGraph,
    work: &'a Work,
    sizes: &'a [usize],
    length: Duration,
    handlers: Option<Handlers<'a>>,
}

/// Trials of request handlers on the sweep's collector (the allocation challenge): the
/// live graph, the work and the spans built once and kept warm across trials.
#[derive(Debug)]
pub struct HandlerBench {
    config: Config,
    live: LiveGraph,
    work: Work,
    sizes: Vec<usize>,
    pool: SpanPool,
}

impl HandlerBench {
    pub fn new(config: &Config) -> Result<Self, RunError> {
        config.validate()?;
        Ok(Self {
            config: config.clone(),
            live: LiveGraph::build(config.live_bytes, GRAPH_SEED),
            work: Work::new(config.workload)?,
            sizes: object_sizes(config.alloc_per_op_bytes, config.objects_per_op),
            pool: SpanPool::default(),
        })
    }

    /// The work every handler signs with.
    pub fn work(&self) -> &Work {
        &self.work
    }

    /// One trial of `handlers` at `threads` and `ratio`, checked as the sweep's trials are
    /// (less the fixed objects per operation: a handler allocates what it chooses).
    pub fn trial(
        &mut self,
        handlers: Handlers<'_>,
        (threads, ratio): (usize, GcRatio),
        round: usize,
    ) -> Result<Row, RunError> {
        let trial = Trial {
            config: &self.config,
            live: &self.live,
            work: &self.work,
            sizes: &self.sizes,
            length: self.config.trial,
            handlers: Some(handlers),
        };
        measure(&trial, &mut self.pool, (threads, ratio), round)
    }
}

fn measure(
    trial: &Trial<'_>,
    pool: &mut SpanPool,
    (threads, ratio): (usize, GcRatio),
    round: usize,
) -> Result<Row, RunError> {
    let shared = Shared {
        heap: Heap::new(heap_limits(trial, ratio), std::mem::take(pool)),
        world: World::new(threads),
        live: trial.live,
        stacks: (0..threads)
            .map(|worker| CachePadded::new(Mutex::new(Stack::new(trial.live, worker as u64 + 1))))
            .collect(),
        marking: MarkPhase::default(),
        mark_workers: mark_workers(threads),
        work: trial.work,
        object_sizes: trial.sizes,
        log: Mutex::default(),
        handlers: trial.handlers,
        tallies: Mutex::new(vec![WorkerTally::default(); threads]),
    };
    // The process's CPU time over the team's whole life (thread start-up included, a few
    // microseconds against a trial of a quarter second or more) against the wall time.
    let (usage_before, started) = (ProcessUsage::now(), Instant::now());
    let timing = run_team(EXPERIMENT, threads, |worker| run_worker(&shared, worker, Instant::now() + trial.length))?;
    let wall = started.elapsed();
    let cpu_share = ProcessUsage::now()
        .zip(usage_before)
        .map_or(0.0, |(after, before)| after.since(&before).cpu_share(wall, logical_cpus()));
    // After the trial, outside the timed window: sweep what is left and trace again.
    let limits = shared.heap.limits();
    let peak_heap_bytes = shared.heap.peak_bytes();
    let (returned, outstanding) = shared.heap.into_pool();
    *pool = returned;
    let live_nodes = trial.live.trace();
    let log = shared.log.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let tallies = shared.tallies.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let measured = MeasuredTrial {
        elapsed: timing.elapsed.max(Duration::from_nanos(1)),
        pinned: timing.pinned,
        tallies: &tallies,
        outstanding,
        log,
        limits,
        mark_workers: shared.mark_workers,
        peak_heap_bytes,
        live_nodes,
        cpu_share,
    };
    let row = measured.to_row((threads, ratio), round, trial.config);
    let evidence = TrialChecks {
        expected_nodes: trial.live.node_count(),
        damaged_spans: measured.damaged_spans(),
        mark_mismatches: log.mark_mismatches,
        work: trial.work,
        tallies: &tallies,
        fixed_operation: trial.handlers.is_none(),
    };
    verify(&row, trial.config, &evidence)?;
    Ok(row)
}

/// The heap's sizes for one ratio: the pacer's trigger, capped by the ceiling.
fn heap_limits(trial: &Trial<'_>, ratio: GcRatio) -> HeapLimits {
    let config = trial.config;
    let live_bytes = trial.live.bytes();
    let trigger = trigger_bytes(live_bytes, ratio, config.min_heap_bytes, config.ceiling_bytes);
    HeapLimits {
        live_bytes,
        trigger_bytes: trigger,
        ceiling_bytes: config.ceiling_bytes,
        span_bytes: config.span_bytes(),
        trigger_from_ceiling: trigger_bytes(live_bytes, ratio, config.min_heap_bytes, u64::MAX) > trigger,
    }
}
