//! The four-way control in a notebook: each case's medians beside the article's, the three
//! ratios the control is read by, and the report's chart.

use super::reference::{ReferenceError, ReferenceTable};
use super::{format_number, table, MachinesChart, Rich};
use crate::chart::sharing::{case_x, series_from_summaries, sharing_chart};
use crate::chart::{ChartError, IntervalPoint, Series};
use crate::sharing::{describe_ratio, false_sharing_over, Case, CaseSummary};

/// The ratios the control is read by: false sharing's time over each other case's.
const RATIOS: [(Case, &str); 3] = [
    (Case::NoSharing, "false / no sharing"),
    (Case::TrueSharing, "false / true sharing"),
    (Case::Single, "false sharing / single thread"),
];

fn case_named(name: &str) -> Option<Case> {
    Case::ALL.into_iter().find(|case| case.name() == name)
}

/// One article row: the case, its time and the printed ratio of false sharing over it.
struct ArticleCase {
    case: Case,
    /// The time as printed.
    time_ms: String,
    ns_per_increment: f64,
    false_sharing_over_this: String,
}

fn article_cases(reference: &ReferenceTable) -> Result<Vec<ArticleCase>, ReferenceError> {
    let cases = reference.texts("case")?;
    let times = reference.numbers("time_ms")?;
    let printed_times = reference.texts("time_ms")?;
    let per_thread = reference.numbers("increments_per_thread")?;
    let printed = reference.texts("false_sharing_over_this")?;
    Ok(cases
        .iter()
        .zip(times)
        .zip(per_thread)
        .zip(printed)
        .zip(printed_times)
        .filter_map(|((((name, time_ms), per_thread), printed), printed_time)| {
            Some(ArticleCase {
                case: case_named(name)?,
                time_ms: printed_time.to_string(),
                ns_per_increment: time_ms * 1e6 / per_thread,
                false_sharing_over_this: printed.to_string(),
            })
        })
        .collect())
}

/// The article's four cases (`data/reference/sharing.csv`) as nanoseconds per increment per
/// goroutine, so they share the chart's axis with a quick run.
pub fn reference_series(reference: &ReferenceTable) -> Result<Series, ReferenceError> {
    Ok(Series {
        label: "article (Apple M3 Max, 2 goroutines)".into(),
        points: article_cases(reference)?
            .iter()
            .map(|a| IntervalPoint {
                x: case_x(a.case),
                median: a.ns_per_increment,
                low: a.ns_per_increment,
                high: a.ns_per_increment,
            })
            .collect(),
    })
}

/// One row per case: what it does, threads, median time with its interval, nanoseconds per
/// increment, and the article's time.
pub fn summary_table(summaries: &[CaseSummary], reference: Option<&ReferenceTable>) -> Result<Rich, ReferenceError> {
    let article = reference.map(article_cases).transpose()?.unwrap_or_default();
    let rows: Vec<Vec<String>> = summaries
        .iter()
        .map(|s| {
            let published = article.iter().find(|a| a.case == s.case);
            let what = match s.case {
                Case::NoSharing => format!("each thread its own counter, {} bytes apart", s.distance_bytes),
                other => other.describe().to_string(),
            };
            vec![
                s.case.name().to_string(),
                what,
                s.threads.to_string(),
                format_number(s.elapsed_ms.median),
                format!("{}..{}", format_number(s.elapsed_ms.median_low), format_number(s.elapsed_ms.median_high)),
                format_number(s.ns_per_increment.median),
                published.map_or("-".into(), |a| a.time_ms.clone()),
            ]
        })
        .collect();
    Ok(table(
        &["case", "what it does", "threads", "median (ms)", "interval (ms)", "ns per increment", "article (ms)"],
        &rows,
    ))
}

/// The three ratios: this machine's with intervals, the article's as printed.
pub fn ratios_table(summaries: &[CaseSummary], reference: Option<&ReferenceTable>) -> Result<Rich, ReferenceError> {
    let article = reference.map(article_cases).transpose()?.unwrap_or_default();
    let rows: Vec<Vec<String>> = RATIOS
        .iter()
        .map(|&(case, label)| {
            let printed = article
                .iter()
                .find(|a| a.case == case && !a.false_sharing_over_this.is_empty())
                .map_or("-".into(), |a| format!("{}x", a.false_sharing_over_this));
            let measured = false_sharing_over(summaries, case).map_or("-".into(), |ratio| describe_ratio(&ratio));
            vec![label.to_string(), measured, printed]
        })
        .collect();
    Ok(table(&["ratio of times", "this machine", "article"], &rows))
}

