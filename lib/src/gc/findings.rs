//! The facts notebook 04's prose turns on, computed from the cells so no sentence can
//! contradict the outputs: where the ratio-100 curve peaks, whether any ratio beat 100
//! ([`curve_findings`]), and how the collector's pace moved with threads and ratio
//! ([`pacing_findings`]).

use serde::{Deserialize, Serialize};

use super::summary::{
    best_ratio_per_threads, cell, enough_trials, most_threads, peak_threads, threads_text, CellSummary,
};
use super::GcRatio;
use crate::format;
use crate::stats::{Ratio, Summary};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurveFindings {
    /// Thread count where ratio 100 ran fastest (`None` when ratio 100 was not measured).
    pub default_peak_threads: Option<u64>,
    /// The peak is below the most threads measured: the curve rises, then falls or flattens.
    pub peaks_before_the_end: bool,
    /// Thread counts where some ratio beat 100 beyond the noise (enough trials and cycles).
    pub ratio_beat_default_at: Vec<u64>,
    /// Both facts in a sentence.
    pub sentence: String,
}

pub fn curve_findings(cells: &[CellSummary]) -> CurveFindings {
    let peak = peak_threads(cells, GcRatio::DEFAULT).map(|cell| cell.threads);
    let most = cells.iter().map(|cell| cell.threads).max();
    let beat: Vec<u64> =
        best_ratio_per_threads(cells).into_iter().filter(|b| b.beats_default).map(|b| b.threads).collect();
    let peak_text = match (peak, most) {
        (Some(peak), Some(most)) if peak < most => {
            format!("The ratio-100 curve peaks at {} and does not rise after it", threads_text(peak))
        }
        (Some(peak), _) => format!("The ratio-100 curve is highest at {}, the most measured", threads_text(peak)),
        _ => "Ratio 100 was not measured".into(),
    };
    let beat_text = match beat.as_slice() {
        [] => "no ratio beat 100 beyond the noise".to_string(),
        counts => {
            let counts: Vec<String> = counts.iter().map(|&threads| threads_text(threads)).collect();
            format!("a higher ratio beat 100 beyond the noise at {}", counts.join(", "))
        }
    };
    CurveFindings {
        default_peak_threads: peak,
        peaks_before_the_end: peak.zip(most).is_some_and(|(peak, most)| peak < most),
        sentence: format!("{peak_text}; {beat_text}."),
        ratio_beat_default_at: beat,
    }
}

/// The article's mechanism checked against the cells, one sentence each: whether collections
/// came faster with more threads at ratio 100 (up to the CPUs this process may use, and
/// beyond them), what share of the time the pauses took, and what the largest ratio did to
/// collections and the heap at the most threads. A rise or fall is claimed only when both
/// cells have enough trials and cycles and the interval excludes 1.
pub fn pacing_findings(cells: &[CellSummary], logical_cpus: Option<usize>) -> Vec<String> {
    let at_default: Vec<&CellSummary> = cells.iter().filter(|c| c.ratio == GcRatio::DEFAULT).collect();
    let (Some(&fewest), Some(&most)) = (at_default.first(), at_default.last()) else {
        return vec!["Ratio 100 was not measured, so the collector's pace cannot be compared.".into()];
    };
    let fits = |c: &&CellSummary| logical_cpus.map_or(true, |cpus| c.threads <= cpus as u64);
    let widest = at_default.iter().copied().rfind(fits).unwrap_or(fewest);
    let mut sentences = Vec::new();
    for (to, beyond) in [(widest, false), (most, true)] {
        if to.threads <= fewest.threads || (beyond && to.threads == widest.threads) {
            continue;
        }
        let moved = movement(fewest, to, &fewest.cycles_per_sec, &to.cycles_per_sec);
        let cpus = match logical_cpus {
            Some(cpus) if beyond => format!(", more threads than the {cpus} CPUs this process may use"),
            _ => String::new(),
        };
        sentences.push(format!(
            "At ratio 100, collections per second {moved} from {} at {} to {} at {}{cpus}: {}.",
            format::number(fewest.cycles_per_sec.median),
            threads_text(fewest.threads),
            format::number(to.cycles_per_sec.median),
            threads_text(to.threads),
            if moved == Movement::Rose {
                "more threads allocating reached the trigger sooner, as in the article"
            } else {
                "not the article's more threads, more collections"
            }
        ));
    }
    if most.threads > fewest.threads {
        let moved = movement(fewest, most, &fewest.pause_share, &most.pause_share);
        sentences.push(format!(
            "The pauses' share of the time at ratio 100 {moved} from {} at {} to {} at {}.",
            format::percent(fewest.pause_share.median),
            threads_text(fewest.threads),
            format::percent(most.pause_share.median),
            threads_text(most.threads)
        ));
    }
    sentences.extend(largest_ratio_sentence(cells));
    sentences
}

