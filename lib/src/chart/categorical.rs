//! The drawing shared by charts whose x axis is a list of named cases (the four-way
//! control, the counter layouts): each series a row of dots with interval bars, nudged
//! sideways so machines side by side stay readable; y logarithmic.

use plotters::prelude::*;

use super::stride::format_ms;
use super::{log_range, series_color, ChartError, Series, FONT, LABEL_PX, SIZE, TITLE_PX};

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
            .build_cartesian_2d(-0.5..last + 0.5, y_range.log_scale())
            .map_err(|e| error(&e))?;
        chart
            .configure_mesh()
            .y_desc(y_desc)
            .x_labels(categories.len())
            .x_label_formatter(&label_of)
            .y_label_formatter(&|y| format_ms(*y))
            .label_style((FONT, LABEL_PX))
            .light_line_style(WHITE.mix(0.0))
            .disable_x_mesh()
            .draw()
            .map_err(|e| error(&e))?;
        let middle = (series.len() as f64 - 1.0) / 2.0;
        for (index, one) in series.iter().enumerate() {
            let color = series_color(index);
            let shift = (index as f64 - middle) * NUDGE;
            chart
                .draw_series(one.points.iter().map(|p| Circle::new((p.x + shift, p.median), 4, color.filled())))
                .map_err(|e| error(&e))?
                .label(one.label.clone())
                .legend(move |(x, y)| Circle::new((x + 9, y), 4, color.filled()));
            chart
                .draw_series(one.points.iter().map(|p| {
                    PathElement::new(vec![(p.x + shift, p.low), (p.x + shift, p.high)], color.stroke_width(2))
                }))
                .map_err(|e| error(&e))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, LABEL_PX))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(|e| error(&e))?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}
