//! The locks experiment's two charts: a figure per primitive (one dot with its interval per
//! series, categories on x) and a figure against threads (one line per series). Each series
//! has its own colour *and* its own marker (the legend shows both), and each line its own
//! dash pattern, so a reader who cannot tell the colours apart (or prints in grey) can still
//! tell the series apart. y is logarithmic in both: primitives differ by orders of magnitude.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::gc::{format_rate, log_axis, quiet_corner, LogYChart};
use super::{draw_legend, log_range, series_color, ChartError, IntervalPoint, Series, FONT, LABEL_PX, SIZE, TITLE_PX};
use crate::locks::{CellSummary, Primitive};

const CHART: &str = "locks";
/// How far apart (in category widths) the series' dots sit within one category.
const NUDGE: f64 = 0.14;
/// Dash patterns (dash, gap in pixels; zero dash: solid), one per series in turn.
const DASHES: [(u32, u32); 5] = [(0, 0), (10, 5), (3, 4), (16, 5), (6, 3)];
/// Markers, one per series in turn.
const MARKERS: usize = 7;

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
) -> Result<String, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let y = log_range(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let y = y.start..y.end * (y.end / y.start).powf(0.08 * series.len() as f64);
    let last = categories.len().saturating_sub(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5..last + 0.5, log_axis(y.start, y.end))
            .map_err(|e| error(&e))?;
        let name = |x: &f64| {
            let index = x.round();
            let whole = (x - index).abs() < 1e-6 && index >= 0.0;
            whole.then(|| categories.get(index as usize)).flatten().map_or(String::new(), |c| (*c).to_string())
        };
        chart
            .configure_mesh()
            .y_desc(y_desc)
            .x_labels(categories.len())
            .x_label_formatter(&name)
            .y_label_formatter(&|v| format_rate(*v))
            .label_style((FONT, LABEL_PX))
            .disable_x_mesh()
            .draw()
            .map_err(|e| error(&e))?;
        let middle = (series.len() as f64 - 1.0) / 2.0;
        for (index, one) in series.iter().enumerate() {
            let shift = (index as f64 - middle) * NUDGE;
            let shifted: Vec<IntervalPoint> =
                one.points.iter().map(|p| IntervalPoint { x: p.x + shift, ..*p }).collect();
            draw_points(&mut chart, index, &one.label, &shifted, false)?;
        }
        draw_legend(&mut chart, CHART, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

/// One line per series against threads (x on a log2 axis: thread counts double).
pub fn by_threads_chart(title: &str, y_desc: &str, series: &[Series]) -> Result<String, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let y = log_range(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let doublings: Vec<f64> = series.iter().flat_map(|s| s.points.iter().map(|p| p.x.max(1.0).log2())).collect();
    let (low, high) = doublings.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    let (x_low, x_high) = (low - 0.3, high + 0.3);
    let normalised: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter())
        .map(|p| ((p.x.max(1.0).log2() - x_low) / (x_high - x_low), super::gc::log_fraction(p.median, y.start, y.end)))
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x_low..x_high, log_axis(y.start, y.end))
            .map_err(|e| error(&e))?;
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
        for (index, one) in series.iter().enumerate() {
            let points: Vec<IntervalPoint> =
                one.points.iter().map(|p| IntervalPoint { x: p.x.max(1.0).log2(), ..*p }).collect();
            draw_points(&mut chart, index, &one.label, &points, true)?;
        }
        draw_legend(&mut chart, CHART, quiet_corner(&normalised, series.len()))?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

/// The `index`-th series: its line when `line` (in its dash pattern), interval bars, and
/// its markers at the medians with its legend entry.
fn draw_points(
    chart: &mut LogYChart<'_, '_, RangedCoordf64>,
    index: usize,
    label: &str,
    points: &[IntervalPoint],
    line: bool,
) -> Result<(), ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let color = series_color(index);
    let medians: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.median)).collect();
    let (dash, gap) = DASHES[index % DASHES.len()];
    if line && dash == 0 {
        chart.draw_series(LineSeries::new(medians.clone(), color.stroke_width(2))).map_err(|e| error(&e))?;
    } else if line {
        let dashed = DashedLineSeries::new(medians.clone(), dash, gap, color.stroke_width(2));
        chart.draw_series(dashed).map_err(|e| error(&e))?;
    }
    let bars = points.iter().map(|p| PathElement::new(vec![(p.x, p.low), (p.x, p.high)], color.stroke_width(1)));
    chart.draw_series(bars).map_err(|e| error(&e))?;
    draw_markers(chart, index, label, &medians)
}

/// The `index`-th series' markers (filled circle, triangle, square, cross, then hollow
/// circle, square, triangle) and the same marker as its legend entry.
fn draw_markers(
    chart: &mut LogYChart<'_, '_, RangedCoordf64>,
    index: usize,
    label: &str,
    at: &[(f64, f64)],
) -> Result<(), ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let color = series_color(index);
    let (filled, hollow) = (color.filled(), color.stroke_width(2));
    let square =
        |style: ShapeStyle| move |&p: &(f64, f64)| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], style);
    let key = |(x, y): (i32, i32)| (x + 9, y);
    let boxed = |(x, y): (i32, i32)| [(x + 5, y - 4), (x + 13, y + 4)];
    let drawn = match index % MARKERS {
        0 => chart
            .draw_series(at.iter().map(|&p| Circle::new(p, 4, filled)))
            .map(|a| a.legend(move |p| Circle::new(key(p), 4, filled))),
        1 => chart
            .draw_series(at.iter().map(|&p| TriangleMarker::new(p, 5, filled)))
            .map(|a| a.legend(move |p| TriangleMarker::new(key(p), 5, filled))),
        2 => chart
            .draw_series(at.iter().map(square(filled)))
            .map(|a| a.legend(move |p| Rectangle::new(boxed(p), filled))),
        3 => chart
            .draw_series(at.iter().map(|&p| Cross::new(p, 4, hollow)))
            .map(|a| a.legend(move |p| Cross::new(key(p), 4, hollow))),
        4 => chart
            .draw_series(at.iter().map(|&p| Circle::new(p, 4, hollow)))
            .map(|a| a.legend(move |p| Circle::new(key(p), 4, hollow))),
        5 => chart
            .draw_series(at.iter().map(square(hollow)))
            .map(|a| a.legend(move |p| Rectangle::new(boxed(p), hollow))),
        _ => chart
            .draw_series(at.iter().map(|&p| TriangleMarker::new(p, 5, hollow)))
            .map(|a| a.legend(move |p| TriangleMarker::new(key(p), 5, hollow))),
    };
    drawn.map_err(|e| error(&e))?.label(label);
    Ok(())
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
        assert!(lines.starts_with("<svg") && lines.contains("series 7"));
        assert!(lines.contains("stroke-dasharray") || lines.matches("<polyline").count() > 8);
        let dots = by_primitive_chart("cost", &["a", "b", "c", "d", "e"], "ns", &series(3)).unwrap();
        assert!(dots.contains("series 2") && dots.contains("<rect"));
        assert!(by_threads_chart("none", "x", &[]).is_err());
    }
}
