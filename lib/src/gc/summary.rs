//! The sweep's trials summarised per (threads, ratio) cell, the derived values (best ratio
//! per thread count, speed-ups over ratio 100 and over one thread, where throughput peaks),
//! and the sentence the data supports.

use serde::{Deserialize, Serialize};

use super::config::{GcRatio, Workload};
use super::run::Row;
use crate::stats::{Ratio, Summary};
use crate::verdict::{then_what_may_hide_it, Verdict};

/// The trials of one (threads, ratio) cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSummary {
    pub threads: u64,
    pub ratio: GcRatio,
    pub workload: Workload,
    pub ops_per_sec: Summary,
    pub cycles_per_sec: Summary,
    pub pause_share: Summary,
    /// The process's CPU time over what every logical CPU could give; `None` when some
    /// trial did not record it (a run saved before the column).
    pub cpu_share: Option<Summary>,
    /// Cycles over every trial of the cell.
    pub cycles: u64,
    /// Fewer than [`MIN_CYCLES_TO_JUDGE`] cycles: the cell makes no claim.
    pub too_few_cycles: bool,
    /// Median share of the workers' time spent waiting on the central heap's lock.
    pub refill_wait_share: f64,
    /// The longest single pause of any trial, in milliseconds.
    pub pause_max_ms: f64,
    /// Median share of the pause spent waiting for workers to reach a safepoint.
    pub stop_share_of_pause: f64,
    /// The fullest the heap got in any trial.
    pub peak_heap_bytes: u64,
    pub trigger_bytes: u64,
    pub all_pinned: bool,
}

/// Groups rows by cell, ordered by threads then ratio (`off` last).
pub fn summarize(rows: &[Row]) -> Vec<CellSummary> {
    crate::group::by_key(rows, |row| (row.threads, row.ratio.order_key()))
        .into_iter()
        .filter_map(|((threads, _), group)| summarize_cell(&group, threads, group.first()?.ratio))
        .collect()
}

fn summarize_cell(group: &[&Row], threads: u64, ratio: GcRatio) -> Option<CellSummary> {
    let of = |value: fn(&Row) -> f64| Summary::of(&group.iter().map(|row| value(row)).collect::<Vec<_>>());
    let stop_shares: Vec<f64> = group
        .iter()
        .filter(|row| row.pause_total_ns > 0)
        .map(|row| row.stop_ns as f64 / row.pause_total_ns as f64)
        .collect();
    Some(CellSummary {
        threads,
        ratio,
        workload: group.first()?.workload,
        ops_per_sec: of(|row| row.ops_per_sec)?,
        cycles_per_sec: of(|row| row.cycles_per_sec)?,
        pause_share: of(|row| row.pause_share)?,
        cpu_share: cpu_share(group.iter().map(|row| row.cpu_share)),
        cycles: group.iter().map(|row| row.cycles).sum(),
        too_few_cycles: group.iter().map(|row| row.cycles).sum::<u64>() < MIN_CYCLES_TO_JUDGE,
        refill_wait_share: of(|row| row.refill_wait_ns as f64 / (row.elapsed_ns as f64 * row.threads as f64))?.median,
        pause_max_ms: group.iter().map(|row| row.pause_max_ns as f64 / 1e6).fold(0.0, f64::max),
        stop_share_of_pause: Summary::of(&stop_shares).map_or(0.0, |summary| summary.median),
        peak_heap_bytes: group.iter().map(|row| row.peak_heap_bytes).max()?,
        trigger_bytes: group.first()?.trigger_bytes,
        all_pinned: group.iter().all(|row| row.pinned),
    })
}

/// The CPU shares of a cell's trials, summarised; `None` when some trial recorded none (0:
/// unknown, a process always uses some CPU while it signs).
pub fn cpu_share(shares: impl Iterator<Item = f64>) -> Option<Summary> {
    let shares: Vec<f64> = shares.collect();
    if shares.iter().any(|&share| share <= 0.0) {
        return None;
    }
    Summary::of(&shares)
}

