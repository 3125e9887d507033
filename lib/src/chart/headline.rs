//! One article's headline as a picture: on a log scale of the headline's ratio, the
//! article's figure as a dashed line and this machine's median as a dot with its interval,
//! the status in words beside it in its colour. Small, so the three sit side by side on the
//! report's first screen.
//!
//! The axis's ticks are this file's own ([`log_ticks`]): every loop is bounded by the
//! decades a log axis may span, so any finite input ends.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::categorical::axis_number;
use super::style::{ink_on, series_style, status_color, Chart, Dash, LegendEntry, Marker, SeriesStyle};
use super::{ChartError, FONT, PALETTE};
use crate::judgement::Status;
use crate::scale::{self, span as log_span};
use crate::stats::Ratio;

const CHART: &str = "headline";

/// The chart's size: three fit side by side in the page's column.
pub const WIDTH: u32 = 440;
pub const HEIGHT: u32 = 150;
const MARGIN: i32 = 16;
const TITLE_Y: i32 = 16;
const ARTICLE_Y: i32 = 42;
const MACHINE_Y: i32 = 68;
const AXIS_Y: i32 = 96;
const STATUS_Y: i32 = 130;
const SMALL_PX: u32 = 13;

/// What one headline figure shows, as plain data (the presentation computes it).
#[derive(Debug, Clone, PartialEq)]
pub struct HeadlineMark {
    /// The article's name ("A. False sharing").
    pub title: String,
    /// The article's figure as a ratio: its low and high ends (equal for a single figure).
    pub article: (f64, f64),
    /// "article 13.7x".
    pub article_label: String,
    /// This machine's median and interval, where it measured one.
    pub machine: Option<Ratio>,
    /// "2 threads: 1.36x", or why there is no dot ("not in this run").
    pub machine_label: String,
    pub status: Status,
}

/// Draws `mark`: the article's dashed line, the machine's dot and interval, the ticks, the
/// status in words.
pub fn headline_chart(mark: &HeadlineMark) -> Result<Chart, ChartError> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&area, mark).map_err(|e| ChartError::new(CHART, e))?;
        area.present().map_err(|e| ChartError::new(CHART, e))?;
    }
    let article = SeriesStyle { color: PALETTE[6], dash: Dash::Dashed, marker: Marker::Cross };
    let machine = SeriesStyle { color: series_style(0).color, dash: Dash::Solid, marker: Marker::Circle };
    let legend = vec![
        LegendEntry { label: mark.article_label.clone(), style: article },
        LegendEntry { label: mark.machine_label.clone(), style: machine },
    ];
    Ok(Chart { svg, legend })
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw(area: &Area<'_>, mark: &HeadlineMark) -> Drawn {
    area.fill(&WHITE)?;
    let bold = (FONT, 16).into_font().style(FontStyle::Bold);
    area.draw(&Text::new(mark.title.clone(), (MARGIN - 8, TITLE_Y - 7), bold))?;
    let values = [mark.article.0, mark.article.1, 1.0];
    let measured = mark.machine.iter().flat_map(|r| [r.low, r.value, r.high]);
    let scale = Scale::over(values.into_iter().chain(measured));
    draw_axis(area, &scale)?;
    let (low, high) = (scale.x(mark.article.0), scale.x(mark.article.1));
    if high - low > 2 {
        area.draw(&Rectangle::new([(low, ARTICLE_Y - 8), (high, AXIS_Y)], PALETTE[9].mix(0.15).filled()))?;
    }
    let black = PALETTE[6];
    let dashed = |x: i32| DashedPathElement::new([(x, ARTICLE_Y - 8), (x, AXIS_Y)], 5, 4, black.stroke_width(2));
    area.draw(&dashed(low))?;
    if high != low {
        area.draw(&dashed(high))?;
    }
    label(area, &mark.article_label, ((low + high) / 2, ARTICLE_Y - 14), black, true)?;
    let blue = series_style(0).color;
    match mark.machine {
        Some(ratio) => {
            let (from, at, to) = (scale.x(ratio.low), scale.x(ratio.value), scale.x(ratio.high));
            area.draw(&PathElement::new([(from, MACHINE_Y), (to, MACHINE_Y)], blue.stroke_width(3)))?;
            for end in [from, to] {
                area.draw(&PathElement::new([(end, MACHINE_Y - 6), (end, MACHINE_Y + 6)], blue.stroke_width(2)))?;
            }
            area.draw(&Circle::new((at, MACHINE_Y), 6, blue.filled()))?;
            area.draw(&Circle::new((at, MACHINE_Y), 6, WHITE.stroke_width(1)))?;
            label(area, &mark.machine_label, (at, MACHINE_Y + 10), blue, false)?;
        }
        None => label(area, &mark.machine_label, (WIDTH as i32 / 2, MACHINE_Y - 6), blue, false)?,
    }
    draw_status(area, mark.status)
}

