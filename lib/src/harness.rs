//! The timing harness every experiment shares: a team of pinned threads released together,
//! warm-up, a time budget, and progress reported through a callback (the lib never prints).
//!
//! # Timing model
//!
//! A trial spawns one thread per worker. Each worker pins itself to its own logical CPU
//! (distinct physical cores first, see [`crate::placement`]), then waits at a start gate;
//! when the last worker arrives all are released at once. Each worker reads the clock
//! right after the gate opens and right after its work. The trial's
//! elapsed time runs from the earliest start to the latest finish, so it covers the whole
//! time the workers overlapped and excludes thread creation and pinning. Each worker's
//! hardware counters ([`crate::perf`]) are opened before the gate and enabled after it, so
//! they count the same region.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

mod calibrate;
mod resolution;
pub use calibrate::{calibrate, calibrate_each, max_scale, MIN_TRIAL_TIME};
pub use resolution::{clock_resolution, ClockResolution};

use crate::error::RunError;
use crate::machine::available_cpu_ids;
use crate::perf::{TeamCounts, ThreadCounters};
use crate::placement::{cpu_list, Topology};

/// One step of progress, reported to the caller's callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressEvent {
    pub experiment: &'static str,
    /// Steps finished so far (1-based once the first step is done).
    pub done: usize,
    pub total: usize,
    /// What just finished, e.g. "stride 64 B, trial 3/5".
    pub label: String,
}

/// The callback experiments report progress through.
pub type Progress<'a> = &'a mut dyn FnMut(&ProgressEvent);

/// A progress callback that ignores every event (tests, notebooks that want quiet).
pub fn no_progress(_: &ProgressEvent) {}

/// How one team trial went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamTiming {
    /// From the earliest worker's release to the latest worker's finish.
    pub elapsed: Duration,
    /// Every worker was pinned to a distinct logical CPU.
    pub pinned: bool,
    /// The logical CPU each worker finished on, in worker order (where the OS tells).
    pub cpus: Vec<usize>,
    /// Hardware counts summed over the workers, for their work alone.
    pub counts: TeamCounts,
}

impl TeamTiming {
    /// The CPUs as a row records them ("0,2,4,6").
    pub fn cpu_list(&self) -> String {
        cpu_list(&self.cpus)
    }
}