pub fn cell(cells: &[CellSummary], threads: u64, ratio: GcRatio) -> Option<&CellSummary> {
    cells.iter().find(|cell| cell.threads == threads && cell.ratio == ratio)
}

/// The largest thread count measured.
pub fn most_threads(cells: &[CellSummary]) -> Option<u64> {
    cells.iter().map(|cell| cell.threads).max()
}

/// Throughput over ratio 100 at the same thread count.
pub fn over_default_ratio(cells: &[CellSummary], of: &CellSummary) -> Option<Ratio> {
    cell(cells, of.threads, GcRatio::DEFAULT).map(|base| Ratio::between(&of.ops_per_sec, &base.ops_per_sec))
}

/// Throughput over one thread at ratio 100 (the article's baseline for its 22.56x).
pub fn over_one_thread(cells: &[CellSummary], of: &CellSummary) -> Option<Ratio> {
    cell(cells, 1, GcRatio::DEFAULT).map(|base| Ratio::between(&of.ops_per_sec, &base.ops_per_sec))
}

/// The fastest ratio at one thread count, and whether it beat ratio 100 beyond the noise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestRatio {
    pub threads: u64,
    pub ratio: GcRatio,
    pub ops_per_sec: f64,
    pub over_default: Option<Ratio>,
    /// It beat ratio 100 beyond the noise (enough trials, interval above 1).
    pub beats_default: bool,
}

pub fn best_ratio_per_threads(cells: &[CellSummary]) -> Vec<BestRatio> {
    let mut threads: Vec<u64> = cells.iter().map(|cell| cell.threads).collect();
    threads.dedup();
    threads
        .into_iter()
        .filter_map(|count| {
            let best = fastest(cells.iter().filter(|cell| cell.threads == count))?;
            let base = cell(cells, count, GcRatio::DEFAULT);
            let over_default = over_default_ratio(cells, best);
            Some(BestRatio {
                threads: count,
                ratio: best.ratio,
                ops_per_sec: best.ops_per_sec.median,
                beats_default: base.is_some_and(|base| enough_trials(&[best, base]))
                    && over_default.is_some_and(|r| best.ratio != GcRatio::DEFAULT && r.clearly_above_one()),
                over_default,
            })
        })
        .collect()
}

/// The thread count where throughput peaks at `ratio`.
pub fn peak_threads(cells: &[CellSummary], ratio: GcRatio) -> Option<&CellSummary> {
    fastest(cells.iter().filter(|cell| cell.ratio == ratio))
}

fn fastest<'a>(cells: impl Iterator<Item = &'a CellSummary>) -> Option<&'a CellSummary> {
    cells.max_by(|a, b| a.ops_per_sec.median.total_cmp(&b.ops_per_sec.median))
}

/// What the sweep showed, in sentences, for the report and the notebooks. An effect is
/// claimed only when the intervals do not overlap; where none is, what the machine's
/// `verdict` says may hide it.
pub fn finding(cells: &[CellSummary], verdict: Option<&Verdict>) -> String {
    let (Some(most), Some(peak)) = (most_threads(cells), peak_threads(cells, GcRatio::DEFAULT)) else {
        return if cells.is_empty() {
            "The GC sweep was not measured.".into()
        } else {
            "Ratio 100 (Go's default) was not measured, so no speed-up over it can be given.".into()
        };
    };
    let mut text = format!(
        "At ratio 100 throughput peaked at {} ({:.0} operations/s)",
        threads_text(peak.threads),
        peak.ops_per_sec.median
    );
    let at_most = cell(cells, most, GcRatio::DEFAULT);
    match at_most {
        Some(last)
            if last.threads > peak.threads
                && enough_trials(&[last, peak])
                && !last.ops_per_sec.overlaps(&peak.ops_per_sec) =>
        {
            text += &format!(" and fell to {:.0} at {most} threads. ", last.ops_per_sec.median)
        }
        _ => text += ". ",
    }
    let best = fastest(cells.iter().filter(|cell| cell.threads == most));
    if let (Some(best), Some(base)) = (best, at_most) {
        text += &ratio_sentence(best, base, verdict);
    }
    let overall = fastest(cells.iter());
    if let Some((best, speedup)) = overall.and_then(|best| Some((best, over_one_thread(cells, best)?))) {
        text += &format!(
            " The fastest cell ({}, ratio {}) ran {:.2}x one thread at ratio 100 (interval {:.2}x to {:.2}x).",
            threads_text(best.threads),
            best.ratio,
            speedup.value,
            speedup.low,
            speedup.high
        );
    }
    text
}

