//! How every chart tells its series apart: each series a colour, a dash and a marker
//! ([`SeriesStyle`]), handed out in turn by [`Legend`] so that no two series of one chart
//! share both colour and dash; lines, markers and the legend's samples are drawn from that
//! one style, and the legend sits below the plot, never over the data.
//!
//! Colour alone fails readers who cannot tell some hues apart and anyone printing in grey
//! (Okabe & Ito, 2008); a dash and a marker per series carry the same distinction.

use plotters::coord::{CoordTranslate, Shift};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::{ChartError, FONT, LABEL_PX, PALETTE};
use crate::judgement::Status;
pub use crate::view::{Dash, LegendEntry, Marker, SeriesStyle};

/// The `index`-th series' style: colours, dashes and markers each cycle at their own
/// length (10, 4 and 5), so neighbours differ in all three and no two of the first 20
/// series share both colour and dash.
pub fn series_style(index: usize) -> SeriesStyle {
    SeriesStyle {
        color: PALETTE[index % PALETTE.len()],
        dash: Dash::ALL[index % Dash::ALL.len()],
        marker: Marker::ALL[index % Marker::ALL.len()],
    }
}

/// A status's colour, from the palette: wherever a status is coloured (the claims' strip,
/// the headline figures) it has this one; its letter ([`Status::letter`]) carries the same
/// distinction in black and white. The two statuses that give no answer here (not
/// measurable, not in this run) share black.
pub fn status_color(status: Status) -> RGBColor {
    PALETTE[match status {
        Status::Reproduced => 2,
        Status::Smaller => 0,
        Status::Larger => 5,
        Status::Differs => 1,
        Status::NotBeyondNoise => 9,
        Status::TooNoisy => 8,
        Status::Unsettled => 4,
        Status::NeedsCores(_) => 3,
        Status::SetUp => 7,
        Status::NotMeasurable | Status::NotInRun => 6,
    }]
}

/// The ink that reads on `background`: black on a light colour, white on a dark one (by
/// relative luminance, WCAG 2.1).
pub fn ink_on(background: RGBColor) -> RGBColor {
    let linear = |channel: u8| {
        let c = f64::from(channel) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let RGBColor(r, g, b) = background;
    let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    // Where black and white contrast equally with the background: (L + 0.05)^2 = 1.05 x 0.05.
    if luminance > 0.179 {
        BLACK
    } else {
        WHITE
    }
}

/// `color` as CSS writes it: "#0072B2".
pub fn hex(color: RGBColor) -> String {
    let RGBColor(r, g, b) = color;
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// A drawn chart: its SVG, and the legend of the series in it (what tests and text
/// stand-ins can read without parsing the picture).
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub svg: String,
    pub legend: Vec<LegendEntry>,
}

/// The series of one chart in drawing order: each [`Legend::add`] hands out the next style.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Legend {
    pub entries: Vec<LegendEntry>,
    /// The chart draws markers only (no lines): the samples show no line either.
    pub markers_only: bool,
}

impl Legend {
    /// A legend for a chart of markers without lines (categories on x).
    pub fn of_markers() -> Self {
        Self { entries: Vec::new(), markers_only: true }
    }

    /// The style of the next series, recorded under `label`.
    pub fn add(&mut self, label: impl Into<String>) -> SeriesStyle {
        let style = series_style(self.entries.len());
        self.entries.push(LegendEntry { label: label.into(), style });
        style
    }

    /// Pixels the legend needs below a plot `width` wide.
    pub fn height(&self, width: u32) -> u32 {
        if self.entries.is_empty() {
            return 0;
        }
        let rows = self.entries.len().div_ceil(self.columns(width));
        rows as u32 * ROW_PX + 2 * PAD_PX
    }

    /// Two columns when every label fits half the width, else one.
    fn columns(&self, width: u32) -> usize {
        let widest = self.entries.iter().map(|entry| entry.label.chars().count()).max().unwrap_or(0);
        let half_px = (width / 2).saturating_sub(SAMPLE_PX + 2 * PAD_PX);
        if (widest as u32) * CHAR_PX <= half_px {
            2
        } else {
            1
        }
    }

    /// Draws the entries in `area` (below the plot): a sample of each line with its marker,
    /// then its label.
    pub fn draw(&self, area: &DrawingArea<SVGBackend<'_>, Shift>, chart: &'static str) -> Result<(), ChartError> {
        let error = |e: &dyn std::fmt::Display| ChartError::new(chart, e);
        let (width, _) = area.dim_in_pixel();
        let columns = self.columns(width);
        let column_px = (width as usize / columns) as i32;
        for (index, entry) in self.entries.iter().enumerate() {
            let x = PAD_PX as i32 + (index % columns) as i32 * column_px + LEFT_PX;
            let y = PAD_PX as i32 + (index / columns) as i32 * ROW_PX as i32 + ROW_PX as i32 / 2;
            let sample = [(x, y), (x + SAMPLE_PX as i32, y)];
            if !self.markers_only {
                draw_pixel_line(area, &sample, entry.style).map_err(|e| error(&e))?;
            }
            draw_pixel_marker(area, (x + SAMPLE_PX as i32 / 2, y), entry.style).map_err(|e| error(&e))?;
            let text = Text::new(
                entry.label.clone(),
                (x + SAMPLE_PX as i32 + 8, y - LABEL_PX as i32 / 2 - 1),
                (FONT, LABEL_PX),
            );
            area.draw(&text).map_err(|e| error(&e))?;
        }
        Ok(())
    }
}

