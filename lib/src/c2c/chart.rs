//! Core-to-core latency as a heatmap: one cell per pair of CPUs (mirrored, so row and
//! column read the same), darker = slower, the median in each cell when the matrix is small
//! enough to read, and a colour scale beside it. The diagonal (a CPU with itself) is struck
//! through as "same CPU"; with one measured value the scale is one swatch, not a ramp.

use plotters::coord::ranged1d::{SegmentValue, SegmentedCoord};
use plotters::coord::types::RangedCoordi32;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::c2c::PairSummary;
use crate::chart::{ChartError, FONT, LABEL_PX, TITLE_PX};

const CHART: &str = "c2c";
const SIZE: (u32, u32) = (640, 560);
const SCALE_WIDTH: u32 = 130;
/// Above this many CPUs the numbers no longer fit in the cells; colour alone tells.
const MAX_CPUS_WITH_NUMBERS: usize = 12;
/// The ends of the colour ramp: fastest pair (light) to slowest (dark blue, the palette's).
const LIGHT: (f64, f64, f64) = (236.0, 244.0, 250.0);
const DARK: (f64, f64, f64) = (0.0, 62.0, 116.0);
const MISSING: RGBColor = RGBColor(220, 220, 220);
/// The diagonal: white, struck through in this grey.
const SAME_CPU_STROKE: RGBColor = RGBColor(150, 150, 150);

/// One segment per CPU on both axes.
type Grid = Cartesian2d<SegmentedCoord<RangedCoordi32>, SegmentedCoord<RangedCoordi32>>;

/// The median one-way latency of each measured pair, by position in the sorted CPU list.
struct Matrix {
    cpus: Vec<u64>,
    cells: Vec<(usize, usize, f64)>,
    fastest_ns: f64,
    slowest_ns: f64,
}

impl Matrix {
    fn of(pairs: &[PairSummary]) -> Option<Self> {
        let mut cpus: Vec<u64> = pairs.iter().flat_map(|pair| [pair.cpu_a, pair.cpu_b]).collect();
        cpus.sort_unstable();
        cpus.dedup();
        let index = |cpu: u64| cpus.binary_search(&cpu).ok();
        let cells: Vec<(usize, usize, f64)> = pairs
            .iter()
            .filter_map(|pair| Some((index(pair.cpu_a)?, index(pair.cpu_b)?, pair.one_way_ns.median)))
            .collect();
        let medians = cells.iter().map(|&(_, _, ns)| ns);
        let fastest_ns = medians.clone().fold(f64::INFINITY, f64::min);
        let slowest_ns = medians.fold(0.0, f64::max);
        (!cells.is_empty()).then_some(Self { cpus, cells, fastest_ns, slowest_ns })
    }

    /// Whether the medians differ, so that the scale is a ramp from fastest to slowest.
    fn has_range(&self) -> bool {
        self.slowest_ns > self.fastest_ns
    }

    /// Whether some pair of CPUs has no measurement (the time budget ran out first).
    fn has_missing_pairs(&self) -> bool {
        let n = self.cpus.len();
        self.cells.len() < n * (n - 1) / 2
    }

    fn color(&self, ns: f64) -> RGBColor {
        let span = self.slowest_ns - self.fastest_ns;
        let t = if span > 0.0 { ((ns - self.fastest_ns) / span).clamp(0.0, 1.0) } else { 0.5 };
        let mix = |light: f64, dark: f64| (light + (dark - light) * t).round() as u8;
        RGBColor(mix(LIGHT.0, DARK.0), mix(LIGHT.1, DARK.1), mix(LIGHT.2, DARK.2))
    }

    /// Dark cells get white numbers.
    fn ink(&self, ns: f64) -> &'static RGBColor {
        let span = self.slowest_ns - self.fastest_ns;
        if span > 0.0 && (ns - self.fastest_ns) / span > 0.55 {
            &WHITE
        } else {
            &BLACK
        }
    }
}

