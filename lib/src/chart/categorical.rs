//! The drawing shared by charts whose x axis is a list of named cases (the four-way
//! control, the counter layouts, the lock primitives): each series a row of markers with
//! interval bars, nudged sideways so machines side by side stay readable; y logarithmic,
//! ticked at 1, 2 and 5 per decade; the legend below.

use plotters::prelude::*;

use super::frame::framed_plot;
use super::log_y::log_axis;
use super::style::{draw_with_intervals, Chart, Legend};
use super::{log_range, ChartError, IntervalPoint, Series, FONT, LABEL_PX};

/// How far apart (in category widths) the series' dots sit within one category.
const NUDGE: f64 = 0.12;

/// Draws `series` over `categories`; a point's `x` is its category's index; `y_label`
/// writes a tick's value.
pub fn categorical_chart(
    chart_name: &'static str,
    title: &str,
    categories: &[&str],
    (y_desc, y_label): (&str, fn(f64) -> String),
    series: &[Series],
) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(chart_name, e);
    let y_range = log_range(series).ok_or_else(|| ChartError::new(chart_name, "no data to draw"))?;
    let last = categories.len().saturating_sub(1) as f64;
    let label_of = |x: &f64| {
        let index = x.round();
        let named = (x - index).abs() < 1e-6 && index >= 0.0;
        named.then(|| categories.get(index as usize)).flatten().map_or(String::new(), |name| (*name).to_string())
    };
    let mut legend = Legend::of_markers();
    let styles: Vec<_> = series.iter().map(|one| legend.add(one.label.clone())).collect();
    framed_plot(chart_name, title, legend, (-0.5..last + 0.5, log_axis(y_range.start, y_range.end)), |chart| {
        chart
            .configure_mesh()
            .y_desc(y_desc)
            .x_labels(categories.len())
            .x_label_formatter(&label_of)
            .y_label_formatter(&|y| y_label(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .disable_x_mesh()
            .draw()
            .map_err(|e| error(&e))?;
        let middle = (series.len() as f64 - 1.0) / 2.0;
        for (index, (one, &style)) in series.iter().zip(&styles).enumerate() {
            // Nudged sideways by series, so machines side by side stay readable.
            let x = |p: &IntervalPoint| p.x + (index as f64 - middle) * NUDGE;
            let medians = one.points.iter().map(|p| (x(p), p.median)).collect();
            let bars = one.points.iter().map(|p| ((x(p), p.low), (x(p), p.high))).collect();
            draw_with_intervals(chart, medians, bars, style, false).map_err(|e| error(&e))?;
        }
        Ok(())
    })
}

/// "0.25", "1.5", "16", "256": at most two decimals, trailing zeros dropped.
pub fn axis_number(value: f64) -> String {
    if value >= 10.0 {
        return format!("{value:.0}");
    }
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(axis_number(0.25), "0.25");
        assert_eq!(axis_number(0.5), "0.5");
        assert_eq!(axis_number(2.0), "2");
        assert_eq!(axis_number(1.4000000000000001), "1.4");
        assert_eq!(axis_number(256.0), "256");
    }
}
