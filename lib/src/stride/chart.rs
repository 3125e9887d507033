//! Time per add against stride: one line per series (this machine, the article, other
//! machines), median with its interval, both axes logarithmic (strides double; times span
//! two orders of magnitude in the article). Nanoseconds per add, not time per trial, so a
//! quick run and the article's 10 M adds per thread share one axis.

use plotters::prelude::*;

use super::StrideSummary;
use crate::chart::frame::framed_plot;
use crate::chart::style::{draw_with_intervals, Chart, Legend};
use crate::chart::{format_axis_number, log_range, ChartError, IntervalPoint, Series, FONT, LABEL_PX};

const CHART: &str = "stride";

/// A series of median nanoseconds per add per stride, with intervals.
pub fn series_from_summaries(label: impl Into<String>, summaries: &[StrideSummary]) -> Series {
    Series {
        label: label.into(),
        points: summaries.iter().map(|s| IntervalPoint::median_of(s.stride_bytes as f64, &s.ns_per_op)).collect(),
    }
}

/// Draws the sweep. The x axis is log2(stride) so each doubling is one step.
pub fn stride_chart(title: &str, series: &[Series]) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let y_range = log_range(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let strides = series.iter().flat_map(|s| s.points.iter().map(|p| p.x.log2()));
    let (x_min, x_max) = strides.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let x_steps = (x_max - x_min).round() as usize + 1;
    let mut legend = Legend::default();
    let styles: Vec<_> = series.iter().map(|one| legend.add(one.label.clone())).collect();
    framed_plot(CHART, title, legend, (x_min - 0.3..x_max + 0.3, y_range.log_scale()), |chart| {
        chart
            .configure_mesh()
            .x_desc("distance between counters (bytes)")
            .y_desc("time per add (ns, log scale)")
            .x_labels(x_steps)
            .x_label_formatter(&|x| format!("{:.0}", 2f64.powf(*x)))
            .y_label_formatter(&|y| format_axis_number(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| error(&e))?;
        for (one, &style) in series.iter().zip(&styles) {
            let medians = one.points.iter().map(|p| (p.x.log2(), p.median)).collect();
            let bars = one.points.iter().map(|p| ((p.x.log2(), p.low), (p.x.log2(), p.high))).collect();
            draw_with_intervals(chart, medians, bars, style, true).map_err(|e| error(&e))?;
        }
        Ok(())
    })
}