/// Draws the matrix of one machine's pairs. Pairs not measured (time budget) stay grey.
pub fn c2c_heatmap(title: &str, pairs: &[PairSummary]) -> Result<String, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let matrix = Matrix::of(pairs).ok_or_else(|| ChartError::new(CHART, "no pair to draw"))?;
    // Discrete i32 ranges include their end: 0..n-1 gives n columns.
    let n = matrix.cpus.len() as i32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let (grid_area, scale_area) = root.split_horizontally(SIZE.0 - SCALE_WIDTH);
        let mut chart = ChartBuilder::on(&grid_area)
            .caption(title, (FONT, TITLE_PX))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d((0..n - 1).into_segmented(), (0..n - 1).into_segmented())
            .map_err(|e| error(&e))?;
        // Row 0 is drawn at the top, as a matrix is read: y labels count down.
        let cpu_label = |value: &SegmentValue<i32>, flip: bool| match value {
            SegmentValue::CenterOf(position) => {
                let index = if flip { n - 1 - position } else { *position };
                matrix.cpus.get(index as usize).map_or(String::new(), ToString::to_string)
            }
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("CPU")
            .y_desc("CPU")
            .x_labels(matrix.cpus.len().min(32))
            .y_labels(matrix.cpus.len().min(32))
            .x_label_formatter(&|value| cpu_label(value, false))
            .y_label_formatter(&|value| cpu_label(value, true))
            .label_style((FONT, LABEL_PX))
            .draw()
            .map_err(|e| error(&e))?;
        draw_cells(&mut chart, &matrix).map_err(|e| error(&e))?;
        draw_scale(&scale_area, &matrix).map_err(|e| error(&e))?;
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

/// The diagonal struck through, every other cell grey first, then each measured pair in both
/// triangles, with its median when the matrix is small enough to read.
fn draw_cells<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Grid>,
    matrix: &Matrix,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let n = matrix.cpus.len();
    // Row 0 at the top: row r is drawn at y = n - 1 - r.
    let cell = |column: usize, row: usize| {
        let (x, y) = (column as i32, (n - 1 - row) as i32);
        [(SegmentValue::Exact(x), SegmentValue::Exact(y + 1)), (SegmentValue::Exact(x + 1), SegmentValue::Exact(y))]
    };
    let off_diagonal =
        (0..n).flat_map(|row| (0..n).filter(move |&column| column != row).map(move |column| (row, column)));
    chart.draw_series(off_diagonal.map(|(row, column)| Rectangle::new(cell(column, row), MISSING.filled())))?;
    chart.draw_series((0..n).map(|index| Rectangle::new(cell(index, index), SAME_CPU_STROKE)))?;
    chart.draw_series((0..n).map(|index| PathElement::new(cell(index, index), SAME_CPU_STROKE)))?;
    let mirrored: Vec<(usize, usize, f64)> =
        matrix.cells.iter().flat_map(|&(a, b, ns)| [(a, b, ns), (b, a, ns)]).collect();
    chart.draw_series(
        mirrored.iter().map(|&(row, column, ns)| Rectangle::new(cell(column, row), matrix.color(ns).filled())),
    )?;
    if n <= MAX_CPUS_WITH_NUMBERS {
        let text_px = if n <= 6 { LABEL_PX + 1 } else { LABEL_PX - 2 };
        chart.draw_series(mirrored.iter().map(|&(row, column, ns)| {
            let centre = (SegmentValue::CenterOf(column as i32), SegmentValue::CenterOf((n - 1 - row) as i32));
            let style =
                TextStyle::from((FONT, text_px)).color(matrix.ink(ns)).pos(Pos::new(HPos::Center, VPos::Center));
            Text::new(format!("{ns:.0}"), centre, style)
        }))?;
    }
    Ok(())
}

