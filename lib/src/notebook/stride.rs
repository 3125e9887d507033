//! The stride sweep in a notebook: this machine's medians beside the article's, as a
//! table and as the report's chart.

use super::reference::{ReferenceError, ReferenceTable};
use super::{format_number, table, MachinesChart, Rich};
use crate::chart::stride::{series_from_summaries, stride_chart};
use crate::chart::{ChartError, IntervalPoint, Series};
use crate::stride::StrideSummary;

/// The article's sweep (`data/reference/stride.csv`) as a chart series without intervals.
pub fn reference_series(reference: &ReferenceTable) -> Result<Series, ReferenceError> {
    let strides = reference.numbers("stride_bytes")?;
    let times_ms = reference.numbers("time_ms")?;
    Ok(Series {
        label: "article (Apple M3 Max, 8 threads)".into(),
        points: strides
            .iter()
            .zip(&times_ms)
            .map(|(&x, &ms)| IntervalPoint { x, median: ms, low: ms, high: ms })
            .collect(),
    })
}

/// One row per stride: this machine's median with its interval, relative time and
/// nanoseconds per add, then the article's time and relative time where it has the stride.
pub fn summary_table(summaries: &[StrideSummary], reference: Option<&ReferenceTable>) -> Result<Rich, ReferenceError> {
    // The article's times and ratios as printed, by stride.
    let article: Vec<(f64, String, String)> = match reference {
        Some(table) => {
            let strides = table.numbers("stride_bytes")?;
            let times = table.texts("time_ms")?;
            let relative = table.texts("relative_to_fastest")?;
            strides.into_iter().zip(times).zip(relative).map(|((s, t), r)| (s, t.to_string(), r.to_string())).collect()
        }
        None => Vec::new(),
    };
    let rows: Vec<Vec<String>> = summaries
        .iter()
        .map(|s| {
            let published = article.iter().find(|(stride, _, _)| *stride == s.stride_bytes as f64);
            vec![
                s.stride_bytes.to_string(),
                format_number(s.elapsed_ms.median),
                format!("{}..{}", format_number(s.elapsed_ms.median_low), format_number(s.elapsed_ms.median_high)),
                format!("{:.2}x", s.relative_to_fastest),
                format_number(s.ns_per_op.median),
                published.map_or("-".into(), |(_, ms, _)| ms.clone()),
                published.map_or("-".into(), |(_, _, relative)| format!("{relative}x")),
            ]
        })
        .collect();
    Ok(table(
        &[
            "stride (bytes)",
            "median (ms)",
            "interval (ms)",
            "vs fastest",
            "ns per add",
            "article (ms)",
            "article vs fastest",
        ],
        &rows,
    ))
}

/// The report's chart with this machine's series (and the article's, when given); the
/// text fallback lists the medians.
pub fn chart(machine_label: &str, summaries: &[StrideSummary], article: Option<Series>) -> Result<Rich, ChartError> {
    chart_machines(&[(machine_label, summaries)], article)
}

/// The report's chart with one series per machine (label, summaries), after the article's.
pub fn chart_machines<Label, Summaries>(
    machines: &[(Label, Summaries)],
    article: Option<Series>,
) -> Result<Rich, ChartError>
where
    Label: AsRef<str>,
    Summaries: AsRef<[StrideSummary]>,
{
    CHART.figure(machines, article)
}

const CHART: MachinesChart<StrideSummary> = MachinesChart {
    title: "Stride sweep: time per trial",
    caption: "Time per trial against the distance between counters (log scales; bars are the median's interval)",
    fallback: "median time per stride",
    threads: |summaries| summaries.first().map_or(0, |s| s.threads),
    series: |label, summaries| series_from_summaries(label, summaries),
    draw: stride_chart,
    point: |s| {
        format!("{} B: {} ms ({:.2}x)", s.stride_bytes, format_number(s.elapsed_ms.median), s.relative_to_fastest)
    },
};

/// Where `threads` counters `stride_bytes` apart land in `line_bytes`-byte cache lines,
/// counting from a line boundary (the sweep's arena is page-aligned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub stride_bytes: u64,
    /// From the first counter's first byte to the last counter's last byte.
    pub span_bytes: u64,
    pub lines_touched: u64,
    /// The most counters sharing one line: the cores that fight over it.
    pub most_counters_per_line: u64,
}

pub fn layout(threads: u64, stride_bytes: u64, line_bytes: u64) -> Layout {
    let lines: Vec<u64> = (0..threads).map(|slot| slot * stride_bytes / line_bytes.max(1)).collect();
    let mut distinct = lines.clone();
    distinct.dedup();
    let most = distinct.iter().map(|line| lines.iter().filter(|l| *l == line).count() as u64).max().unwrap_or(0);
    Layout {
        stride_bytes,
        span_bytes: threads.saturating_sub(1) * stride_bytes + 8,
        lines_touched: distinct.len() as u64,
        most_counters_per_line: most,
    }
}

