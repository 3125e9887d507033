//! The toy's chart: the median time per value summed, one dot with its interval per
//! machine, drawn with the charts' kit.

use super::summarize;
use super::Row;
use crate::chart::categorical::{axis_number, categorical_chart};
use crate::chart::{Chart, ChartError, IntervalPoint, Series};

const CHART: &str = "toy";

/// One machine's series: its median nanoseconds per value, with the median's interval.
pub fn series(label: impl Into<String>, rows: &[Row]) -> Series {
    Series {
        label: label.into(),
        points: summarize(rows).iter().map(|summary| IntervalPoint::median_of(0.0, summary)).collect(),
    }
}

/// Draws every machine's time per value over the one case, summing.
pub fn toy_chart(title: &str, series: &[Series]) -> Result<Chart, ChartError> {
    categorical_chart(CHART, title, &["sum of a slice"], ("ns per value (log scale)", axis_number), series)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(trial: u64, ns_per_value: f64) -> Row {
        Row { trial, values: 1000, sum: 500_500, ns_per_value }
    }

    #[test]
    fn one_dot_per_machine_and_no_rows_no_chart() {
        let rows = [row(0, 0.4), row(1, 0.5), row(2, 0.6)];
        let drawn = toy_chart("Toy", &[series("a", &rows), series("b", &rows[..1])]).unwrap();
        assert!(drawn.svg.starts_with("<svg") && drawn.legend.len() == 2);
        let refused = toy_chart("Toy", &[series("a", &[])]).unwrap_err().to_string();
        assert_eq!(refused, "could not draw the toy chart: no data to draw");
    }
}
