//! Latency against fixed-pool size: p99 (solid) and p50 (dashed) per machine, medians with
//! their intervals, both axes logarithmic (sizes span cores+1 to hundreds; latencies span
//! milliseconds to seconds). The formula's answer is a vertical dashed line; the split and
//! async variants, which have no pool size on this axis, are horizontal dotted lines.

use std::ops::Range;

use plotters::prelude::*;

use super::{draw_legend, log_range, series_color, ChartError, IntervalPoint, Series, FONT, LABEL_PX, SIZE, TITLE_PX};
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

/// Widens `low..high` to whole powers of ten, so a log axis has labelled ticks however
/// narrow the data (plotters labels a log axis only at and between powers of ten).
pub(crate) fn decade_range(low: f64, high: f64) -> std::ops::Range<f64> {
    let (low, high) = (super::log_value(low), super::log_value(high));
    let first = low.log10().floor();
    let last = high.log10().ceil().max(first + 1.0);
    10f64.powf(first.max(last - f64::from(super::MAX_LOG_DECADES)))..10f64.powf(last)
}

/// Draws the chart. `formula` marks pool sizes; `levels` marks latencies (e.g. async p99).
pub fn pool_latency_chart(
    title: &str,
    lines: &[LatencyLines],
    formula: &[Marker],
    levels: &[Marker],
) -> Result<String, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let mut all: Vec<Series> = lines.iter().flat_map(|l| [l.p50.clone(), l.p99.clone()]).collect();
    all.push(Series {
        label: String::new(),
        points: levels.iter().map(|m| IntervalPoint { x: 1.0, median: m.value, low: m.value, high: m.value }).collect(),
    });
    let y_data = log_range(&all).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let y_range = decade_range(y_data.start, y_data.end);
    let sizes = all
        .iter()
        .flat_map(|s| s.points.iter().filter(|p| p.x > 1.0).map(|p| p.x))
        .chain(formula.iter().map(|m| m.value));
    let (x_min, x_max) = sizes.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if !(x_min.is_finite() && x_max > 0.0) {
        return Err(ChartError::new(CHART, "no pool sizes to draw"));
    }
    let x_range = decade_range(x_min, x_max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x_range.clone().log_scale(), y_range.clone().log_scale())
            .map_err(|e| error(&e))?;
        chart
            .configure_mesh()
            .x_desc("threads in the fixed pool (log scale)")
            .y_desc("latency, arrival to completion (ms, log scale)")
            .x_labels(20)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| super::stride::format_axis_number(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| error(&e))?;
        draw_lines(&mut chart, lines).map_err(|e| error(&e))?;
        draw_levels(&mut chart, levels, lines.len(), &x_range).map_err(|e| error(&e))?;
        draw_marks(&mut chart, formula, &y_range).map_err(|e| error(&e))?;
        draw_legend(&mut chart, CHART, SeriesLabelPosition::LowerLeft)?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

type LogChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Each machine's p99 (solid) and p50 (dashed): medians joined, dots, interval bars.
fn draw_lines(chart: &mut LogChart<'_, '_>, lines: &[LatencyLines]) -> DrawResult {
    for (index, machine) in lines.iter().enumerate() {
        let color = series_color(index);
        for (series, dashed) in [(&machine.p99, false), (&machine.p50, true)] {
            let points: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x, p.median)).collect();
            let style = color.stroke_width(2);
            let anno = if dashed {
                chart.draw_series(DashedLineSeries::new(points.clone(), 6, 4, style))?
            } else {
                chart.draw_series(LineSeries::new(points.clone(), style))?
            };
            anno.label(series.label.clone()).legend(move |(x, y)| {
                let gap = if dashed { 6 } else { 0 };
                PathElement::new(vec![(x, y), (x + 18 - gap, y)], color.stroke_width(2))
            });
            chart.draw_series(points.iter().map(|&point| Circle::new(point, 3, color.filled())))?;
            let bars = series
                .points
                .iter()
                .map(|p| PathElement::new(vec![(p.x, p.low), (p.x, p.high)], color.stroke_width(1)));
            chart.draw_series(bars)?;
        }
    }
    Ok(())
}

/// Horizontal dotted lines across the whole width, coloured after the machines' lines.
fn draw_levels(
    chart: &mut LogChart<'_, '_>,
    levels: &[Marker],
    first_color: usize,
    x_range: &Range<f64>,
) -> DrawResult {
    for (index, level) in levels.iter().enumerate() {
        let color = series_color(first_color + index);
        let points = vec![(x_range.start, level.value), (x_range.end, level.value)];
        chart
            .draw_series(DashedLineSeries::new(points, 2, 4, color.stroke_width(2)))?
            .label(level.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(1)));
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decade_range_always_holds_a_power_of_ten() {
        assert_eq!(decade_range(120.0, 750.0), 100.0..1000.0);
        assert_eq!(decade_range(2.4, 100.0), 1.0..100.0);
        assert_eq!(decade_range(0.9, 3000.0), 0.1..10000.0);
        assert_eq!(decade_range(10.0, 10.0), 10.0..100.0);
    }
}