/// Legend rows, in pixels; the sample line's length; padding; where the first column starts.
const ROW_PX: u32 = 20;
const SAMPLE_PX: u32 = 36;
const PAD_PX: u32 = 6;
const LEFT_PX: i32 = 58;
/// A generous width of one label character at [`LABEL_PX`].
const CHAR_PX: u32 = 7;

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Joins `points` (data coordinates) in the series' colour and dash.
pub(crate) fn draw_line<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<CT::From>,
    style: SeriesStyle,
) -> DrawResult<DB>
where
    DB: DrawingBackend,
    CT: CoordTranslate,
    CT::From: Clone + 'static,
{
    let stroke = style.color.stroke_width(2);
    match style.dash.pattern() {
        None => chart.draw_series(LineSeries::new(points, stroke)).map(drop),
        Some((dash, gap)) => chart.draw_series(DashedLineSeries::new(points, dash, gap, stroke)).map(drop),
    }
}

/// The series' marker at each of `points` (data coordinates).
pub(crate) fn draw_markers<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<CT::From>,
    style: SeriesStyle,
) -> DrawResult<DB>
where
    DB: DrawingBackend,
    CT: CoordTranslate,
    CT::From: Clone + 'static,
{
    let fill = style.color.filled();
    let at = move |point: CT::From| EmptyElement::at(point);
    match style.marker {
        Marker::Circle => chart.draw_series(points.into_iter().map(|p| at(p) + Circle::new((0, 0), 4, fill))).map(drop),
        Marker::Square => {
            chart.draw_series(points.into_iter().map(|p| at(p) + Rectangle::new([(-4, -4), (4, 4)], fill))).map(drop)
        }
        Marker::Triangle => {
            chart.draw_series(points.into_iter().map(|p| at(p) + TriangleMarker::new((0, 0), 6, fill))).map(drop)
        }
        Marker::Diamond => chart
            .draw_series(points.into_iter().map(|p| at(p) + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], fill)))
            .map(drop),
        Marker::Cross => chart
            .draw_series(points.into_iter().map(|p| at(p) + Cross::new((0, 0), 4, style.color.stroke_width(2))))
            .map(drop),
    }
}

/// One series with intervals: its line through the medians (when `joined`), its marker at
/// each median, and a thin bar over each interval (`bars`: from low to high), all in its
/// colour. Points are in data coordinates, in x order.
pub(crate) fn draw_with_intervals<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    medians: Vec<CT::From>,
    bars: Vec<(CT::From, CT::From)>,
    style: SeriesStyle,
    joined: bool,
) -> DrawResult<DB>
where
    DB: DrawingBackend,
    CT: CoordTranslate,
    CT::From: Clone + 'static,
{
    if joined {
        draw_line(chart, medians.clone(), style)?;
    }
    let bar_stroke = style.color.stroke_width(1);
    chart.draw_series(bars.into_iter().map(|(low, high)| PathElement::new(vec![low, high], bar_stroke)))?;
    draw_markers(chart, medians, style)
}

/// A line in pixel coordinates (the legend's samples).
fn draw_pixel_line(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    points: &[(i32, i32)],
    style: SeriesStyle,
) -> DrawResult<SVGBackend<'static>> {
    let stroke = style.color.stroke_width(2);
    match style.dash.pattern() {
        None => area.draw(&PathElement::new(points.to_vec(), stroke)),
        Some((dash, gap)) => {
            area.draw(&DashedPathElement::new(points.iter().copied(), dash as i32, gap as i32, stroke))
        }
    }
}

/// A marker in pixel coordinates (the legend's samples).
fn draw_pixel_marker(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    (x, y): (i32, i32),
    style: SeriesStyle,
) -> DrawResult<SVGBackend<'static>> {
    let fill = style.color.filled();
    match style.marker {
        Marker::Circle => area.draw(&Circle::new((x, y), 4, fill)),
        Marker::Square => area.draw(&Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], fill)),
        Marker::Triangle => area.draw(&TriangleMarker::new((x, y), 6, fill)),
        Marker::Diamond => area.draw(&Polygon::new(vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)], fill)),
        Marker::Cross => area.draw(&Cross::new((x, y), 4, style.color.stroke_width(2))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_series_never_share_colour_and_dash() {
        let styles: Vec<SeriesStyle> = (0..20).map(series_style).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[..i] {
                assert!((a.color, a.dash) != (b.color, b.dash), "{a:?} and {b:?}");
            }
        }
        let first_ten: Vec<RGBColor> = styles[..10].iter().map(|s| s.color).collect();
        assert!(first_ten.iter().enumerate().all(|(i, c)| !first_ten[..i].contains(c)), "ten distinct colours");
    }

    #[test]
    fn every_status_tile_has_ink_that_contrasts_with_it() {
        let relative = |c: RGBColor| {
            let linear = |v: u8| {
                let v = f64::from(v) / 255.0;
                if v <= 0.04045 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
        };
        for status in Status::ALL {
            let (background, ink) = (status_color(status), ink_on(status_color(status)));
            let (light, dark) = {
                let (a, b) = (relative(background), relative(ink));
                (a.max(b), a.min(b))
            };
            let contrast = (light + 0.05) / (dark + 0.05);
            assert!(contrast >= 4.5, "{status:?}: {} on {} has contrast {contrast:.1}", hex(ink), hex(background));
        }
    }

    #[test]
    fn the_legend_hands_out_styles_in_turn_and_grows_below_the_plot() {
        let mut legend = Legend::default();
        assert_eq!(legend.height(760), 0);
        for label in ["a", "b", "c"] {
            legend.add(label);
        }
        assert_eq!(legend.entries[2].style, series_style(2));
        assert_eq!(legend.height(760), 2 * ROW_PX + 2 * PAD_PX, "two columns of short labels");
        legend.add("a label far too long to share a row with another one in half of the chart's width");
        assert_eq!(legend.height(760), 4 * ROW_PX + 2 * PAD_PX, "one column once a label is long");
    }
}
