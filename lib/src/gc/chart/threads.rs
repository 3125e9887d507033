//! Operations per second against worker threads, one line per GC ratio (the article's
//! curves): median with its interval, threads on a log2 axis (they double), throughput on
//! a log axis (the article's span 30 k to 690 k signatures/s, and machines differ more).
//! Every line has its own colour, dash and marker; the legend sits below the plot.

use plotters::prelude::*;

use crate::chart::frame::framed_plot;
use crate::chart::log_y::{draw_series, format_rate, log_axis};
use crate::chart::style::{Chart, Legend};
use crate::chart::{log_range, ChartError, Series, FONT, LABEL_PX};

const CHART: &str = "gc-threads";

/// Draws throughput against threads; each series' points carry x = thread count.
pub fn throughput_by_threads_chart(title: &str, series: &[Series]) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let y_range = log_range(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let doublings = series.iter().flat_map(|s| s.points.iter().map(|p| p.x.max(1.0).log2()));
    let (x_min, x_max) = doublings.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let mut legend = Legend::default();
    let styles: Vec<_> = series.iter().map(|one| legend.add(one.label.clone())).collect();
    let axes = (x_min - 0.3..x_max + 0.3, log_axis(y_range.start, y_range.end));
    framed_plot(CHART, title, legend, axes, |chart| {
        chart
            .configure_mesh()
            .x_desc("worker threads")
            .y_desc("operations per second (log scale)")
            .x_labels((x_max - x_min).round() as usize + 1)
            .x_label_formatter(&|x| format!("{:.0}", 2f64.powf(*x)))
            .y_label_formatter(&|y| format_rate(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| error(&e))?;
        for (one, &style) in series.iter().zip(&styles) {
            let points: Vec<(f64, f64, f64, f64)> =
                one.points.iter().map(|p| (p.x.max(1.0).log2(), p.median, p.low, p.high)).collect();
            draw_series(chart, CHART, style, &points)?;
        }
        Ok(())
    })
}
