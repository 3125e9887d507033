//! Operations per second against the GC ratio at one thread count (the article's GOGC
//! table at 48 goroutines): one line per machine, plus the article's. Ratios are evenly
//! spaced in sorted order (they span 100 to 11300, roughly doubling), `off` last;
//! throughput on a log axis.

use plotters::prelude::*;

use super::RatioSeries;
use crate::chart::frame::framed_plot;
use crate::chart::log_y::{draw_series, format_rate, log_axis};
use crate::chart::style::{Chart, Legend};
use crate::chart::{ChartError, FONT, LABEL_PX};
use crate::gc::GcRatio;

const CHART: &str = "gc-ratio";
/// A range of ratios (`100..2000:100`) would crowd the axis: at most this many labels.
const MAX_X_LABELS: usize = 14;

pub fn throughput_by_ratio_chart(title: &str, series: &[RatioSeries]) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let mut ratios: Vec<GcRatio> = series.iter().flat_map(|s| s.points.iter().map(|p| p.ratio)).collect();
    ratios.sort_by_key(|ratio| ratio.order_key());
    ratios.dedup();
    let position = |ratio: GcRatio| ratios.iter().position(|&r| r == ratio).unwrap_or(0) as i32;
    let (y_low, y_high) = y_bounds(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let mut legend = Legend::default();
    let styles: Vec<_> = series.iter().map(|one| legend.add(one.label.clone())).collect();
    let label =
        |x: &i32| usize::try_from(*x).ok().and_then(|i| ratios.get(i)).map_or(String::new(), ToString::to_string);
    framed_plot(CHART, title, legend, (-1..ratios.len() as i32, log_axis(y_low, y_high)), |chart| {
        chart
            .configure_mesh()
            .x_desc("GC ratio (GOGC-style percent; off = only the ceiling collects)")
            .y_desc("operations per second (log scale)")
            .x_labels((ratios.len() + 2).min(MAX_X_LABELS))
            .x_label_formatter(&label)
            .y_label_formatter(&|y| format_rate(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| error(&e))?;
        for (one, &style) in series.iter().zip(&styles) {
            let mut points: Vec<(i32, f64, f64, f64)> =
                one.points.iter().map(|p| (position(p.ratio), p.median, p.low, p.high)).collect();
            points.sort_by_key(|point| point.0);
            draw_series(chart, CHART, style, &points)?;
        }
        Ok(())
    })
}

/// The log axis's ends: every positive value, padded by a factor of 1.5.
fn y_bounds(series: &[RatioSeries]) -> Option<(f64, f64)> {
    let values = series.iter().flat_map(|s| s.points.iter()).flat_map(|p| [p.low, p.high, p.median]);
    let (low, high) = values
        .filter(|value| *value > 0.0 && value.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(low, high), value| (low.min(value), high.max(value)));
    (high > 0.0).then(|| (low / 1.5, high * 1.5))
}
