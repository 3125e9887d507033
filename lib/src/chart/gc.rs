//! The GC sweep's two charts (one per file): throughput against threads with one line per
//! ratio ([`threads`]), and throughput against ratio at the largest thread count
//! ([`ratio`]). This file turns cell summaries into their series.

pub mod ratio;
pub mod threads;

use plotters::coord::combinators::{BindKeyPoints, WithKeyPoints};
use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;

use super::{series_color, ChartError, IntervalPoint, Series};
use crate::gc::compare::CellFigures;
use crate::gc::summary::CellSummary;
use crate::gc::GcRatio;

/// Operations per second against threads at one ratio (x = thread count), from the model's
/// cells or real Go's.
pub fn series_by_threads<C: CellFigures>(label: impl Into<String>, cells: &[C], ratio: GcRatio) -> Series {
    Series {
        label: label.into(),
        points: cells
            .iter()
            .filter(|cell| cell.ratio() == ratio)
            .map(|cell| IntervalPoint::median_of(cell.threads() as f64, cell.ops_per_sec()))
            .collect(),
    }
}

/// One point of a series against the ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioPoint {
    pub ratio: GcRatio,
    pub median: f64,
    pub low: f64,
    pub high: f64,
}

/// A named series against the ratio (one machine at its largest thread count, or the article).
#[derive(Debug, Clone, PartialEq)]
pub struct RatioSeries {
    pub label: String,
    pub points: Vec<RatioPoint>,
}

/// Operations per second against the ratio at `threads`.
pub fn series_by_ratio(label: impl Into<String>, cells: &[CellSummary], threads: u64) -> RatioSeries {
    RatioSeries {
        label: label.into(),
        points: cells
            .iter()
            .filter(|cell| cell.threads == threads)
            .map(|cell| RatioPoint {
                ratio: cell.ratio,
                median: cell.ops_per_sec.median,
                low: cell.ops_per_sec.median_low,
                high: cell.ops_per_sec.median_high,
            })
            .collect(),
    }
}

/// Throughput as an axis label: "950", "12k", "1.2M".
pub(crate) fn format_rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        let millions = format!("{:.2}", per_second / 1e6);
        format!("{}M", millions.trim_end_matches('0').trim_end_matches('.'))
    } else if per_second >= 1e4 {
        format!("{:.0}k", per_second / 1e3)
    } else if per_second >= 1e3 {
        format!("{:.1}k", per_second / 1e3)
    } else {
        format!("{per_second:.0}")
    }
}

/// Series past the palette's seven colours repeat a colour, so they are drawn dashed.
pub(crate) fn is_dashed(index: usize) -> bool {
    index >= super::PALETTE.len()
}

/// A chart of both files: any x axis, throughput on a log y axis.
pub(crate) type LogYChart<'a, 'b, X> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, WithKeyPoints<LogCoord<f64>>>>;

/// A log axis from `low` to `high` with ticks at 1, 2 and 5 times each power of ten (the
/// default ticks of a log axis can repeat a label).
pub(crate) fn log_axis(low: f64, high: f64) -> WithKeyPoints<LogCoord<f64>> {
    let std::ops::Range { start: low, end: high } = super::log_span(low, high);
    let first = low.log10().floor() as i32;
    let last = high.log10().ceil() as i32;
    let ticks: Vec<f64> = (first..=last)
        .flat_map(|power| [1.0, 2.0, 5.0].map(|step| step * 10f64.powi(power)))
        .filter(|tick| (low..=high).contains(tick))
        .collect();
    (low..high).log_scale().with_key_points(ticks)
}

