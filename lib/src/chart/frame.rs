//! The frame the line and dot charts share: a white picture [`SIZE`] wide whose plot sits
//! above the legend ([`Legend`]), the title as the plot's caption, its margin and label
//! areas. Each chart brings its own axes, mesh and series; only the frame is here, so the
//! charts line up in the report and a change to the frame reaches them all.

use plotters::coord::ranged1d::AsRangedCoord;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::style::{Chart, Legend};
use super::{ChartError, FONT, SIZE, TITLE_PX};

/// The area a chart draws on.
pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A plot with these axes, drawn on an [`Area`].
pub(crate) type Plot<'a, 'b, X, Y> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<<X as AsRangedCoord>::CoordDescType, <Y as AsRangedCoord>::CoordDescType>,
>;

/// A chart whose plot area is `size`, with `legend` below it: `draw` fills the plot area,
/// then the legend is drawn and the picture finished.
pub(crate) fn with_legend_below(
    chart_name: &'static str,
    size: (u32, u32),
    legend: Legend,
    draw: impl FnOnce(&Area<'_>) -> Result<(), ChartError>,
) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(chart_name, e);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (size.0, size.1 + legend.height(size.0))).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let (plot, below) = root.split_vertically(size.1);
        draw(&plot)?;
        legend.draw(&below, chart_name)?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(Chart { svg, legend: legend.entries })
}

/// A [`SIZE`] chart titled `title`, with axes `x` and `y` and `legend` below: `draw`
/// configures the mesh and draws the series on the plot.
pub(crate) fn framed_plot<X: AsRangedCoord, Y: AsRangedCoord>(
    chart_name: &'static str,
    title: &str,
    legend: Legend,
    (x, y): (X, Y),
    draw: impl FnOnce(&mut Plot<'_, '_, X, Y>) -> Result<(), ChartError>,
) -> Result<Chart, ChartError> {
    with_legend_below(chart_name, SIZE, legend, |area| {
        let mut plot = ChartBuilder::on(area)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x, y)
            .map_err(|e| ChartError::new(chart_name, e))?;
        draw(&mut plot)
    })
}
