//! The hand-over between the owner of the working set and the other thread, one trial per
//! case and round (see the module's timing model).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use super::chase::{Evictor, WorkingSet};
use super::config::{Config, Evicts};
use super::{Row, EXPERIMENT, WARM_PASSES};
use crate::error::RunError;
use crate::harness::{interleaved_trials, warm_up, Outcome, Progress};
use crate::machine::available_cpu_ids;
use crate::usage::ProcessUsage;

/// Seeds each working set's cycle, fixed so runs compare.
const SEED: u64 = 0x5EED_CAC4_E5E7;

/// One case: a working set and what the other thread touches.
#[derive(Debug, Clone, Copy)]
struct Case {
    set: usize,
    evicts: Evicts,
}

/// Builds every working set and buffer first (their pages faulted in outside any timing),
/// then runs each case `trials` times, interleaved, the rounds paced over the run (see
/// [`round_start`]).
pub fn run(config: &Config, progress: Progress) -> Result<Outcome<Row>, RunError> {
    config.validate()?;
    let sets: Vec<WorkingSet> = config
        .working_sets_bytes
        .iter()
        .enumerate()
        .map(|(index, &bytes)| WorkingSet::new(bytes, config.line_bytes, SEED + index as u64))
        .collect();
    let mut evictors: Vec<(Evicts, Option<Evictor>)> = config
        .evicts
        .iter()
        .map(|&evicts| {
            let bytes = config.evict_bytes(evicts);
            (evicts, (bytes > 0).then(|| Evictor::new(bytes, config.line_bytes)))
        })
        .collect();
    let cpu = available_cpu_ids().last().copied();
    let cases: Vec<Case> =
        (0..sets.len()).flat_map(|set| config.evicts.iter().map(move |&evicts| Case { set, evicts })).collect();
    let mut trial = |case: &Case, round: usize| -> Result<Row, RunError> {
        let evictor = evictors.iter_mut().find(|(evicts, _)| *evicts == case.evicts).and_then(|(_, e)| e.as_mut());
        let set = &sets[case.set];
        let exchange = exchange(set, evictor, cpu, round)?;
        if exchange.ended_at != [0, 0] {
            return Err(RunError::Verification {
                experiment: EXPERIMENT,
                case: format!(
                    "{} lines, other thread {}: the pass did not come back to its start",
                    set.lines(),
                    case.evicts
                ),
                trial: round,
                expected: 0,
                actual: exchange.ended_at.into_iter().max().unwrap_or(0) as u64,
            });
        }
        Ok(Row {
            working_set_bytes: config.working_sets_bytes[case.set] as u64,
            lines: set.lines() as u64,
            line_bytes: config.line_bytes as u64,
            evicts: case.evicts,
            evict_bytes: config.evict_bytes(case.evicts) as u64,
            trial: round as u64,
            warm_ns_per_line: exchange.warm.as_nanos() as f64 / (WARM_PASSES * set.lines()) as f64,
            switched_ns_per_line: exchange.switched.as_nanos() as f64 / set.lines() as f64,
            switches: exchange.switches,
            pinned: exchange.pinned,
            cpu: cpu.map_or(0, |cpu| cpu as u64),
        })
    };
    warm_up(config.warmup, || cases.iter().try_for_each(|case| trial(case, 0).map(drop)))?;
    let describe = |case: &Case| format!("{} B set, other thread {}", config.working_sets_bytes[case.set], case.evicts);
    let paced_from = Instant::now();
    let paced = |case: &Case, round: usize| {
        if std::ptr::eq(case, &cases[0]) {
            wait_until(round_start(paced_from, config, round));
        }
        trial(case, round)
    };
    interleaved_trials(EXPERIMENT, &cases, config.trials, config.budget, progress, describe, paced)
}

