//! The locks experiment's two charts: a figure per primitive (one marker with its interval
//! per series, categories on x: [`crate::chart::categorical`]) and a figure against threads (one
//! line per series). Every
//! series has its own colour, dash and marker from the shared style ([`crate::chart::style`]), so a
//! reader who cannot tell the colours apart (or prints in grey) can still tell the series
//! apart; the legend sits below the plot. y is logarithmic in both: primitives differ by
//! orders of magnitude.

use crate::chart::categorical::categorical_chart;
use crate::chart::frame::framed_plot;
use crate::chart::log_y::{format_rate, log_axis};
use crate::chart::style::{draw_with_intervals, Chart, Legend};
use crate::chart::{log_range, ChartError, IntervalPoint, Series, FONT, LABEL_PX};
use crate::locks::{CellSummary, Primitive};

const CHART: &str = "locks";

/// Points of `primitives` from `summaries`: x is the primitive's index in `primitives`,
/// y what `figure` takes from the cell (its median and interval).
pub fn series_by_primitive(
    label: impl Into<String>,
    summaries: &[&CellSummary],
    primitives: &[Primitive],
    figure: fn(&CellSummary) -> &crate::stats::Summary,
) -> Series {
    let points = summaries
        .iter()
        .filter_map(|s| {
            let x = primitives.iter().position(|&p| p == s.primitive)?;
            Some(IntervalPoint::median_of(x as f64, figure(s)))
        })
        .collect();
    Series { label: label.into(), points }
}

/// One dot per series per category, nudged sideways, with its interval bar.
pub fn by_primitive_chart(
    title: &str,
    categories: &[&str],
    y_desc: &str,
    series: &[Series],
) -> Result<Chart, ChartError> {
    categorical_chart(CHART, title, categories, (y_desc, format_rate), series)
}

/// One line per series against threads (x on a log2 axis: thread counts double).
pub fn by_threads_chart(title: &str, y_desc: &str, series: &[Series]) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let y = log_range(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let doublings: Vec<f64> = series.iter().flat_map(|s| s.points.iter().map(|p| p.x.max(1.0).log2())).collect();
    let (low, high) = doublings.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    let (x_low, x_high) = (low - 0.3, high + 0.3);
    let mut legend = Legend::default();
    let styles: Vec<_> = series.iter().map(|one| legend.add(one.label.clone())).collect();
    framed_plot(CHART, title, legend, (x_low..x_high, log_axis(y.start, y.end)), |chart| {
        chart
            .configure_mesh()
            .x_desc("threads")
            .y_desc(y_desc)
            .x_labels((high - low).round() as usize + 1)
            .x_label_formatter(&|x| format!("{:.0}", 2f64.powf(*x)))
            .y_label_formatter(&|v| format_rate(*v))
            .label_style((FONT, LABEL_PX))
            .draw()
            .map_err(|e| error(&e))?;
        for (one, &style) in series.iter().zip(&styles) {
            let x = |p: &IntervalPoint| p.x.max(1.0).log2();
            let medians = one.points.iter().map(|p| (x(p), p.median)).collect();
            let bars = one.points.iter().map(|p| ((x(p), p.low), (x(p), p.high))).collect();
            draw_with_intervals(chart, medians, bars, style, true).map_err(|e| error(&e))?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(count: usize) -> Vec<Series> {
        (0..count)
            .map(|index| Series {
                label: format!("series {index}"),
                points: [1.0, 2.0, 4.0]
                    .iter()
                    .map(|&x| IntervalPoint { x, median: 10.0 * (index + 1) as f64 * x, low: 9.0, high: 200.0 })
                    .collect(),
            })
            .collect()
    }

    #[test]
    fn both_charts_draw_every_series_with_its_own_marker_and_dashes() {
        let lines = by_threads_chart("reads", "reads per second", &series(8)).unwrap();
        assert!(lines.svg.starts_with("<svg") && lines.svg.contains("series 7"));
        assert_eq!(lines.legend.len(), 8);
        let dots = by_primitive_chart("cost", &["a", "b", "c", "d", "e"], "ns", &series(3)).unwrap();
        assert!(dots.svg.contains("series 2") && dots.svg.contains("<rect"));
        assert!(by_threads_chart("none", "x", &[]).is_err());
    }
}
