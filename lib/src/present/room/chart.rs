//! The room's chart: one effect across a workshop's machines, one dot (with its interval) per
//! machine that measured it.

use crate::chart::categorical::{axis_number, categorical_chart};
use crate::chart::{Chart, ChartError, IntervalPoint, Series};
use crate::stats::Ratio;

const CHART: &str = "room";

/// Draws `values` (a machine's label and its value, or `None` where it was not measured)
/// over the machines; `y_desc` names the effect and its unit.
pub fn room_chart(title: &str, y_desc: &str, values: &[(&str, Option<Ratio>)]) -> Result<Chart, ChartError> {
    let categories: Vec<&str> = values.iter().map(|(label, _)| *label).collect();
    let points = values
        .iter()
        .enumerate()
        .filter_map(|(index, (_, value))| {
            value.map(|v| IntervalPoint { x: index as f64, median: v.value, low: v.low, high: v.high })
        })
        .collect();
    categorical_chart(
        CHART,
        title,
        &categories,
        (y_desc, axis_number),
        &[Series { label: "median (interval)".into(), points }],
    )
}