/// Runs `work(worker_index)` on `threads` threads pinned to distinct logical CPUs (when
/// there are enough; distinct physical cores before SMT siblings) and released together.
/// See the module's timing model.
pub fn run_team<F>(experiment: &'static str, threads: usize, work: F) -> Result<TeamTiming, RunError>
where
    F: Fn(usize) + Sync,
{
    let cpus = Topology::of_this_machine().spread_order(&available_cpu_ids());
    let placement: Vec<Option<usize>> =
        (0..threads).map(|worker| cpus.get(worker % cpus.len().max(1)).copied()).collect();
    run_placed(experiment, &placement, work)
}

/// Like [`run_team`], with worker `i` pinned to logical CPU `cpu_ids[i]` (the ids the OS
/// uses, e.g. from `--cpus`): for experiments that measure particular pairs of CPUs.
pub fn run_team_on<F>(experiment: &'static str, cpu_ids: &[usize], work: F) -> Result<TeamTiming, RunError>
where
    F: Fn(usize) + Sync,
{
    let placement: Vec<Option<usize>> = cpu_ids.iter().map(|&id| Some(id)).collect();
    run_placed(experiment, &placement, work)
}

/// Like [`run_team`], with no worker pinned: the scheduler places them (where the OS offers
/// a lever short of pinning, each asks for the fastest cores). For the unpinned core-to-core
/// method, which reads where its threads ran.
pub fn run_team_unpinned<F>(experiment: &'static str, threads: usize, work: F) -> Result<TeamTiming, RunError>
where
    F: Fn(usize) + Sync,
{
    run_placed(experiment, &vec![None; threads], work)
}

fn run_placed<F>(experiment: &'static str, placement: &[Option<usize>], work: F) -> Result<TeamTiming, RunError>
where
    F: Fn(usize) + Sync,
{
    let threads = placement.len();
    let gate = StartGate::default();
    let results: Result<Vec<WorkerTiming>, RunError> = thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        for (worker, &cpu) in placement.iter().enumerate() {
            let (gate, work) = (&gate, &work);
            let spawned =
                thread::Builder::new().name(format!("{experiment}-{worker}")).spawn_scoped(scope, move || {
                    let pinned = match cpu {
                        Some(cpu) => crate::platform::pin_current_thread(cpu).is_ok(),
                        None => {
                            crate::platform::ask_for_fast_cores();
                            false
                        }
                    };
                    let counters = ThreadCounters::open();
                    if !gate.arrive_and_wait() {
                        return None;
                    }
                    counters.enable();
                    let start = Instant::now();
                    work(worker);
                    let end = Instant::now();
                    let counts = counters.finish();
                    Some(WorkerTiming { pinned, start, end, cpu: current_cpu().or(cpu), counts })
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(source) => {
                    // Release the workers already waiting so the scope can join them.
                    gate.abort();
                    return Err(RunError::Spawn { experiment, source });
                }
            }
        }
        gate.open_when_all_arrived(threads);
        handles
            .into_iter()
            .map(|handle| match handle.join() {
                Ok(Some(timing)) => Ok(timing),
                _ => Err(RunError::WorkerPanicked { experiment }),
            })
            .collect()
    });
    let results = results?;
    let distinct = placement.iter().enumerate().all(|(i, cpu)| !placement[..i].contains(cpu));
    let pinned = distinct && results.iter().all(|worker| worker.pinned);
    let earliest = results.iter().map(|worker| worker.start).min();
    let latest = results.iter().map(|worker| worker.end).max();
    let elapsed = match (earliest, latest) {
        (Some(start), Some(end)) => end.saturating_duration_since(start),
        _ => Duration::ZERO,
    };
    let counts = results.iter().map(|worker| worker.counts).reduce(TeamCounts::plus).unwrap_or(TeamCounts::UNAVAILABLE);
    Ok(TeamTiming { elapsed, pinned, cpus: results.iter().filter_map(|worker| worker.cpu).collect(), counts })
}

/// What one worker reports back: whether its pin took, its clock readings, its CPU.
#[derive(Debug, Clone, Copy)]
struct WorkerTiming {
    pinned: bool,
    start: Instant,
    end: Instant,
    cpu: Option<usize>,
    counts: TeamCounts,
}

/// The logical CPU the calling thread runs on now.
fn current_cpu() -> Option<usize> {
    crate::platform::current_cpu().ok()
}

/// Releases all workers at once, or tells them to give up if the team could not be built.
/// Workers spin (yielding, so oversubscribed teams still progress) rather than sleep on a
/// condition variable, because waking sleepers one by one would stagger the start.
#[derive(Debug, Default)]
struct StartGate {
    arrived: AtomicUsize,
    state: AtomicU8,
}

const GATE_CLOSED: u8 = 0;
const GATE_OPEN: u8 = 1;
const GATE_ABORTED: u8 = 2;

impl StartGate {
    /// Returns true when released to work, false when the trial was aborted.
    fn arrive_and_wait(&self) -> bool {
        self.arrived.fetch_add(1, Ordering::AcqRel);
        loop {
            match self.state.load(Ordering::Acquire) {
                GATE_CLOSED => thread::yield_now(),
                state => return state == GATE_OPEN,
            }
        }
    }

    fn open_when_all_arrived(&self, threads: usize) {
        while self.arrived.load(Ordering::Acquire) < threads {
            thread::yield_now();
        }
        self.state.store(GATE_OPEN, Ordering::Release);
    }

    fn abort(&self) {
        self.state.store(GATE_ABORTED, Ordering::Release);
    }
}

/// Calls `round` repeatedly until `warmup` has passed (at least once), so caches, page
/// mappings and CPU frequency settle before the measured trials.
pub fn warm_up<E>(warmup: Duration, mut round: impl FnMut() -> Result<(), E>) -> Result<(), E> {
    let start = Instant::now();
    loop {
        round()?;
        if start.elapsed() >= warmup {
            return Ok(());
        }
    }
}

/// A wall-clock allowance for a whole experiment, checked before each trial.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    start: Instant,
    budget: Duration,
}

impl Deadline {
    pub fn after(budget: Duration) -> Self {
        Self { start: Instant::now(), budget }
    }

    pub fn expired(&self) -> bool {
        self.start.elapsed() >= self.budget
    }

    /// What is left of the budget (zero once spent): the longest a trial started now may run
    /// before it is cut.
    pub fn remaining(&self) -> Duration {
        self.budget.saturating_sub(self.start.elapsed())
    }
}

/// Rows reserved up front at most: a huge trial count grows the vector as rows arrive
/// instead of asking for (and failing to get) all its memory at once.
pub const MAX_PREALLOCATED_ROWS: usize = 1 << 16;

/// Runs `trials` rounds over `cases`: round 1 over every case, then round 2, ..., so a slow
/// drift of the machine affects every case alike. The budget is checked before every trial
/// but the first: a round is not started once it is spent, and a round under way stops at
/// it too (however many cases the lists made), so the experiment outlives its budget by at
/// most the one trial that was running. Progress names each step "<label(case)>, trial t/n".
pub fn interleaved_trials<Case, Row>(
    experiment: &'static str,
    cases: &[Case],
    trials: usize,
    budget: Duration,
    progress: Progress,
    label: impl Fn(&Case) -> String,
    mut measure: impl FnMut(&Case, usize) -> Result<Row, RunError>,
) -> Result<Outcome<Row>, RunError> {
    let deadline = Deadline::after(budget);
    let total = trials.saturating_mul(cases.len());
    let mut rows = Vec::with_capacity(total.min(MAX_PREALLOCATED_ROWS));
    for trial in 0..trials {
        for case in cases {
            if !rows.is_empty() && deadline.expired() {
                return Ok(Outcome { rows, budget_exhausted: true });
            }
            rows.push(measure(case, trial)?);
            let label = format!("{}, trial {}/{trials}", label(case), trial + 1);
            progress(&ProgressEvent { experiment, done: rows.len(), total, label });
        }
    }
    Ok(Outcome { rows, budget_exhausted: false })
}

/// What an experiment measured, and whether its time budget cut it short (then some
/// cases have fewer trials than configured; every row present is still complete).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome<Row> {
    pub rows: Vec<Row>,
    pub budget_exhausted: bool,
}
