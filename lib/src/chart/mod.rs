//! Charts: functions from plain data to an SVG string, one chart per file, sharing the
//! style below. The same functions draw the report's figures and the notebooks' inline ones.

pub mod c2c;
mod categorical;
pub mod counters;
pub mod gc;
pub mod locks;
pub mod pool_latency;
pub mod pool_switches;
pub mod refill;
pub mod room;
pub mod sharing;
pub mod stride;

use plotters::coord::CoordTranslate;
use plotters::prelude::*;
use thiserror::Error;

use crate::stats::Summary;

/// A chart could not be drawn.
#[derive(Debug, Error)]
#[error("could not draw the {chart} chart: {message}")]
pub struct ChartError {
    pub chart: &'static str,
    pub message: String,
}

impl ChartError {
    pub(crate) fn new(chart: &'static str, error: impl std::fmt::Display) -> Self {
        Self { chart, message: error.to_string() }
    }
}

/// Okabe & Ito's colour-blind-safe palette (Color Universal Design, 2008), without the
/// yellow that disappears on white.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
];

/// Colour of the `index`-th series.
pub fn series_color(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

pub const SIZE: (u32, u32) = (760, 420);
pub const FONT: &str = "sans-serif";
pub const TITLE_PX: u32 = 18;
pub const LABEL_PX: u32 = 13;

/// Draws the series legend in `corner`, in the style every chart shares.
pub(crate) fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    chart_name: &'static str,
    corner: SeriesLabelPosition,
) -> Result<(), ChartError> {
    chart
        .configure_series_labels()
        .position(corner)
        .label_font((FONT, LABEL_PX))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()
        .map_err(|e| ChartError::new(chart_name, e))
}

/// One point with an interval: a median and the ends of its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntervalPoint {
    pub x: f64,
    pub median: f64,
    pub low: f64,
    pub high: f64,
}

impl IntervalPoint {
    /// The median of `summary` at `x`, with the median's interval.
    pub fn median_of(x: f64, summary: &Summary) -> Self {
        Self { x, median: summary.median, low: summary.median_low, high: summary.median_high }
    }
}

/// A named series of points (one machine, one ratio, one pool variant...).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<IntervalPoint>,
}

/// The range covering every interval of every series, padded by a factor on a log axis,
/// within [`log_span`]'s bounds.
pub(crate) fn log_range(series: &[Series]) -> Option<std::ops::Range<f64>> {
    let values = series.iter().flat_map(|s| s.points.iter()).flat_map(|p| [p.low, p.high, p.median]);
    let (low, high) = values
        .filter(|value| *value > 0.0 && value.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(low, high), value| (low.min(value), high.max(value)));
    (high > 0.0).then(|| log_span(low / 1.5, high * 1.5))
}

/// The lowest and highest values a log axis reaches: a row holds nothing outside
/// 1e-12 to 1e15 ([`crate::limits::saved`]), and ratios of two such values stay inside too.
const LOG_FLOOR: f64 = 1e-30;
pub(crate) const LOG_CEILING: f64 = 1e30;
/// The most decades one log axis spans: a chart of wider data keeps its top
/// [`MAX_LOG_DECADES`] and draws what lies below at the bottom edge. Plotters places a log
/// axis's ticks by stepping through its decades, and spins on a span that overflows (a
/// subnormal low end, an infinite high one); twelve decades are more than any chart here
/// needs (the article's times span two).
pub(crate) const MAX_LOG_DECADES: i32 = 12;

/// `low..high` made safe for a log axis: both ends finite, positive and normal, within
/// [`LOG_FLOOR`] and [`LOG_CEILING`], `low` below `high`, at most [`MAX_LOG_DECADES`] apart.
pub(crate) fn log_span(low: f64, high: f64) -> std::ops::Range<f64> {
    let high = log_value(high).max(LOG_FLOOR * 10.0);
    let low = log_value(low);
    let low = if low >= high { high / 10.0 } else { low.max(high / 10f64.powi(MAX_LOG_DECADES)) };
    low..high
}

/// `value` within [`LOG_FLOOR`] and [`LOG_CEILING`] (NaN: 1).
pub(crate) fn log_value(value: f64) -> f64 {
    if value.is_nan() {
        1.0
    } else {
        value.clamp(LOG_FLOOR, LOG_CEILING)
    }
}

/// Wraps an SVG in an `<img>` with a base64 data URL: Jupyter shows it even in an
/// untrusted notebook, where raw SVG output is hidden.
pub fn svg_as_img_tag(svg: &str, alt: &str) -> String {
    format!(
        "<img alt=\"{}\" src=\"data:image/svg+xml;base64,{}\"/>",
        alt.replace('"', "&quot;"),
        base64(svg.as_bytes())
    )
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut encoded = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (i, &b)| word | u32::from(b) << (16 - 8 * i));
        for position in 0..4 {
            if position <= chunk.len() {
                encoded.push(ALPHABET[(word >> (18 - 6 * position) & 63) as usize] as char);
            } else {
                encoded.push('=');
            }
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_spans_are_finite_normal_and_bounded() {
        for (low, high) in
            [(1e-320, 1.0), (5e-324, 1e308), (1e-300, f64::INFINITY), (0.0, 0.0), (f64::NAN, 5.0), (3.0, 2.0)]
        {
            let span = log_span(low, high);
            assert!(span.start.is_normal() && span.end.is_normal() && span.start < span.end, "{low} {high}");
            assert!((span.end / span.start).log10() <= f64::from(MAX_LOG_DECADES) + 1e-9, "{span:?}");
        }
        assert_eq!(log_span(2.0, 300.0), 2.0..300.0);
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