/// A vertical ramp from the fastest (bottom) to the slowest pair (top), labelled in ns, or
/// one swatch when every measured pair has the same median; then the legend of the cells
/// that are not measurements.
fn draw_scale<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    matrix: &Matrix,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    const STEPS: i32 = 40;
    const SWATCH: i32 = 22;
    let (top, bottom, left) = (70, SIZE.1 as i32 - 110, 14);
    let label = |text: String, y: i32| Text::new(text, (left + SWATCH + 6, y), (FONT, LABEL_PX).into_font());
    area.draw(&Text::new("ns one way".to_string(), (left - 6, top - 28), (FONT, LABEL_PX).into_font()))?;
    // The legend of the cells that are not measurements goes under the ramp or the swatch.
    let legend_y = if matrix.has_range() {
        let step_height = (bottom - top) as f64 / STEPS as f64;
        for step in 0..STEPS {
            let t = step as f64 / (STEPS - 1) as f64;
            let ns = matrix.slowest_ns - (matrix.slowest_ns - matrix.fastest_ns) * t;
            let y0 = top + (step as f64 * step_height) as i32;
            let y1 = top + ((step + 1) as f64 * step_height).ceil() as i32;
            area.draw(&Rectangle::new([(left, y0), (left + SWATCH, y1)], matrix.color(ns).filled()))?;
        }
        area.draw(&label(format!("{:.0}", matrix.slowest_ns), top - 6))?;
        area.draw(&label(format!("{:.0}", matrix.fastest_ns), bottom - 6))?;
        bottom + 26
    } else {
        let pairs = if matrix.cells.len() == 1 { "one pair" } else { "every pair" };
        let swatch =
            Rectangle::new([(left, top), (left + SWATCH, top + SWATCH)], matrix.color(matrix.fastest_ns).filled());
        area.draw(&swatch)?;
        area.draw(&label(format!("{:.0}", matrix.fastest_ns), top + 4))?;
        area.draw(&Text::new(pairs.to_string(), (left, top + SWATCH + 8), (FONT, LABEL_PX).into_font()))?;
        top + SWATCH + 40
    };
    area.draw(&Rectangle::new([(left, legend_y), (left + SWATCH, legend_y + 14)], SAME_CPU_STROKE))?;
    area.draw(&PathElement::new(vec![(left, legend_y), (left + SWATCH, legend_y + 14)], SAME_CPU_STROKE))?;
    area.draw(&label("same CPU".to_string(), legend_y))?;
    if matrix.has_missing_pairs() {
        let missing_y = legend_y + 26;
        area.draw(&Rectangle::new([(left, missing_y), (left + SWATCH, missing_y + 14)], MISSING.filled()))?;
        area.draw(&label("not measured".to_string(), missing_y))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    fn pair(cpu_a: u64, cpu_b: u64, ns: f64) -> PairSummary {
        PairSummary {
            cpu_a,
            cpu_b,
            one_way_ns: Summary::of(&[ns, ns + 1.0, ns + 2.0]).unwrap(),
            cas_one_way_ns: None,
            all_pinned: true,
            unpinned: false,
            dropped: 0,
            kinds: String::new(),
        }
    }

    #[test]
    fn every_pair_is_drawn_twice_with_its_number() {
        let svg = c2c_heatmap("c2c", &[pair(0, 1, 40.0), pair(0, 2, 90.0), pair(1, 2, 60.0)]).unwrap();
        assert!(svg.starts_with("<svg"));
        let cell_text = |median: &str| svg.matches(&format!(">\n{median}\n<")).count();
        assert_eq!(cell_text("61"), 2, "a pair's median in both triangles");
        // The fastest and slowest medians also label the colour scale.
        assert_eq!((cell_text("41"), cell_text("91")), (3, 3));
        assert!(svg.contains("ns one way"));
    }

    #[test]
    fn the_legend_names_the_diagonal_and_only_the_cells_drawn() {
        let complete = c2c_heatmap("c2c", &[pair(0, 1, 40.0), pair(0, 2, 90.0), pair(1, 2, 60.0)]).unwrap();
        assert!(complete.contains("same CPU"));
        assert!(!complete.contains("not measured"), "every pair was measured");
        let partial = c2c_heatmap("c2c", &[pair(0, 1, 40.0), pair(0, 2, 90.0)]).unwrap();
        assert!(partial.contains("not measured"), "CPUs 1 and 2 have no measurement");
    }

    #[test]
    fn one_measured_pair_is_one_swatch_with_its_value() {
        let svg = c2c_heatmap("c2c", &[pair(0, 1, 40.0)]).unwrap();
        assert!(svg.contains("one pair"));
        // Both cells and the swatch carry the median; no ramp repeats it at two ends.
        assert_eq!(svg.matches(">\n41\n<").count(), 3);
    }

    #[test]
    fn no_pairs_is_an_error_not_an_empty_chart() {
        assert!(c2c_heatmap("c2c", &[]).is_err());
    }

    #[test]
    fn colours_run_from_light_to_dark() {
        let matrix = Matrix::of(&[pair(0, 1, 40.0), pair(0, 2, 90.0)]).unwrap();
        assert_eq!(matrix.color(41.0), RGBColor(236, 244, 250));
        assert_eq!(matrix.color(91.0), RGBColor(0, 62, 116));
        assert_eq!((matrix.ink(41.0), matrix.ink(91.0)), (&BLACK, &WHITE));
    }
}
