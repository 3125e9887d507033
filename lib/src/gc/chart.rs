//! The GC sweep's two charts (one per file): throughput against threads with one line per
//! ratio ([`threads`]), and throughput against ratio at the largest thread count
//! ([`ratio`]). This file turns cell summaries into their series.

pub mod ratio;
pub mod threads;

use crate::chart::{IntervalPoint, Series};
use crate::gc::compare::CellFigures;
use crate::gc::summary::CellSummary;
use crate::gc::GcRatio;

/// Operations per second against threads at one ratio (x = thread count), from the model's
/// cells or real Go's.
pub fn series_by_threads<C: CellFigures>(label: impl Into<String>, cells: &[C], ratio: GcRatio) -> Series {
    Series {
        label: label.into(),
        points: cells
            .iter()
            .filter(|cell| cell.ratio() == ratio)
            .map(|cell| IntervalPoint::median_of(cell.threads() as f64, cell.ops_per_sec()))
            .collect(),
    }
}

/// One point of a series against the ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioPoint {
    pub ratio: GcRatio,
    pub median: f64,
    pub low: f64,
    pub high: f64,
}

/// A named series against the ratio (one machine at its largest thread count, or the article).
#[derive(Debug, Clone, PartialEq)]
pub struct RatioSeries {
    pub label: String,
    pub points: Vec<RatioPoint>,
}

/// Operations per second against the ratio at `threads`.
pub fn series_by_ratio(label: impl Into<String>, cells: &[CellSummary], threads: u64) -> RatioSeries {
    RatioSeries {
        label: label.into(),
        points: cells
            .iter()
            .filter(|cell| cell.threads == threads)
            .map(|cell| RatioPoint {
                ratio: cell.ratio,
                median: cell.ops_per_sec.median,
                low: cell.ops_per_sec.median_low,
                high: cell.ops_per_sec.median_high,
            })
            .collect(),
    }
}