/// The status in words, after a tile of its colour holding its letter.
fn draw_status(area: &Area<'_>, status: Status) -> Drawn {
    let color = status_color(status);
    let tile = [(MARGIN - 8, STATUS_Y - 10), (MARGIN + 12, STATUS_Y + 10)];
    area.draw(&Rectangle::new(tile, color.filled()))?;
    let centred = Pos::new(HPos::Center, VPos::Center);
    let letter = (FONT, 14).into_font().style(FontStyle::Bold).color(&ink_on(color)).pos(centred);
    area.draw(&Text::new(status.letter().to_string(), (MARGIN + 2, STATUS_Y), letter))?;
    let words = (FONT, 14).into_font().style(FontStyle::Bold).color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    area.draw(&Text::new(status.label(), (MARGIN + 20, STATUS_Y), words))
}

/// `text` at `(x, y)` (its top, or its bottom when `above`), kept inside the chart: left of
/// a point in the chart's right half, right of it in the left half.
fn label(area: &Area<'_>, text: &str, (x, y): (i32, i32), color: RGBColor, above: bool) -> Drawn {
    let h = if x > WIDTH as i32 * 2 / 3 {
        HPos::Right
    } else if x < WIDTH as i32 / 3 {
        HPos::Left
    } else {
        HPos::Center
    };
    let x = x.clamp(MARGIN - 8, WIDTH as i32 - MARGIN + 8);
    let v = if above { VPos::Bottom } else { VPos::Top };
    let style = (FONT, SMALL_PX).into_font().color(&color).pos(Pos::new(h, v));
    area.draw(&Text::new(text.to_string(), (x, y), style))
}

fn draw_axis(area: &Area<'_>, scale: &Scale) -> Drawn {
    let grey = PALETTE[9];
    let right = WIDTH as i32 - MARGIN;
    area.draw(&PathElement::new([(MARGIN, AXIS_Y), (right, AXIS_Y)], grey.stroke_width(1)))?;
    let centred = (FONT, SMALL_PX).into_font().color(&grey).pos(Pos::new(HPos::Center, VPos::Top));
    for tick in log_ticks(scale.low, scale.high) {
        let x = scale.x(tick);
        area.draw(&PathElement::new([(x, AXIS_Y), (x, AXIS_Y + 4)], grey.stroke_width(1)))?;
        area.draw(&Text::new(format!("{}x", axis_number(tick)), (x, AXIS_Y + 6), centred.clone()))?;
    }
    // No effect at all: a faint line at 1x, which "same direction" is read against.
    let one = scale.x(1.0);
    area.draw(&PathElement::new([(one, ARTICLE_Y), (one, AXIS_Y)], grey.mix(0.5).stroke_width(1)))
}

/// A log scale over the chart's width.
struct Scale {
    low: f64,
    high: f64,
}

