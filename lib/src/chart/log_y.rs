//! Charts with a rate on a logarithmic y axis (the GC's, the locks', the categorical ones):
//! the axis, its labels and one series with its intervals.

use plotters::coord::combinators::{BindKeyPoints, WithKeyPoints};
use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;

use super::style::{draw_with_intervals, SeriesStyle};
use super::ChartError;

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

/// A chart with any x axis, throughput on a log y axis.
pub(crate) type LogYChart<'a, 'b, X> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, WithKeyPoints<LogCoord<f64>>>>;

/// A log axis from `low` to `high` with ticks at 1, 2 and 5 times each power of ten (the
/// default ticks of a log axis can repeat a label).
pub(crate) fn log_axis(low: f64, high: f64) -> WithKeyPoints<LogCoord<f64>> {
    let std::ops::Range { start: low, end: high } = crate::scale::span(low, high);
    (low..high).log_scale().with_key_points(crate::scale::marks_125(low, high))
}

/// Draws one series in `style`: its line, markers at the medians and bars over the
/// intervals. `points` are (x, median, low, high), in x order.
pub(crate) fn draw_series<X>(
    chart: &mut LogYChart<'_, '_, X>,
    chart_name: &'static str,
    style: SeriesStyle,
    points: &[(X::ValueType, f64, f64, f64)],
) -> Result<(), ChartError>
where
    X: Ranged,
    X::ValueType: Clone + 'static,
{
    let medians = points.iter().map(|(x, median, _, _)| (x.clone(), *median)).collect();
    let bars = points.iter().map(|(x, _, low, high)| ((x.clone(), *low), (x.clone(), *high))).collect();
    draw_with_intervals(chart, medians, bars, style, true).map_err(|e| ChartError::new(chart_name, e))
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
}