/// When round `round` may start: the rounds are spread evenly over half the budget, so C8's
/// trials (one per round) come from the whole run, not from one moment of it, and the
/// bootstrap over rounds sees the machine's drift (as the pool's switch probes, one before
/// each run of a case). A round that is late starts at once.
fn round_start(from: Instant, config: &Config, round: usize) -> Instant {
    let spread = config.budget / 2;
    from + spread.mul_f64(round as f64 / config.trials.max(1) as f64)
}

/// Waits (asleep: nothing is timed meanwhile) until `at`.
fn wait_until(at: Instant) {
    let now = Instant::now();
    if at > now {
        thread::sleep(at - now);
    }
}

/// What one hand-over measured.
struct Exchange {
    warm: Duration,
    switched: Duration,
    /// Where the warm passes and the pass after the switch ended (0: back at the start).
    ended_at: [usize; 2],
    switches: u64,
    pinned: bool,
}

/// The owner (player 0) walks `set` warm, hands the CPU to the other thread (player 1), which
/// touches `evictor` (or nothing) and hands it back; the owner walks `set` again.
fn exchange(
    set: &WorkingSet,
    evictor: Option<&mut Evictor>,
    cpu: Option<usize>,
    round: usize,
) -> Result<Exchange, RunError> {
    let turn = AtomicU64::new(0);
    let handles: [OnceLock<Thread>; 2] = [OnceLock::new(), OnceLock::new()];
    let pin = || cpu.is_some_and(|cpu| crate::platform::pin_current_thread(cpu).is_ok());
    thread::scope(|scope| {
        let (turn, handles) = (&turn, &handles);
        let other = thread::Builder::new().name(format!("{EXPERIMENT}-other")).spawn_scoped(scope, move || {
            let pinned = pin();
            let _ = handles[1].set(thread::current());
            wait_for(turn, 1);
            if let Some(evictor) = evictor {
                evictor.touch(round);
            }
            hand_over(turn, &handles[0], 2);
            pinned
        });
        let spawn_failed = |source| RunError::Spawn { experiment: EXPERIMENT, source };
        let other = other.map_err(spawn_failed)?;
        let owner = thread::Builder::new().name(format!("{EXPERIMENT}-owner")).spawn_scoped(scope, move || {
            let pinned = pin();
            let _ = handles[0].set(thread::current());
            set.chase(2);
            let started = Instant::now();
            let warm_end = set.chase(WARM_PASSES);
            let warm = started.elapsed();
            let before = ProcessUsage::now();
            hand_over(turn, &handles[1], 1);
            wait_for(turn, 2);
            let started = Instant::now();
            let switched_end = set.chase(1);
            let switched = started.elapsed();
            let used = ProcessUsage::now().zip(before).map(|(after, before)| after.since(&before));
            let switches = used.map_or(0, |used| used.voluntary_switches + used.involuntary_switches);
            Exchange { warm, switched, ended_at: [warm_end, switched_end], switches, pinned }
        });
        let owner = match owner {
            Ok(owner) => owner,
            Err(source) => {
                // Let the other thread finish: its hand-back then wakes this thread instead.
                let _ = handles[0].set(thread::current());
                hand_over(turn, &handles[1], 1);
                let _ = other.join();
                return Err(spawn_failed(source));
            }
        };
        let panicked = |_| RunError::WorkerPanicked { experiment: EXPERIMENT };
        let (owner, other) = (owner.join().map_err(panicked), other.join().map_err(panicked));
        let (mut exchange, other_pinned) = (owner?, other?);
        exchange.pinned &= other_pinned;
        Ok(exchange)
    })
}

/// Sleeps until the turn counter reaches `mine`.
fn wait_for(turn: &AtomicU64, mine: u64) {
    while turn.load(Ordering::Acquire) != mine {
        thread::park();
    }
}

/// Passes the turn to `next` and wakes the thread in `other` (waiting until it has
/// registered, on the first hand-over).
fn hand_over(turn: &AtomicU64, other: &OnceLock<Thread>, next: u64) {
    turn.store(next, Ordering::Release);
    loop {
        match other.get() {
            Some(thread) => return thread.unpark(),
            None => thread::yield_now(),
        }
    }
}