/// Draws the `index`-th series: its line (dashed past the palette), dots at the medians and
/// bars over the intervals. `points` are (x, median, low, high), in x order.
pub(crate) fn draw_series<X>(
    chart: &mut LogYChart<'_, '_, X>,
    chart_name: &'static str,
    index: usize,
    label: &str,
    points: &[(X::ValueType, f64, f64, f64)],
) -> Result<(), ChartError>
where
    X: Ranged,
    X::ValueType: Clone + 'static,
{
    let error = |e: &dyn std::fmt::Display| ChartError::new(chart_name, e);
    let color = series_color(index);
    let line: Vec<(X::ValueType, f64)> = points.iter().map(|(x, median, _, _)| (x.clone(), *median)).collect();
    let drawn = if is_dashed(index) {
        chart.draw_series(DashedLineSeries::new(line.clone(), 6, 4, color.stroke_width(2)))
    } else {
        chart.draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))
    };
    drawn
        .map_err(|e| error(&e))?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    chart.draw_series(line.into_iter().map(|point| Circle::new(point, 3, color.filled()))).map_err(|e| error(&e))?;
    let bars = points
        .iter()
        .map(|(x, _, low, high)| PathElement::new(vec![(x.clone(), *low), (x.clone(), *high)], color.stroke_width(1)));
    chart.draw_series(bars).map_err(|e| error(&e))?;
    Ok(())
}

/// The plot corner where the legend covers the fewest points. `points` are normalised to
/// 0..1 on both axes; the legend box is about 45% of the width and grows with `entries`.
pub(crate) fn quiet_corner(points: &[(f64, f64)], entries: usize) -> SeriesLabelPosition {
    const PLOT_PX: f64 = 330.0;
    let height = ((entries as f64 * 20.0 + 12.0) / PLOT_PX).min(0.95);
    let width = 0.45;
    let corners = [
        (SeriesLabelPosition::LowerRight, 1.0 - width, 1.0, 0.0, height),
        (SeriesLabelPosition::UpperRight, 1.0 - width, 1.0, 1.0 - height, 1.0),
        (SeriesLabelPosition::UpperLeft, 0.0, width, 1.0 - height, 1.0),
        (SeriesLabelPosition::LowerLeft, 0.0, width, 0.0, height),
    ];
    let covered = |&(_, x0, x1, y0, y1): &(SeriesLabelPosition, f64, f64, f64, f64)| {
        points.iter().filter(|&&(x, y)| x >= x0 && x <= x1 && y >= y0 && y <= y1).count()
    };
    // min_by_key keeps the first of equals: the order above is the preference.
    corners.iter().min_by_key(|corner| covered(corner)).map_or(SeriesLabelPosition::LowerRight, |c| c.0.clone())
}

/// `value` between `low` and `high` on a log scale, as 0..1.
pub(crate) fn log_fraction(value: f64, low: f64, high: f64) -> f64 {
    ((value.ln() - low.ln()) / (high.ln() - low.ln())).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_at_a_glance() {
        assert_eq!(format_rate(950.0), "950");
        assert_eq!(format_rate(1500.0), "1.5k");
        assert_eq!(format_rate(274_622.0), "275k");
        assert_eq!(format_rate(1_250_000.0), "1.25M");
        assert_eq!(format_rate(1_000_000.0), "1M");
        assert_eq!(format_rate(2_500_000.0), "2.5M");
    }

    #[test]
    fn log_ticks_are_one_two_five() {
        let axis = log_axis(15_000.0, 1_200_000.0);
        assert_eq!(
            axis.key_points(plotters::coord::ranged1d::BoldPoints(12)),
            vec![20_000.0, 50_000.0, 100_000.0, 200_000.0, 500_000.0, 1_000_000.0]
        );
    }

    #[test]
    fn legend_goes_where_the_points_are_not() {
        let busy_lower_right = [(0.9, 0.1), (0.8, 0.2), (0.7, 0.05)];
        assert!(matches!(quiet_corner(&busy_lower_right, 3), SeriesLabelPosition::UpperRight));
        let rising = [(0.0, 0.0), (0.5, 0.5), (1.0, 1.0), (0.9, 0.95)];
        assert!(matches!(quiet_corner(&rising, 3), SeriesLabelPosition::LowerRight));
        assert!((log_fraction(100.0, 10.0, 1000.0) - 0.5).abs() < 1e-12);
    }
}