/// "rose", "fell" or "could not be told apart (moved)", from `from`'s value to `to`'s.
fn movement(from: &CellSummary, to: &CellSummary, a: &Summary, b: &Summary) -> Movement {
    let ratio = Ratio::between(b, a);
    if !enough_trials(&[from, to]) {
        Movement::Unjudged
    } else if ratio.clearly_above_one() {
        Movement::Rose
    } else if ratio.clearly_below_one() {
        Movement::Fell
    } else {
        Movement::WithinNoise
    }
}

/// How a figure moved between two cells, judged by its interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Movement {
    Rose,
    Fell,
    WithinNoise,
    /// Too few trials or cycles in one of the cells.
    Unjudged,
}

impl std::fmt::Display for Movement {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(match self {
            Movement::Rose => "rose",
            Movement::Fell => "fell",
            Movement::WithinNoise => "moved within the noise",
            Movement::Unjudged => "moved (too few trials or cycles to judge)",
        })
    }
}

/// At the most threads: collections and peak heap at the largest numeric ratio against 100.
fn largest_ratio_sentence(cells: &[CellSummary]) -> Option<String> {
    let threads = most_threads(cells)?;
    let base = cell(cells, threads, GcRatio::DEFAULT)?;
    let largest = cells
        .iter()
        .filter(|c| c.threads == threads && matches!(c.ratio, GcRatio::Percent(_)) && c.ratio != GcRatio::DEFAULT)
        .max_by_key(|c| c.ratio.order_key())?;
    Some(format!(
        "At {}, ratio {} ran {} collections per second against {} at ratio 100, and the heap peaked at {} against {}: \
         {}.",
        threads_text(threads),
        largest.ratio,
        format::number(largest.cycles_per_sec.median),
        format::number(base.cycles_per_sec.median),
        format::bytes(largest.peak_heap_bytes),
        format::bytes(base.peak_heap_bytes),
        if largest.cycles_per_sec.median < base.cycles_per_sec.median {
            "fewer collections, paid for in memory"
        } else {
            "the larger ratio did not space the collections out here"
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::super::summary::summarize;
    use super::super::summary::tests::{cells, row, R100, R400};
    use super::super::Row;
    use super::*;

    #[test]
    fn curve_findings_follow_the_cells() {
        let cells = cells(&[
            (1, R100, [50.0, 51.0, 52.0]),
            (4, R100, [300.0, 301.0, 302.0]),
            (8, R100, [100.0, 101.0, 102.0]),
            (8, R400, [200.0, 202.0, 204.0]),
        ]);
        let found = curve_findings(&cells);
        assert_eq!((found.default_peak_threads, found.peaks_before_the_end), (Some(4), true));
        assert_eq!(found.ratio_beat_default_at, vec![8]);
        assert_eq!(
            found.sentence,
            "The ratio-100 curve peaks at 4 threads and does not rise after it; a higher ratio beat 100 beyond the \
             noise at 8 threads."
        );
    }

    #[test]
    fn pacing_findings_follow_the_cells() {
        // Collections per second: 10 at 1 thread, 20 at 2, 21 at 4 (past the 2 CPUs), 2 at ratio 2400.
        let mut rows: Vec<Row> = [(1, R100), (2, R100), (4, R100), (4, GcRatio::Percent(2400))]
            .into_iter()
            .flat_map(|(threads, ratio)| (0..3).map(move |trial| row(threads, ratio, trial, 100.0 + trial as f64)))
            .collect();
        for row in &mut rows {
            row.cycles_per_sec = match (row.threads, row.ratio) {
                (_, GcRatio::Percent(2400)) => 2.0,
                (threads, _) => 10.0 * threads.min(2) as f64 + row.trial as f64 * 0.1 + (threads / 4) as f64,
            };
            row.peak_heap_bytes = if row.ratio == R100 { 5 << 20 } else { 48 << 20 };
        }
        let found = pacing_findings(&summarize(&rows), Some(2));
        assert_eq!(found.len(), 4, "{found:?}");
        let rate = "At ratio 100, collections per second rose from 10.1 at 1 thread to";
        assert!(found[0].starts_with(&format!("{rate} 20.1 at 2 threads: more threads allocating")), "{found:?}");
        assert!(found[1].starts_with(&format!("{rate} 21.1 at 4 threads, more threads than the 2 CPUs")), "{found:?}");
        assert!(found[2].contains("moved within the noise from 10% at 1 thread to 10% at 4 threads"), "{found:?}");
        assert!(found[3].contains("ratio 2400 ran 2.00 collections per second against 21.1 at ratio 100"), "{found:?}");
        assert!(found[3].contains("48 MiB against 5 MiB: fewer collections, paid for in memory"), "{found:?}");
        let flat: Vec<Row> = rows.iter().filter(|row| row.threads != 4).cloned().collect();
        let flat_found = pacing_findings(&summarize(&flat), None);
        assert_eq!(flat_found.len(), 2, "no 4-thread cells: one rate, one pause share: {flat_found:?}");
        assert!(flat_found[0]
            .ends_with("at 2 threads: more threads allocating reached the trigger sooner, as in the article."));
        assert!(pacing_findings(&[], None)[0].contains("Ratio 100 was not measured"));
    }
}