/// "1 thread", "8 threads".
pub fn threads_text(threads: u64) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// One or two trials give no interval worth the name: the finding claims nothing from them.
pub const MIN_TRIALS_FOR_A_CLAIM: usize = 3;
/// A cell whose trials ran fewer cycles than this, together, measured warm-up or luck
/// (whether a cycle fell in a trial), not the collector's pace: "too few cycles to judge".
pub const MIN_CYCLES_TO_JUDGE: u64 = 10;

/// Enough trials, and enough cycles where the cell collects at all (`off` may run none).
pub(super) fn enough_trials(cells: &[&CellSummary]) -> bool {
    cells.iter().all(|cell| {
        cell.ops_per_sec.samples >= MIN_TRIALS_FOR_A_CLAIM && (!cell.too_few_cycles || cell.ratio == GcRatio::Off)
    })
}

fn ratio_sentence(best: &CellSummary, base: &CellSummary, verdict: Option<&Verdict>) -> String {
    let speedup = Ratio::between(&best.ops_per_sec, &base.ops_per_sec);
    if best.ratio != base.ratio && enough_trials(&[best, base]) && speedup.clearly_above_one() {
        format!(
            "At {} threads, raising the ratio to {} gave {:.2}x the throughput of ratio 100 (interval {:.2}x to \
             {:.2}x), with {:.0} instead of {:.0} collections per second.",
            base.threads,
            best.ratio,
            speedup.value,
            speedup.low,
            speedup.high,
            best.cycles_per_sec.median,
            base.cycles_per_sec.median
        )
    } else {
        let sentence = format!(
            "At {} threads no ratio was measurably faster than 100 (the intervals overlap, or too few trials); \
             pauses took {:.1}% of the time at ratio 100{}.",
            base.threads,
            base.pause_share.median * 100.0,
            if base.too_few_cycles { " (too few cycles to judge)" } else { "" }
        );
        then_what_may_hide_it(sentence, verdict)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::gc) fn row(threads: u64, ratio: GcRatio, trial: u64, ops_per_sec: f64) -> Row {
        Row {
            threads,
            ratio,
            trial,
            workload: Workload::Hash,
            elapsed_ns: 1_000_000_000,
            operations: ops_per_sec as u64,
            ops_per_sec,
            cycles: 10,
            cycles_per_sec: 10.0,
            ceiling_cycles: 0,
            pause_total_ns: 100_000_000,
            pause_max_ns: 20_000_000,
            pause_share: 0.1,
            stop_ns: 50_000_000,
            mark_ns: 30_000_000,
            sweep_ns: 20_000_000,
            refill_wait_ns: 1_000_000,
            refills: 1000,
            mark_workers: 1,
            trigger_bytes: 4 << 20,
            peak_heap_bytes: 5 << 20,
            ceiling_bytes: 1 << 30,
            live_bytes: 1 << 20,
            live_nodes: 16384,
            nodes_marked: 163_840,
            stacks_scanned: 10 * threads,
            alloc_per_op_bytes: 2573,
            objects_per_op: 34,
            objects_allocated: 0,
            objects_freed: 0,
            objects_outstanding: 0,
            bytes_allocated: 0,
            bytes_freed: 0,
            bytes_outstanding: 0,
            survivor_objects: 0,
            pinned: true,
            cpu_share: 0.5,
        }
    }

    pub(in crate::gc) fn cells(samples: &[(u64, GcRatio, [f64; 3])]) -> Vec<CellSummary> {
        let rows: Vec<Row> = samples
            .iter()
            .flat_map(|&(threads, ratio, values)| {
                values.into_iter().enumerate().map(move |(trial, ops)| row(threads, ratio, trial as u64, ops))
            })
            .collect();
        summarize(&rows)
    }

    pub(in crate::gc) const R100: GcRatio = GcRatio::DEFAULT;
    pub(in crate::gc) const R400: GcRatio = GcRatio::Percent(400);

    #[test]
    fn separated_intervals_support_a_claim() {
        let cells = cells(&[
            (1, R100, [50.0, 51.0, 52.0]),
            (1, R400, [50.0, 51.0, 53.0]),
            (4, R100, [300.0, 301.0, 302.0]),
            (8, R100, [100.0, 101.0, 102.0]),
            (8, R400, [200.0, 202.0, 204.0]),
        ]);
        let best: Vec<(u64, GcRatio)> = best_ratio_per_threads(&cells).iter().map(|b| (b.threads, b.ratio)).collect();
        assert_eq!(best, vec![(1, R400), (4, R100), (8, R400)]);
        let beats: Vec<bool> = best_ratio_per_threads(&cells).iter().map(|b| b.beats_default).collect();
        assert_eq!(beats, vec![false, false, true]);
        assert_eq!(peak_threads(&cells, R100).unwrap().threads, 4);
        let speedup = over_one_thread(&cells, cell(&cells, 8, R400).unwrap()).unwrap();
        assert!((speedup.value - 202.0 / 51.0).abs() < 1e-9);
        let text = finding(&cells, None);
        assert!(text.contains("peaked at 4 threads (301 operations/s) and fell to 101 at 8 threads"), "{text}");
        assert!(text.contains("raising the ratio to 400 gave 2.00x"), "{text}");
    }

    #[test]
    fn overlapping_intervals_claim_nothing() {
        let cells =
            cells(&[(1, R100, [50.0, 51.0, 52.0]), (8, R100, [100.0, 150.0, 200.0]), (8, R400, [120.0, 160.0, 190.0])]);
        let text = finding(&cells, None);
        assert!(text.contains("At 8 threads no ratio was measurably faster than 100"), "{text}");
        assert!(!text.contains("raising"), "{text}");
    }

    #[test]
    fn cells_with_too_few_cycles_make_no_claim() {
        let mut rows: Vec<Row> = [(1, R100, 50.0), (8, R100, 100.0), (8, R400, 300.0)]
            .into_iter()
            .flat_map(|(threads, ratio, ops)| (0..3).map(move |trial| row(threads, ratio, trial, ops + trial as f64)))
            .collect();
        rows.iter_mut().filter(|row| row.ratio == R400).for_each(|row| row.cycles = 3);
        let cells = summarize(&rows);
        let few: Vec<bool> = cells.iter().map(|cell| cell.too_few_cycles).collect();
        assert_eq!(few, vec![false, false, true], "3 x 3 cycles < {MIN_CYCLES_TO_JUDGE}");
        assert!(!best_ratio_per_threads(&cells)[1].beats_default);
        assert!(finding(&cells, None).contains("At 8 threads no ratio was measurably faster than 100"));
    }

    #[test]
    fn cells_sort_off_last_and_missing_default_is_said() {
        let cells = cells(&[(2, GcRatio::Off, [1.0, 2.0, 3.0]), (2, R400, [1.0, 2.0, 3.0])]);
        assert_eq!(cells.iter().map(|c| c.ratio).collect::<Vec<_>>(), vec![R400, GcRatio::Off]);
        assert!(finding(&cells, None).starts_with("Ratio 100 (Go's default) was not measured"));
        assert_eq!(finding(&[], None), "The GC sweep was not measured.");
    }
}
