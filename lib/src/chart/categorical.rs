//! The drawing shared by charts whose x axis is a list of named cases (the four-way
//! control, the counter layouts): each series a row of dots with interval bars, nudged
//! sideways so machines side by side stay readable; y logarithmic.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::{draw_legend, log_range, series_color, ChartError, Series, FONT, LABEL_PX, SIZE, TITLE_PX};

/// How far apart (in category widths) the series' dots sit within one category.
const NUDGE: f64 = 0.12;

/// Draws `series` over `categories`; a point's `x` is its category's index.
pub fn categorical_chart(
    chart_name: &'static str,
    title: &str,
    categories: &[&str],
    y_desc: &str,
    series: &[Series],
) -> Result<String, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(chart_name, e);
    let y_range = log_range(series).ok_or_else(|| ChartError::new(chart_name, "no data to draw"))?;
    let y_range = with_legend_headroom(y_range, series.len());
    let last = categories.len().saturating_sub(1) as f64;
    let label_of = |x: &f64| {
        let index = x.round();
        let named = (x - index).abs() < 1e-6 && index >= 0.0;
        named.then(|| categories.get(index as usize)).flatten().map_or(String::new(), |name| (*name).to_string())
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            // Base 2: plotters labels only powers of the base at or above the range's start,
            // and base 10 left the lower half of these charts unlabelled.
            .build_cartesian_2d(-0.5..last + 0.5, y_range.log_scale().base(2.0))
            .map_err(|e| error(&e))?;
        chart
            .configure_mesh()
            .y_desc(y_desc)
            .x_labels(categories.len())
            .x_label_formatter(&label_of)
            .y_label_formatter(&|y| axis_number(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .disable_x_mesh()
            .draw()
            .map_err(|e| error(&e))?;
        draw_points(&mut chart, series).map_err(|e| error(&e))?;
        draw_legend(&mut chart, chart_name, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

/// Each series' dots and interval bars, nudged sideways by series, and its legend entry.
fn draw_points<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, LogCoord<f64>>>,
    series: &[Series],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let middle = (series.len() as f64 - 1.0) / 2.0;
    for (index, one) in series.iter().enumerate() {
        let color = series_color(index);
        let shift = (index as f64 - middle) * NUDGE;
        chart
            .draw_series(one.points.iter().map(|p| Circle::new((p.x + shift, p.median), 4, color.filled())))?
            .label(one.label.clone())
            .legend(move |(x, y)| Circle::new((x + 9, y), 4, color.filled()));
        chart.draw_series(
            one.points
                .iter()
                .map(|p| PathElement::new(vec![(p.x + shift, p.low), (p.x + shift, p.high)], color.stroke_width(2))),
        )?;
    }
    Ok(())
}

/// Raises the top of a log range so the legend (upper right, one line per series) sits
/// above the data instead of over it.
fn with_legend_headroom(range: std::ops::Range<f64>, series: usize) -> std::ops::Range<f64> {
    let legend_share = (0.10 + 0.05 * series as f64).min(0.5);
    let span = (range.end / range.start).ln();
    range.start..range.end * (span * legend_share / (1.0 - legend_share)).exp()
}

/// "0.25", "1.5", "16", "256": at most two decimals, trailing zeros dropped.
fn axis_number(value: f64) -> String {
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
    fn headroom_keeps_the_data_and_grows_with_the_legend() {
        let one = with_legend_headroom(1.0..100.0, 1);
        let four = with_legend_headroom(1.0..100.0, 4);
        assert_eq!(one.start, 1.0);
        assert!(one.end > 100.0 && four.end > one.end);
    }

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(axis_number(0.25), "0.25");
        assert_eq!(axis_number(0.5), "0.5");
        assert_eq!(axis_number(2.0), "2");
        assert_eq!(axis_number(1.4000000000000001), "1.4");
        assert_eq!(axis_number(256.0), "256");
    }
}
