//! How a chart drew each series (colour, dash, marker) and what its legend calls it: what
//! a figure carries beside its SVG, so tests and text stand-ins need not parse the picture.

use plotters::style::RGBColor;

/// A line's pattern: dash and gap in pixels, or solid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
    LongDashed,
}

impl Dash {
    pub const ALL: [Dash; 4] = [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::LongDashed];

    /// (dash, gap) in pixels; `None` for a solid line.
    pub fn pattern(self) -> Option<(u32, u32)> {
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some((7, 4)),
            Dash::Dotted => Some((2, 4)),
            Dash::LongDashed => Some((14, 5)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dash::Solid => "solid",
            Dash::Dashed => "dashed",
            Dash::Dotted => "dotted",
            Dash::LongDashed => "long-dashed",
        }
    }
}

/// The shape drawn at each point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
}

impl Marker {
    pub const ALL: [Marker; 5] = [Marker::Circle, Marker::Square, Marker::Triangle, Marker::Diamond, Marker::Cross];
}

/// One series' look.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesStyle {
    pub color: RGBColor,
    pub dash: Dash,
    pub marker: Marker,
}
/// A series as its legend names it, with the style it was drawn in.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    pub label: String,
    pub style: SeriesStyle,
}
