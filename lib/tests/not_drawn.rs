//! Issue 35, item 1: a chart that cannot be drawn from a run's rows becomes a note in its
//! section, never an error for the page. One test per chart draws it from nothing, from one
//! point and from degenerate points (every value zero, one x repeated, NaN); each either
//! draws an SVG or, through [`Section::add_figure`], leaves a note naming the figure and why.
//! Nothing to draw is always a note. Last, real rows: the locks at read share 0.

use contention::chart::{Chart, ChartError, IntervalPoint, Series};
use contention::gc::chart::{RatioPoint, RatioSeries};
use contention::gc::GcRatio;
use contention::pool::chart::latency::{LatencyLines, Marker};
use contention::pool::chart::switches::SwitchLines;
use contention::present::{Figure, NotDrawn, Section};
use contention::stats::{Ratio, Summary};

/// The inputs every chart is drawn from: (what, the values of its points).
const CASES: [(&str, &[f64]); 4] =
    [("empty", &[]), ("one point", &[5.0]), ("all zero", &[0.0, 0.0, 0.0]), ("NaN", &[f64::NAN, 1.0])];

/// `drawn` put into a section as its only figure: an SVG, or a note that names `figure` and
/// says why; for an empty input, always the note.
fn drawn_or_noted(figure: &str, case: &str, drawn: Result<String, ChartError>) {
    let title = format!("{figure} from {case}");
    let mut section = Section::new("test", "test");
    section.add_figure(
        drawn
            .map(|svg| Figure {
                id: "chart",
                title: title.clone(),
                svg,
                legend: Vec::new(),
                caption: String::new(),
                text: String::new(),
            })
            .map_err(|error| NotDrawn::new(&title, error)),
    );
    match (section.figures.as_slice(), section.notes.as_slice()) {
        ([figure], []) => {
            assert!(case != "empty", "{title}: drawn from nothing");
            assert!(figure.svg.starts_with("<svg"), "{title}: {}", figure.svg);
        }
        ([], [note]) => {
            let expected = format!("The figure \"{title}\" is not drawn: ");
            assert!(note.text.starts_with(&expected) && note.text.len() > expected.len() + 1, "{}", note.text);
        }
        (figures, notes) => panic!("{title}: {} figures and {} notes", figures.len(), notes.len()),
    }
}

fn svg(chart: Result<Chart, ChartError>) -> Result<String, ChartError> {
    chart.map(|chart| chart.svg)
}

/// One series of `values` at x from `x(index)` (empty values: no series at all).
fn series(values: &[f64], x: impl Fn(usize) -> f64) -> Vec<Series> {
    let points: Vec<IntervalPoint> = values
        .iter()
        .enumerate()
        .map(|(index, &value)| IntervalPoint { x: x(index), median: value, low: value, high: value })
        .collect();
    if points.is_empty() {
        return Vec::new();
    }
    vec![Series { label: "machine".into(), points }]
}

fn one_series(values: &[f64], x: impl Fn(usize) -> f64) -> Series {
    series(values, x).pop().unwrap_or(Series { label: "machine".into(), points: Vec::new() })
}

/// Every point at the same x: one thread count, one stride.
fn same_x(_: usize) -> f64 {
    8.0
}

fn category(index: usize) -> f64 {
    (index % 3) as f64
}

fn each_case(figure: &str, draw: impl Fn(&[f64]) -> Result<String, ChartError>) {
    for (case, values) in CASES {
        drawn_or_noted(figure, case, draw(values));
    }
}

#[test]
fn stride_chart_draws_or_notes() {
    each_case("stride", |values| svg(contention::stride::chart::stride_chart("t", &series(values, same_x))));
}

#[test]
fn counters_chart_draws_or_notes() {
    each_case("counters", |values| svg(contention::counters::chart::counters_chart("t", &series(values, category))));
}

#[test]
fn sharing_chart_draws_or_notes() {
    each_case("sharing", |values| svg(contention::sharing::chart::sharing_chart("t", &series(values, category))));
}

#[test]
fn refill_chart_draws_or_notes() {
    let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    each_case("refill", |values| svg(contention::refill::chart::refill_chart("t", &names, &series(values, category))));
}

#[test]
fn gc_threads_chart_draws_or_notes() {
    each_case("gc threads", |values| {
        svg(contention::gc::chart::threads::throughput_by_threads_chart("t", &series(values, same_x)))
    });
}

