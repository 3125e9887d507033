//! The four-way control: time per increment in each case, one dot (with its interval) per
//! machine, the article's published figures beside them. Time per increment, not per
//! trial, so runs with different totals (quick, default, the article's) share one axis.

use crate::chart::categorical::{axis_number, categorical_chart};
use crate::chart::{Chart, ChartError, IntervalPoint, Series};
use crate::sharing::{Case, CaseSummary};

const CHART: &str = "sharing";

/// Where `case` sits on the x axis.
pub fn case_x(case: Case) -> f64 {
    Case::ALL.iter().position(|&c| c == case).unwrap_or(0) as f64
}

/// A series of median nanoseconds per increment (per thread) for each case, with intervals.
pub fn series_from_summaries(label: impl Into<String>, summaries: &[CaseSummary]) -> Series {
    Series {
        label: label.into(),
        points: summaries.iter().map(|s| IntervalPoint::median_of(case_x(s.case), &s.ns_per_increment)).collect(),
    }
}

/// Draws the four cases.
pub fn sharing_chart(title: &str, series: &[Series]) -> Result<Chart, ChartError> {
    let categories: Vec<&str> = Case::ALL.iter().map(|case| case.name()).collect();
    categorical_chart(CHART, title, &categories, ("ns per increment, per thread (log scale)", axis_number), series)
}
