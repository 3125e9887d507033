//! Latency against fixed-pool size: p99 and p50 per machine, medians with their intervals,
//! both axes logarithmic (sizes span cores+1 to hundreds; latencies span milliseconds to
//! seconds). The formula's answer is a vertical grey line; the split and async variants,
//! which have no pool size on this axis, are horizontal lines with their markers spread
//! along them (so two levels that nearly coincide still show both). Every line has its own
//! colour, dash and marker ([`crate::chart::style`]); the legend sits below the plot.

use std::ops::Range;

use plotters::prelude::*;

use crate::chart::frame::framed_plot;
use crate::chart::style::{draw_line, draw_markers, draw_with_intervals, Chart, Legend, SeriesStyle};
use crate::chart::{log_range, ChartError, IntervalPoint, Series, FONT, LABEL_PX};
use crate::pool::{PoolSummary, Variant};
use crate::stats::Summary;

const CHART: &str = "pool latency";

/// A labelled value drawn across the chart: a pool size (vertical) or a latency (horizontal).
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    pub label: String,
    pub value: f64,
}

/// One machine's lines: p50 and p99 of the fixed pools against pool size.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyLines {
    pub p50: Series,
    pub p99: Series,
}

/// The fixed pools at `hit_rate` as a series of `percentile` (median and interval, ms).
pub fn fixed_series(
    label: impl Into<String>,
    summaries: &[PoolSummary],
    hit_rate: f64,
    percentile: fn(&PoolSummary) -> &Summary,
) -> Series {
    Series {
        label: label.into(),
        points: summaries
            .iter()
            .filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == hit_rate)
            .map(|s| IntervalPoint::median_of(s.key.pool_threads as f64, percentile(s)))
            .collect(),
    }
}

/// Draws the chart. `formula` marks pool sizes; `levels` marks latencies (e.g. async p99).
pub fn pool_latency_chart(
    title: &str,
    lines: &[LatencyLines],
    formula: &[Marker],
    levels: &[Marker],
) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let mut all: Vec<Series> = lines.iter().flat_map(|l| [l.p50.clone(), l.p99.clone()]).collect();
    all.push(Series {
        label: String::new(),
        points: levels.iter().map(|m| IntervalPoint { x: 1.0, median: m.value, low: m.value, high: m.value }).collect(),
    });
    let y_data = log_range(&all).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let y_range = crate::scale::decade_span(y_data.start, y_data.end);
    let sizes = all
        .iter()
        .flat_map(|s| s.points.iter().filter(|p| p.x > 1.0).map(|p| p.x))
        .chain(formula.iter().map(|m| m.value));
    let (x_min, x_max) = sizes.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if !(x_min.is_finite() && x_max > 0.0) {
        return Err(ChartError::new(CHART, "no pool sizes to draw"));
    }
    let x_range = crate::scale::decade_span(x_min, x_max);
    let mut legend = Legend::default();
    let line_styles: Vec<[SeriesStyle; 2]> =
        lines.iter().map(|l| [legend.add(l.p99.label.clone()), legend.add(l.p50.label.clone())]).collect();
    let level_styles: Vec<SeriesStyle> = levels.iter().map(|level| legend.add(level.label.clone())).collect();
    let axes = (x_range.clone().log_scale(), y_range.clone().log_scale());
    framed_plot(CHART, title, legend, axes, |chart| {
        chart
            .configure_mesh()
            .x_desc("threads in the fixed pool (log scale)")
            .y_desc("latency, arrival to completion (ms, log scale)")
            .x_labels(20)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| crate::chart::format_axis_number(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| error(&e))?;
        for (machine, [p99, p50]) in lines.iter().zip(&line_styles) {
            for (series, &style) in [(&machine.p99, p99), (&machine.p50, p50)] {
                let medians = series.points.iter().map(|p| (p.x, p.median)).collect();
                let bars = series.points.iter().map(|p| ((p.x, p.low), (p.x, p.high))).collect();
                draw_with_intervals(chart, medians, bars, style, true).map_err(|e| error(&e))?;
            }
        }
        for (index, (level, &style)) in levels.iter().zip(&level_styles).enumerate() {
            draw_level(chart, level.value, style, index, &x_range).map_err(|e| error(&e))?;
        }
        draw_marks(chart, formula, &y_range).map_err(|e| error(&e))
    })
}

type LogChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// A horizontal line at `value` across a log x axis `x_range` in `style`, with its marker
/// at a few places along it, shifted by the level's `index` so levels that nearly coincide
/// still show each marker (the legend's sample shows the same line and marker).
pub(crate) fn draw_level<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    value: f64,
    style: SeriesStyle,
    index: usize,
    x_range: &Range<f64>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    draw_line(chart, vec![(x_range.start, value), (x_range.end, value)], style)?;
    let (low, high) = (x_range.start.ln(), x_range.end.ln());
    let at = |fraction: f64| ((low + (high - low) * fraction).exp(), value);
    let shift = 0.06 * index as f64;
    draw_markers(chart, [0.12, 0.45, 0.78].iter().map(|f| at(f + shift)).collect(), style)
}

/// Vertical dashed lines at pool sizes, labelled near the top.
fn draw_marks(chart: &mut LogChart<'_, '_>, marks: &[Marker], y_range: &Range<f64>) -> DrawResult {
    for mark in marks {
        let points = vec![(mark.value, y_range.start), (mark.value, y_range.end)];
        chart.draw_series(DashedLineSeries::new(points, 5, 5, BLACK.mix(0.6).stroke_width(1)))?;
        let label = Text::new(mark.label.clone(), (mark.value * 1.03, y_range.end / 1.3), (FONT, LABEL_PX));
        chart.draw_series(std::iter::once(label))?;
    }
    Ok(())
}
