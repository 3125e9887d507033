//! The counter layouts in a notebook: speed and memory of each fix side by side, the
//! article's compact and padded numbers beside them, and the report's chart.

use super::reference::{ReferenceError, ReferenceTable};
use super::{format_number, short_number, table, MachinesChart, Rich};
use crate::chart::counters::{counters_chart, layout_x, series_from_summaries};
use crate::chart::{ChartError, IntervalPoint, Series};
use crate::counters::{format_bytes, format_count, Layout, LayoutSummary, EXTRAPOLATED_COUNTERS};

/// The article's goroutines each did 10 M increments (its table prints only the times).
const ARTICLE_INCREMENTS_PER_GOROUTINE: f64 = 10_000_000.0;

fn layout_named(name: &str) -> Option<Layout> {
    Layout::ALL.into_iter().find(|layout| layout.name() == name)
}

/// The article's layouts (`data/reference/counters.csv`) as (layout, time in ms, the time
/// as printed).
fn article_times(reference: &ReferenceTable) -> Result<Vec<(Layout, f64, String)>, ReferenceError> {
    let layouts = reference.texts("layout")?;
    let times = reference.numbers("time_ms")?;
    let printed = reference.texts("time_ms")?;
    Ok(layouts
        .iter()
        .zip(times)
        .zip(printed)
        .filter_map(|((name, ms), text)| Some((layout_named(name)?, ms, text.to_string())))
        .collect())
}

/// The article's compact and padded arrays as nanoseconds per increment per goroutine.
pub fn reference_series(reference: &ReferenceTable) -> Result<Series, ReferenceError> {
    Ok(Series {
        label: "article (Apple M3 Max, 8 goroutines)".into(),
        points: article_times(reference)?
            .into_iter()
            .map(|(layout, ms, _)| {
                let ns = ms * 1e6 / ARTICLE_INCREMENTS_PER_GOROUTINE;
                IntervalPoint { x: layout_x(layout), median: ns, low: ns, high: ns }
            })
            .collect(),
    })
}

/// One row per layout: time, speed against the compact array, and what it costs in memory
/// (here, and for 100 000 such counters), with the article's time where it has one.
pub fn summary_table(summaries: &[LayoutSummary], reference: Option<&ReferenceTable>) -> Result<Rich, ReferenceError> {
    let article = reference.map(article_times).transpose()?.unwrap_or_default();
    let rows: Vec<Vec<String>> = summaries
        .iter()
        .map(|s| {
            let faster = match (s.layout, s.faster_than_compact) {
                (Layout::Compact, _) => "1 (reference)".to_string(),
                (_, Some(r)) => format!("{:.2}x ({:.2}..{:.2})", r.value, r.low, r.high),
                (_, None) => "-".into(),
            };
            vec![
                s.layout.short_label().to_string(),
                format_number(s.elapsed_ms.median),
                format_number(s.ns_per_increment.median),
                faster,
                format_bytes(s.bytes_used),
                s.memory_vs_compact.map_or("-".into(), |m| format!("{}x", short_number(m))),
                format_bytes(s.bytes_for_extrapolated_counters),
                article
                    .iter()
                    .find(|(layout, _, _)| *layout == s.layout)
                    .map_or("-".into(), |(_, _, text)| text.clone()),
            ]
        })
        .collect();
    let extrapolated = format!("memory for {} counters", format_count(EXTRAPOLATED_COUNTERS));
    Ok(table(
        &[
            "layout",
            "median (ms)",
            "ns per increment",
            "faster than compact",
            "memory",
            "memory vs compact",
            &extrapolated,
            "article (ms)",
        ],
        &rows,
    ))
}

/// What each layout is, in words (for the prose beside the table).
pub fn layouts_table(summaries: &[LayoutSummary]) -> Rich {
    let rows: Vec<Vec<String>> = summaries
        .iter()
        .map(|s| vec![s.layout.short_label().to_string(), s.layout.describe().to_string(), s.cells.to_string()])
        .collect();
    table(&["layout", "what it is", "cells"], &rows)
}