#[test]
fn gc_ratio_chart_draws_or_notes() {
    each_case("gc ratio", |values| {
        let points: Vec<RatioPoint> = values
            .iter()
            .map(|&median| RatioPoint { ratio: GcRatio::Percent(100), median, low: median, high: median })
            .collect();
        let series: Vec<RatioSeries> =
            if points.is_empty() { Vec::new() } else { vec![RatioSeries { label: "m".into(), points }] };
        svg(contention::gc::chart::ratio::throughput_by_ratio_chart("t", &series))
    });
}

#[test]
fn pool_latency_chart_draws_or_notes() {
    each_case("pool latency", |values| {
        let lines: Vec<LatencyLines> = series(values, same_x)
            .into_iter()
            .map(|series| LatencyLines { p99: series.clone(), p50: series })
            .collect();
        let markers: Vec<Marker> = values.iter().map(|&value| Marker { label: "m".into(), value }).collect();
        svg(contention::pool::chart::latency::pool_latency_chart("t", &lines, &markers, &markers))
    });
}

#[test]
fn pool_switches_chart_draws_or_notes() {
    each_case("pool switches", |values| {
        let lines: Vec<SwitchLines> = series(values, same_x)
            .into_iter()
            .map(|series| SwitchLines {
                voluntary: series.clone(),
                involuntary: series.clone(),
                throughput: series,
                offered_per_s: values[0],
            })
            .collect();
        svg(contention::pool::chart::switches::pool_switches_chart("t", &lines, &[]))
    });
}

#[test]
fn room_chart_draws_or_notes() {
    each_case("room", |values| {
        let labels: Vec<String> = (0..values.len()).map(|index| format!("m{index}")).collect();
        let ratios: Vec<(&str, Option<Ratio>)> = labels
            .iter()
            .zip(values)
            .map(|(label, &value)| (label.as_str(), Some(Ratio { value, low: value, high: value })))
            .collect();
        svg(contention::present::room::chart::room_chart("t", "x", &ratios))
    });
}

#[test]
fn locks_by_primitive_chart_draws_or_notes() {
    each_case("locks by primitive", |values| {
        svg(contention::locks::chart::by_primitive_chart("t", &["a", "b", "c"], "ns", &series(values, category)))
    });
}

#[test]
fn locks_by_threads_chart_draws_or_notes() {
    each_case("locks by threads", |values| {
        svg(contention::locks::chart::by_threads_chart("t", "reads per second", &[one_series(values, same_x)]))
    });
}

#[test]
fn c2c_heatmap_draws_or_notes() {
    each_case("c2c", |values| {
        let pairs: Vec<contention::c2c::PairSummary> = values
            .iter()
            .map(|&value| contention::c2c::PairSummary {
                cpu_a: 0,
                cpu_b: 1,
                one_way_ns: Summary::of(&[value]).unwrap_or(Summary::of(&[0.0]).unwrap()),
                cas_one_way_ns: None,
                all_pinned: true,
                unpinned: false,
                dropped: 0,
                kinds: String::new(),
            })
            .collect();
        contention::c2c::chart::c2c_heatmap("t", &pairs)
    });
}

/// Real rows: the read-mostly case at read share 0 has no reads to chart, and says so in
/// its section instead of failing it; the rest of the section is whole.
#[test]
fn locks_at_read_share_zero_note_their_chart() {
    use contention::locks::{Case, Config};
    let config = Config {
        cases: vec![Case::ReadMostly],
        threads: vec![1],
        read_shares: vec![0.0],
        trials: 1,
        warmup: std::time::Duration::ZERO,
        ..Config::quick()
    };
    let outcome = contention::locks::run(&config, &mut contention::harness::no_progress).unwrap();
    let machine = contention::present::Measured::new("m", &outcome.rows);
    let reference = contention::locks::present::reference().unwrap();
    let section = contention::locks::present::section(&[machine], &reference, &[None]).unwrap();
    assert!(section.figure("read-mostly-chart").is_none());
    let note = "The figure \"locks: read-mostly, m\" is not drawn: no reads to chart at read share 0.";
    assert!(section.notes.iter().any(|n| n.text == note), "{:?}", section.notes);
    assert!(!section.tables.is_empty() && !section.findings.is_empty(), "the rest of the section is whole");
}
