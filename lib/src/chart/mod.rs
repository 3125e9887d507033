//! The charts' kit: the style, frames, axes and errors that every chart shares, below the
//! experiments. Each experiment draws its own charts in its folder (`stride::chart`,
//! `gc::chart`, ...), plain data to an SVG string; the headline's is here (the room's, with the room).
//! The same functions draw the report's figures and the notebooks' inline ones.

pub(crate) mod categorical;
pub(crate) mod frame;
pub mod headline;
pub(crate) mod log_y;
pub mod style;

use plotters::prelude::*;
use thiserror::Error;

use crate::stats::Summary;
pub use style::{hex, ink_on, series_style, status_color, Chart, Dash, Legend, LegendEntry, Marker, SeriesStyle};

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
/// yellow that disappears on white, then three of Paul Tol's muted scheme (2021: wine,
/// olive, grey) so ten series get ten colours. Series also differ by dash and marker
/// ([`style`]), so colour is never the only cue.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
    RGBColor(136, 34, 85),   // wine
    RGBColor(153, 153, 51),  // olive
    RGBColor(119, 119, 119), // grey
];

/// Colour of the `index`-th series (its whole look: [`series_style`]).
pub fn series_color(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

/// Width and height of a chart's plot; its legend adds a strip below ([`style::Legend`]).
pub const SIZE: (u32, u32) = (760, 420);
pub const FONT: &str = "sans-serif";
pub const TITLE_PX: u32 = 18;
pub const LABEL_PX: u32 = 13;

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

/// A value as an axis label: "0.5", "20", "2400".
pub(crate) fn format_axis_number(value: f64) -> String {
    if value >= 10.0 {
        format!("{value:.0}")
    } else if value >= 1.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// The range covering every interval of every series, padded by a factor on a log axis
/// ([`crate::scale::LogScale`]: bounded for any values).
pub(crate) fn log_range(series: &[Series]) -> Option<std::ops::Range<f64>> {
    let values = series.iter().flat_map(|s| s.points.iter()).flat_map(|p| [p.low, p.high, p.median]);
    crate::scale::LogScale::holding(values, 1.5, 1.0).map(|scale| scale.range())
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
    fn base64_matches_rfc4648_vectors() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