/// The report's chart with this machine's series (and the article's, when given); the
/// text fallback lists the medians.
pub fn chart(machine_label: &str, summaries: &[LayoutSummary], article: Option<Series>) -> Result<Rich, ChartError> {
    chart_machines(&[(machine_label, summaries)], article)
}

/// The report's chart with one series per machine (label, summaries), after the article's.
pub fn chart_machines<Label, Summaries>(
    machines: &[(Label, Summaries)],
    article: Option<Series>,
) -> Result<Rich, ChartError>
where
    Label: AsRef<str>,
    Summaries: AsRef<[LayoutSummary]>,
{
    CHART.figure(machines, article)
}

const CHART: MachinesChart<LayoutSummary> = MachinesChart {
    title: "Counter layouts: time per increment",
    caption: "Nanoseconds per increment, per thread, for each layout (log scale; bars are the median's interval)",
    fallback: "median per increment",
    threads: |summaries| summaries.iter().map(|s| s.threads).max().unwrap_or(0),
    series: |label, summaries| series_from_summaries(label, summaries),
    draw: counters_chart,
    point: |s| format!("{}: {} ns", s.layout.short_label(), format_number(s.ns_per_increment.median)),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::{summarize, Row};

    fn rows() -> Vec<Row> {
        let layouts =
            [(Layout::Compact, 2, 16, 40.0), (Layout::CachePadded, 2, 256, 10.0), (Layout::Mutex, 1, 64, 90.0)];
        let mut rows = Vec::new();
        for (layout, cells, bytes_used, ms) in layouts {
            for trial in 0..3u64 {
                let elapsed_ms = ms + trial as f64;
                rows.push(Row {
                    layout,
                    threads: 2,
                    trial,
                    total_increments: 2_000,
                    increments_per_thread: 1_000,
                    cells,
                    bytes_used,
                    increments_per_write: 1,
                    elapsed_ns: (elapsed_ms * 1e6) as u64,
                    ns_per_increment: elapsed_ms * 1e6 / 1_000.0,
                    pinned: true,
                    verified: true,
                });
            }
        }
        rows
    }

    fn reference() -> ReferenceTable {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference");
        ReferenceTable::read(dir, "counters.csv").unwrap()
    }

    #[test]
    fn table_shows_speed_and_memory_with_the_article_beside_it() {
        let summaries = summarize(&rows());
        let rich = summary_table(&summaries, Some(&reference())).unwrap();
        let lines: Vec<&str> = rich.plain.lines().collect();
        assert_eq!(lines.len(), 2 + 3);
        assert!(lines[0].contains("memory for 100 000 counters"));
        assert!(lines[2].starts_with("compact") && lines[2].ends_with("2327"), "{}", lines[2]);
        // compact 41 ms over padded 11 ms; 256 bytes is 16x compact's 16.
        assert!(lines[3].contains("3.73x (3.33..4.20)") && lines[3].contains("16x"), "{}", lines[3]);
        assert!(lines[3].contains("25.6 MB") && lines[3].ends_with("46"), "{}", lines[3]);
        assert!(lines[4].starts_with("Mutex") && lines[4].ends_with("-"), "{}", lines[4]);
    }

    #[test]
    fn article_series_and_chart() {
        let series = reference_series(&reference()).unwrap();
        assert_eq!(series.points.len(), 2);
        assert!((series.points[0].median - 232.7).abs() < 1e-9);
        let rich = chart("this machine", &summarize(&rows()), Some(series)).unwrap();
        assert!(rich.html.contains("data:image/svg+xml;base64,"));
        assert!(rich.plain.contains("CachePadded: 11000 ns"));
        assert_eq!(layouts_table(&summarize(&rows())).plain.lines().count(), 5);
    }
}