impl Scale {
    /// Covers `values` (the finite positive ones) with room either side, within
    /// [`log_span`]'s bounds.
    fn over(values: impl Iterator<Item = f64>) -> Self {
        let (low, high) = values
            .filter(|value| *value > 0.0 && value.is_finite())
            .fold((f64::INFINITY, 0.0f64), |(low, high), value| (low.min(value), high.max(value)));
        let span = if high > 0.0 { log_span(low / 1.6, high * 1.6) } else { log_span(0.5, 2.0) };
        Self { low: span.start, high: span.end }
    }

    /// The pixel column of `value`, clamped to the axis.
    fn x(&self, value: f64) -> i32 {
        let value = if value.is_nan() { self.low } else { value.clamp(self.low, self.high) };
        let share = (value / self.low).log10() / (self.high / self.low).log10();
        let width = f64::from(WIDTH) - 2.0 * f64::from(MARGIN);
        MARGIN + (share * width).round() as i32
    }
}

/// Ticks of a log axis from `low` to `high`: 1, 2 and 5 in each decade when it spans two
/// and a half decades or fewer, else each decade's 1. The marks come from [`scale::marks_125`],
/// so any finite (or infinite, or NaN) input ends with a short list.
pub fn log_ticks(low: f64, high: f64) -> Vec<f64> {
    let span = log_span(low, high);
    let marks = scale::marks_125(span.start, span.end);
    if (span.end / span.start).log10() <= 2.5 {
        return marks;
    }
    marks.into_iter().filter(|mark| (mark.log10() - mark.log10().round()).abs() < 1e-9).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_end_and_stay_inside_for_any_input() {
        let awkward =
            [0.0, -1.0, 5e-324, 1e-300, 1e-30, 0.3, 1.0, 13.7, 1e30, 1e308, f64::MAX, f64::INFINITY, f64::NAN];
        for &low in &awkward {
            for &high in &awkward {
                let ticks = log_ticks(low, high);
                let span = log_span(low, high);
                assert!(ticks.len() <= 3 * (scale::MAX_DECADES as usize + 2), "{low} {high}: {}", ticks.len());
                assert!(ticks.iter().all(|t| *t >= span.start && *t <= span.end), "{low} {high}: {ticks:?}");
            }
        }
        assert_eq!(log_ticks(0.6, 25.0), [1.0, 2.0, 5.0, 10.0, 20.0]);
        assert_eq!(log_ticks(0.5, 2e4), [1.0, 10.0, 100.0, 1000.0, 10_000.0]);
    }

    fn mark(machine: Option<Ratio>) -> HeadlineMark {
        HeadlineMark {
            title: "A. False sharing".into(),
            article: (13.7, 13.7),
            article_label: "article 13.7x".into(),
            machine,
            machine_label: "2 threads: 1.36x".into(),
            status: Status::NeedsCores(8),
        }
    }

    #[test]
    fn the_chart_draws_the_article_the_machine_and_the_status_in_words() {
        let chart = headline_chart(&mark(Some(Ratio { value: 1.36, low: 1.05, high: 4.05 }))).unwrap();
        for text in ["A. False sharing", "article 13.7x", "2 threads: 1.36x", "needs 8 cores", "10x"] {
            assert!(chart.svg.contains(text), "{text} is not drawn");
        }
        let dashes = chart.svg.matches("stroke=\"#000000\" stroke-width=\"2\"").count();
        assert!(dashes >= 3, "the article's line is drawn in dashes: {dashes}");
        assert!(chart.svg.contains("<circle"), "the machine's dot");
        let without = headline_chart(&mark(None)).unwrap();
        assert!(!without.svg.contains("<circle") && without.svg.contains("2 threads: 1.36x"));
    }

    #[test]
    fn any_figure_draws_without_a_panic() {
        for value in [0.0, -3.0, f64::NAN, f64::INFINITY, 1e-300, 1e300] {
            let ratio = Ratio { value, low: value / 2.0, high: value * 2.0 };
            let mut odd = mark(Some(ratio));
            odd.article = (value, f64::INFINITY);
            assert!(headline_chart(&odd).is_ok(), "{value}");
        }
    }
}
