//! Operations per second against worker threads, one line per GC ratio (the article's
//! curves): median with its interval, threads on a log2 axis (they double), throughput on
//! a log axis (the article's span 30 k to 690 k signatures/s, and machines differ more).

use plotters::prelude::*;

use super::super::{log_range, series_color, ChartError, Series, FONT, LABEL_PX, SIZE, TITLE_PX};
use super::{format_rate, is_dashed, log_fraction, quiet_corner};

const CHART: &str = "gc-threads";

/// Draws throughput against threads; each series' points carry x = thread count.
pub fn throughput_by_threads_chart(title: &str, series: &[Series]) -> Result<String, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let y_range = log_range(series).ok_or_else(|| ChartError::new(CHART, "no data to draw"))?;
    let doublings = series.iter().flat_map(|s| s.points.iter().map(|p| p.x.max(1.0).log2()));
    let (x_min, x_max) = doublings.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let x_steps = (x_max - x_min).round() as usize + 1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x_min - 0.3..x_max + 0.3, y_range.clone().log_scale())
            .map_err(|e| error(&e))?;
        chart
            .configure_mesh()
            .x_desc("worker threads")
            .y_desc("operations per second (log scale)")
            .x_labels(x_steps)
            .x_label_formatter(&|x| format!("{:.0}", 2f64.powf(*x)))
            .y_label_formatter(&|y| format_rate(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| error(&e))?;
        for (index, one) in series.iter().enumerate() {
            let color = series_color(index);
            let points: Vec<(f64, f64)> = one.points.iter().map(|p| (p.x.max(1.0).log2(), p.median)).collect();
            let legend = move |(x, y): (i32, i32)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2));
            if is_dashed(index) {
                chart.draw_series(DashedLineSeries::new(points.clone(), 6, 4, color.stroke_width(2)))
            } else {
                chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            }
            .map_err(|e| error(&e))?
            .label(one.label.clone())
            .legend(legend);
            chart
                .draw_series(points.iter().map(|&point| Circle::new(point, 3, color.filled())))
                .map_err(|e| error(&e))?;
            let bars = one.points.iter().map(|p| {
                let x = p.x.max(1.0).log2();
                PathElement::new(vec![(x, p.low), (x, p.high)], color.stroke_width(1))
            });
            chart.draw_series(bars).map_err(|e| error(&e))?;
        }
        chart
            .configure_series_labels()
            .position(legend_corner(series, (x_min - 0.3, x_max + 0.3), (y_range.start, y_range.end)))
            .label_font((FONT, LABEL_PX))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(|e| error(&e))?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

fn legend_corner(series: &[Series], (x_low, x_high): (f64, f64), (y_low, y_high): (f64, f64)) -> SeriesLabelPosition {
    let points: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter())
        .map(|p| ((p.x.max(1.0).log2() - x_low) / (x_high - x_low), log_fraction(p.median, y_low, y_high)))
        .collect();
    quiet_corner(&points, series.len())
}
