//! The unpinned method, for an OS that will not pin (macOS) or by choice (`--unpinned`):
//! the same two loops as the pinned method (see [`super::hops`]), on two threads the
//! scheduler places where it will. Each thread reads the CPU it runs on (through the
//! platform layer) before and after every sample; a sample where either thread moved, or
//! where both ran on one CPU, is kept as a dropped row (counted, never summarised). The pair
//! of a sample is the two CPUs the threads ran on, so pairs fill as the scheduler places the
//! threads: each batch of samples runs on two fresh threads, placed anew.
//!
//! The method runs until every pair it has seen holds `samples_per_pair` kept samples and
//! either every pair of the machine's CPUs was seen or [`PATIENCE_BATCHES`] batches in a row
//! found no new pair, or until the budget ends. The pairs never seen are named by the
//! finding. The idea and its check (drop a sample whose thread moved) are
//! hydroo/macos-core-to-core-latency's.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::hops::{Flags, SampleNs, Turns};
use super::{Config, Row, EXPERIMENT};
use crate::error::RunError;
use crate::harness::{run_team_unpinned, Deadline, Outcome, Progress, ProgressEvent};
use crate::limits::MAX_ROWS;
use crate::platform::{current_cpu, CoreKinds};

/// Samples each team of two threads takes, after one dropped warm-up sample.
pub const SAMPLES_PER_BATCH: usize = 20;
/// Batches in a row without a new pair after which the seen pairs are taken as all the
/// scheduler will give (once each holds its samples).
pub const PATIENCE_BATCHES: usize = 20;

/// A thread's CPU before and after one sample (`None`: the OS did not say).
type Placement = (Option<usize>, Option<usize>);
/// One sample's timings with the initiator's and the responder's placements.
type PlacedSample = (SampleNs, (Placement, Placement));

/// Measures the pairs the scheduler gives. `cpus` are the machine's CPUs, whose pairs the
/// method hopes to see; `kinds` labels each pair by its cores' kinds where the OS names them.
pub(super) fn run(config: &Config, cpus: &[usize], progress: Progress) -> Result<Outcome<Row>, RunError> {
    let kinds = crate::platform::core_kinds().ok();
    let wanted = super::pairs(cpus).len();
    let deadline = Deadline::after(config.budget);
    let mut rows: Vec<Row> = Vec::new();
    let mut taken: BTreeMap<(u64, u64), (u64, usize)> = BTreeMap::new();
    let (mut quiet_batches, mut batch) = (0, 0);
    loop {
        batch += 1;
        let pairs_before = taken.len();
        for (sample, placement) in measure_batch(config)? {
            let row = row_of(config, sample, placement, kinds.as_ref(), &mut taken);
            rows.push(row);
        }
        quiet_batches = if taken.len() > pairs_before { 0 } else { quiet_batches + 1 };
        // A pair is seen once it holds a kept sample (both threads on its CPUs, neither moved).
        let seen: Vec<usize> =
            taken.iter().filter(|((a, b), &(_, kept))| a != b && kept > 0).map(|(_, c)| c.1).collect();
        let full = !seen.is_empty() && seen.iter().all(|&kept| kept >= config.samples_per_pair);
        let seen = seen.len();
        progress(&ProgressEvent {
            experiment: EXPERIMENT,
            done: batch,
            total: batch + usize::from(!full),
            label: format!("{seen} pairs seen of {wanted}"),
        });
        if full && (seen >= wanted || quiet_batches >= PATIENCE_BATCHES) {
            return Ok(Outcome { rows, budget_exhausted: false });
        }
        if deadline.expired() || rows.len() + SAMPLES_PER_BATCH > MAX_ROWS {
            return Ok(Outcome { rows, budget_exhausted: true });
        }
    }
}

/// One row for one sample; `taken` counts each pair's rows and kept samples so far.
fn row_of(
    config: &Config,
    ns: SampleNs,
    (initiator, responder): (Placement, Placement),
    kinds: Option<&CoreKinds>,
    taken: &mut BTreeMap<(u64, u64), (u64, usize)>,
) -> Row {
    let (a, b) = (initiator.0.unwrap_or(usize::MAX), responder.0.unwrap_or(usize::MAX));
    let moved =
        initiator.0.is_none() || initiator.0 != initiator.1 || responder.0.is_none() || responder.0 != responder.1;
    let dropped = moved || a == b;
    let (low, high) = (a.min(b) as u64, a.max(b) as u64);
    let counts = taken.entry((low, high)).or_insert((0, 0));
    let sample = counts.0;
    counts.0 += 1;
    if !dropped {
        counts.1 += 1;
    }
    let round_trips = config.round_trips_per_sample;
    let one_way = |elapsed_ns: u64| elapsed_ns as f64 / (2 * round_trips) as f64;
    Row {
        cpu_a: low,
        cpu_b: high,
        sample,
        round_trips,
        elapsed_ns: ns.handshake,
        one_way_ns: one_way(ns.handshake),
        cas_elapsed_ns: ns.cas,
        cas_one_way_ns: one_way(ns.cas),
        pinned: false,
        unpinned_method: true,
        dropped,
        kinds: pair_kinds(kinds, low as usize, high as usize),
    }
}