/// The report's chart with this machine's series (and the article's, when given); the
/// text fallback lists the medians.
pub fn chart(machine_label: &str, summaries: &[CaseSummary], article: Option<Series>) -> Result<Rich, ChartError> {
    chart_machines(&[(machine_label, summaries)], article)
}

/// The report's chart with one series per machine (label, summaries), after the article's.
pub fn chart_machines<Label, Summaries>(
    machines: &[(Label, Summaries)],
    article: Option<Series>,
) -> Result<Rich, ChartError>
where
    Label: AsRef<str>,
    Summaries: AsRef<[CaseSummary]>,
{
    CHART.figure(machines, article)
}

const CHART: MachinesChart<CaseSummary> = MachinesChart {
    title: "Four-way control: time per increment",
    caption: "Nanoseconds per increment, per thread, in each case (log scale; bars are the median's interval)",
    fallback: "median per increment",
    threads: |summaries| summaries.iter().map(|s| s.threads).max().unwrap_or(0),
    series: |label, summaries| series_from_summaries(label, summaries),
    draw: sharing_chart,
    point: |s| format!("{}: {} ns", s.case.name(), format_number(s.ns_per_increment.median)),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::CounterReading;
    use crate::sharing::{summarize, Row};

    fn rows() -> Vec<Row> {
        let cases = [(Case::Single, 1, 0, 30.0), (Case::TrueSharing, 2, 0, 70.0), (Case::FalseSharing, 2, 8, 68.0)];
        let mut rows: Vec<Row> = Vec::new();
        for (case, threads, distance_bytes, ms) in cases.into_iter().chain([(Case::NoSharing, 2, 128, 15.0)]) {
            for trial in 0..3u64 {
                let elapsed_ms = ms + trial as f64;
                rows.push(Row {
                    case,
                    threads,
                    trial,
                    total_increments: 2_000,
                    increments_per_thread: 2_000 / threads,
                    distance_bytes,
                    elapsed_ns: (elapsed_ms * 1e6) as u64,
                    ns_per_increment: elapsed_ms * 1e6 / (2_000 / threads) as f64,
                    pinned: true,
                    verified: true,
                    cache_misses: CounterReading::Unavailable,
                });
            }
        }
        rows
    }

    fn reference() -> ReferenceTable {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference");
        ReferenceTable::read(dir, "sharing.csv").unwrap()
    }

    #[test]
    fn table_has_every_case_with_the_article_beside_it() {
        let summaries = summarize(&rows());
        let rich = summary_table(&summaries, Some(&reference())).unwrap();
        let lines: Vec<&str> = rich.plain.lines().collect();
        assert_eq!(lines.len(), 2 + 4);
        assert!(lines[2].starts_with("single") && lines[2].trim_end().ends_with("35"), "{}", lines[2]);
        assert!(lines[5].contains("128 bytes apart"), "{}", lines[5]);
    }

    #[test]
    fn ratios_table_sets_the_printed_ratios_beside_the_measured_ones() {
        let summaries = summarize(&rows());
        let rich = ratios_table(&summaries, Some(&reference())).unwrap();
        let lines: Vec<&str> = rich.plain.lines().collect();
        assert_eq!(lines.len(), 2 + 3);
        assert!(lines[2].starts_with("false / no sharing") && lines[2].ends_with("3.87x"), "{}", lines[2]);
        assert!(lines[2].contains("4.31x (interval 4.00x to 4.67x)"), "{}", lines[2]);
        assert!(lines[4].ends_with("2.00x"), "{}", lines[4]);
    }

    #[test]
    fn article_series_is_per_increment_per_goroutine() {
        let series = reference_series(&reference()).unwrap();
        assert_eq!(series.points.len(), 4);
        // single: 35 ms over 20 M increments by one goroutine.
        assert!((series.points[0].median - 1.75).abs() < 1e-9);
        let rich = chart("this machine", &summarize(&rows()), Some(series)).unwrap();
        assert!(rich.html.contains("data:image/svg+xml;base64,"));
        assert!(rich.plain.contains("no-sharing: "));
    }
}
