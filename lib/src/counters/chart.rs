//! The counter layouts: time per increment for each, one dot (with its interval) per
//! machine, the article's compact and padded figures beside them. Memory is in the table
//! beside the chart.

use crate::chart::categorical::{axis_number, categorical_chart};
use crate::chart::{Chart, ChartError, IntervalPoint, Series};
use crate::counters::{Layout, LayoutSummary};

const CHART: &str = "counters";

/// Where `layout` sits on the x axis.
pub fn layout_x(layout: Layout) -> f64 {
    Layout::ALL.iter().position(|&l| l == layout).unwrap_or(0) as f64
}

/// A series of median nanoseconds per increment (per thread) for each layout, with intervals.
pub fn series_from_summaries(label: impl Into<String>, summaries: &[LayoutSummary]) -> Series {
    Series {
        label: label.into(),
        points: summaries.iter().map(|s| IntervalPoint::median_of(layout_x(s.layout), &s.ns_per_increment)).collect(),
    }
}

/// Draws the seven layouts.
pub fn counters_chart(title: &str, series: &[Series]) -> Result<Chart, ChartError> {
    let categories: Vec<&str> = Layout::ALL.iter().map(|layout| layout.short_label()).collect();
    categorical_chart(CHART, title, &categories, ("ns per increment, per thread (log scale)", axis_number), series)
}