/// The layouts of a sweep as a table: no measurement, just arithmetic on addresses.
pub fn layout_table(threads: u64, strides_bytes: &[u64], line_bytes: u64) -> Rich {
    let rows: Vec<Vec<String>> = strides_bytes
        .iter()
        .map(|&stride| {
            let l = layout(threads, stride, line_bytes);
            vec![
                stride.to_string(),
                l.span_bytes.to_string(),
                l.lines_touched.to_string(),
                l.most_counters_per_line.to_string(),
            ]
        })
        .collect();
    let lines_header = format!("{line_bytes}-byte lines touched");
    table(&["stride (bytes)", "bytes spanned", &lines_header, "most counters in one line"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::CounterReading;
    use crate::stride::{summarize, Row};

    fn rows() -> Vec<Row> {
        [(8, [40.0, 42.0, 41.0]), (64, [10.0, 11.0, 10.5])]
            .iter()
            .flat_map(|&(stride, times)| {
                times.into_iter().enumerate().map(move |(trial, ms)| Row {
                    stride_bytes: stride,
                    threads: 2,
                    trial: trial as u64,
                    iters_per_thread: 1000,
                    elapsed_ns: (ms * 1e6) as u64,
                    ns_per_op: ms * 1e6 / 1000.0,
                    pinned: true,
                    verified: true,
                    cache_misses: CounterReading::Unavailable,
                })
            })
            .collect()
    }

    fn reference() -> ReferenceTable {
        ReferenceTable::parse("stride.csv", "stride_bytes,time_ms,relative_to_fastest\n8,2407,122.46\n128,20,1.00\n")
            .unwrap()
    }

    #[test]
    fn table_has_one_row_per_stride_with_the_article_beside_it() {
        let summaries = summarize(&rows());
        let rich = summary_table(&summaries, Some(&reference())).unwrap();
        let lines: Vec<Vec<&str>> = rich.plain.lines().map(|line| line.split_whitespace().collect()).collect();
        assert_eq!(lines.len(), 2 + summaries.len());
        assert_eq!(lines[2], ["8", "41.0", "40.0..42.0", "3.90x", "41000", "2407", "122.46x"]);
        // The article has no 64-byte row in this fixture: shown as missing, not invented.
        assert_eq!(lines[3], ["64", "10.5", "10.0..11.0", "1.00x", "10500", "-", "-"]);
    }

    #[test]
    fn chart_draws_one_series_per_machine() {
        let summaries = summarize(&rows());
        let rich = chart_machines(&[("laptop", &summaries[..]), ("server", &summaries[..1])], None).unwrap();
        assert!(rich.plain.contains("laptop: 8 B: 41.0 ms (3.90x), 64 B"), "{}", rich.plain);
        assert!(rich.plain.ends_with("server: 8 B: 41.0 ms (3.90x)"), "{}", rich.plain);
    }

    #[test]
    fn layout_counts_lines_and_writers_per_line() {
        assert_eq!(
            layout(8, 8, 64),
            Layout { stride_bytes: 8, span_bytes: 64, lines_touched: 1, most_counters_per_line: 8 }
        );
        assert_eq!(layout(8, 32, 64).lines_touched, 4);
        assert_eq!(layout(8, 32, 64).most_counters_per_line, 2);
        assert_eq!(layout(8, 64, 128).most_counters_per_line, 2);
        assert_eq!(layout(8, 128, 64).most_counters_per_line, 1);
        assert_eq!(layout_table(8, &[8, 64], 64).plain.lines().count(), 4);
    }

    #[test]
    fn reference_series_needs_its_columns() {
        let series = reference_series(&reference()).unwrap();
        assert_eq!(series.points.len(), 2);
        assert_eq!(series.points[0].median, 2407.0);
        let wrong = ReferenceTable::parse("x.csv", "stride_bytes\n8\n").unwrap();
        assert!(reference_series(&wrong).unwrap_err().to_string().contains("no column 'time_ms'"));
    }

    #[test]
    fn chart_is_an_image_with_the_medians_as_text() {
        let summaries = summarize(&rows());
        let rich = chart("this machine", &summaries, Some(reference_series(&reference()).unwrap())).unwrap();
        assert!(rich.html.contains("data:image/svg+xml;base64,"));
        assert!(rich.plain.contains("8 B: 41.0 ms"));
        assert!(rich.plain.contains("64 B: 10.5 ms (1.00x)"));
    }
}
