//! Context switches and throughput against fixed-pool size, in two panels sharing the
//! (logarithmic) pool-size axis: above, the whole process's voluntary and involuntary
//! switches per second; below, completed requests per second with the offered rate as a
//! horizontal line, so a pool that cannot keep up shows as a gap. Every line has its own
//! colour, dash and marker ([`crate::chart::style`]); one legend below both panels.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::latency::{draw_level, Marker};
use crate::chart::frame::with_legend_below;
use crate::chart::style::{draw_with_intervals, Chart, Legend, SeriesStyle};
use crate::chart::{ChartError, IntervalPoint, Series, FONT, LABEL_PX, TITLE_PX};
use crate::pool::PoolSummary;
use crate::stats::Summary;

const CHART: &str = "pool switches";
const PANEL_SIZE: (u32, u32) = (760, 560);

/// One machine's lines.
#[derive(Debug, Clone, PartialEq)]
pub struct SwitchLines {
    pub voluntary: Series,
    pub involuntary: Series,
    pub throughput: Series,
    /// The offered arrival rate (requests/s).
    pub offered_per_s: f64,
}

/// The fixed pools at `hit_rate` as a series of `value` (median and interval).
pub fn fixed_series(
    label: impl Into<String>,
    summaries: &[PoolSummary],
    hit_rate: f64,
    value: fn(&PoolSummary) -> &Summary,
) -> Series {
    super::latency::fixed_series(label, summaries, hit_rate, value)
}

type LinChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Draws both panels; `formula` marks pool sizes on each.
pub fn pool_switches_chart(title: &str, lines: &[SwitchLines], formula: &[Marker]) -> Result<Chart, ChartError> {
    let error = |e: &dyn std::fmt::Display| ChartError::new(CHART, e);
    let points =
        || lines.iter().flat_map(|l| [&l.voluntary, &l.involuntary, &l.throughput]).flat_map(|s| s.points.iter());
    let (x_min, x_max) = points().map(|p| p.x).fold((f64::INFINITY, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if !(x_min.is_finite() && x_max > 0.0) {
        return Err(ChartError::new(CHART, "no data to draw"));
    }
    let x_range = crate::scale::decade_span(x_min, x_max);
    let top =
        |l: &SwitchLines| [&l.voluntary, &l.involuntary].map(|s| s.points.iter().map(|p| p.high).fold(0.0, f64::max));
    // Linear axes too are kept finite: plotters spins on an infinite range.
    let switches_max = (lines.iter().flat_map(top).fold(1.0, f64::max) * 1.15).min(crate::scale::CEILING);
    let throughput_max = lines
        .iter()
        .flat_map(|l| l.throughput.points.iter().map(|p| p.high).chain([l.offered_per_s]))
        .fold(1.0, f64::max);
    let throughput_max = (throughput_max * 1.15).min(crate::scale::CEILING);
    let mut legend = Legend::default();
    let styles: Vec<[SeriesStyle; 4]> = lines
        .iter()
        .map(|l| {
            let offered = format!("offered: {:.0}/s{}", l.offered_per_s, machine_suffix(&l.throughput.label));
            [
                legend.add(l.voluntary.label.clone()),
                legend.add(l.involuntary.label.clone()),
                legend.add(l.throughput.label.clone()),
                legend.add(offered),
            ]
        })
        .collect();
    with_legend_below(CHART, PANEL_SIZE, legend, |panels| {
        let panels = panels.titled(title, (FONT, TITLE_PX)).map_err(|e| error(&e))?;
        let (upper, lower) = panels.split_vertically(PANEL_SIZE.1 / 2 - 10);
        let mut chart =
            panel(&upper, &x_range, 0.0..switches_max, "context switches per second").map_err(|e| error(&e))?;
        for (machine, [voluntary, involuntary, _, _]) in lines.iter().zip(&styles) {
            draw_series(&mut chart, &machine.voluntary, *voluntary).map_err(|e| error(&e))?;
            draw_series(&mut chart, &machine.involuntary, *involuntary).map_err(|e| error(&e))?;
        }
        draw_marks(&mut chart, formula, switches_max).map_err(|e| error(&e))?;
        let mut chart =
            panel(&lower, &x_range, 0.0..throughput_max, "completed requests per second").map_err(|e| error(&e))?;
        for (index, (machine, [_, _, throughput, offered])) in lines.iter().zip(&styles).enumerate() {
            draw_series(&mut chart, &machine.throughput, *throughput).map_err(|e| error(&e))?;
            draw_level(&mut chart, machine.offered_per_s, *offered, index, &x_range).map_err(|e| error(&e))?;
        }
        draw_marks(&mut chart, formula, throughput_max).map_err(|e| error(&e))
    })
}

/// ", vm" when a series label names its machine after a comma (machines compared), else
/// nothing: the offered rate's legend entry names the same machine.
fn machine_suffix(label: &str) -> &str {
    label.find(", ").map_or("", |at| &label[at..])
}

fn panel<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    x_range: &Range<f64>,
    y_range: Range<f64>,
    y_desc: &str,
) -> Result<LinChart<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range.clone().log_scale(), y_range)?;
    chart
        .configure_mesh()
        .x_desc("threads in the fixed pool (log scale)")
        .y_desc(y_desc)
        .x_labels(20)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, LABEL_PX))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    Ok(chart)
}

/// Medians joined, markers, and interval bars, in the series' style.
fn draw_series(chart: &mut LinChart<'_, '_>, series: &Series, style: SeriesStyle) -> DrawResult {
    let medians = series.points.iter().map(|p: &IntervalPoint| (p.x, p.median)).collect();
    let bars = series.points.iter().map(|p| ((p.x, p.low), (p.x, p.high))).collect();
    draw_with_intervals(chart, medians, bars, style, true)
}

fn draw_marks(chart: &mut LinChart<'_, '_>, marks: &[Marker], y_max: f64) -> DrawResult {
    for mark in marks {
        let points = vec![(mark.value, 0.0), (mark.value, y_max)];
        chart.draw_series(DashedLineSeries::new(points, 5, 5, BLACK.mix(0.6).stroke_width(1)))?;
        let label = Text::new(mark.label.clone(), (mark.value * 1.03, y_max * 0.97), (FONT, LABEL_PX));
        chart.draw_series(std::iter::once(label))?;
    }
    Ok(())
}