/// The CPUs whose pairs the method hopes to see: those this process may run on where the OS
/// names them, otherwise every online CPU (numbered from 0, as the CPU number reads them).
pub fn machine_cpus() -> Vec<usize> {
    let named = crate::machine::available_cpu_ids();
    if !named.is_empty() {
        return named;
    }
    let online = crate::platform::cpu_facts().online_cpus;
    (0..online.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |count| count.get()))).collect()
}

/// "P-P", "P-E" or "E-E" where the OS names both CPUs' kinds; empty otherwise.
pub(super) fn pair_kinds(kinds: Option<&CoreKinds>, a: usize, b: usize) -> String {
    let kind = |cpu: usize| {
        let kinds = kinds?;
        if kinds.performance.contains(&cpu) {
            Some('P')
        } else {
            kinds.efficiency.contains(&cpu).then_some('E')
        }
    };
    match (kind(a), kind(b)) {
        (Some('E'), Some('P')) => "P-E".to_string(),
        (Some(first), Some(second)) => format!("{first}-{second}"),
        _ => String::new(),
    }
}

/// One team of two unpinned threads: a warm-up sample, then [`SAMPLES_PER_BATCH`], each
/// with both threads' CPU before and after it.
fn measure_batch(config: &Config) -> Result<Vec<PlacedSample>, RunError> {
    let flags = Flags::default();
    let samples = SAMPLES_PER_BATCH + 1;
    let round_trips = config.round_trips_per_sample;
    let initiated = Mutex::new(Vec::new());
    let responded = Mutex::new(Vec::new());
    run_team_unpinned(EXPERIMENT, 2, |worker| {
        let mut turns = if worker == 0 { Turns::INITIATOR } else { Turns::RESPONDER };
        let mut seen = Vec::with_capacity(samples);
        for _ in 0..samples {
            let before = current_cpu().ok();
            let timing = if worker == 0 {
                Some(flags.initiate_sample::<true>(&mut turns, round_trips))
            } else {
                flags.respond_sample::<true>(&mut turns, round_trips);
                None
            };
            seen.push((timing, (before, current_cpu().ok())));
        }
        let into = if worker == 0 { &initiated } else { &responded };
        *into.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = seen;
    })?;
    let expected = 2 * round_trips * samples as u64;
    let (cas_hops, handshake_hops) = flags.hops();
    for (method, actual) in [("compare-and-swap", cas_hops), ("handshake", handshake_hops)] {
        if actual != expected {
            let case = format!("unpinned threads, {method}");
            return Err(RunError::Verification { experiment: EXPERIMENT, case, trial: 0, expected, actual });
        }
    }
    let initiated = initiated.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    let responded = responded.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    Ok(initiated
        .into_iter()
        .zip(responded)
        .skip(1)
        .filter_map(|((timing, initiator), (_, responder))| Some((timing?, (initiator, responder))))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds() -> CoreKinds {
        CoreKinds { performance: vec![0, 1], efficiency: vec![2, 3] }
    }

    #[test]
    fn pairs_are_labelled_by_their_cores_kinds_performance_first() {
        assert_eq!(pair_kinds(Some(&kinds()), 0, 1), "P-P");
        assert_eq!(pair_kinds(Some(&kinds()), 3, 1), "P-E");
        assert_eq!(pair_kinds(Some(&kinds()), 2, 3), "E-E");
        assert_eq!(pair_kinds(Some(&kinds()), 2, 9), "");
        assert_eq!(pair_kinds(None, 0, 1), "");
    }

    #[test]
    fn a_sample_where_a_thread_moved_or_shared_a_cpu_is_dropped_and_counted() {
        let config = Config::quick();
        let ns = SampleNs { cas: 1000, handshake: 2000 };
        let mut taken = BTreeMap::new();
        let still = ((Some(1), Some(1)), (Some(0), Some(0)));
        let moved = ((Some(1), Some(1)), (Some(0), Some(2)));
        let shared = ((Some(1), Some(1)), (Some(1), Some(1)));
        let unknown = ((None, None), (Some(0), Some(0)));
        let rows: Vec<Row> =
            [still, moved, shared, unknown].into_iter().map(|p| row_of(&config, ns, p, None, &mut taken)).collect();
        let dropped: Vec<bool> = rows.iter().map(|row| row.dropped).collect();
        assert_eq!(dropped, [false, true, true, true]);
        assert_eq!((rows[0].cpu_a, rows[0].cpu_b), (0, 1), "the pair is ordered low CPU first");
        assert_eq!(taken[&(0, 1)], (2, 1), "two rows began on CPUs 0 and 1, one kept");
    }
}
