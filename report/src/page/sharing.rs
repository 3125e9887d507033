//! The four-way control's section: the article's table beside each machine's medians, the
//! three ratios with intervals, the chart, and the sentences the data supports.

use anyhow::Result;
use contention::chart::sharing::{case_x, series_from_summaries, sharing_chart};
use contention::chart::{IntervalPoint, Series};
use contention::counters::format_count;
use contention::sharing::{describe_ratio, false_sharing_over, finding, summarize, Case, CaseSummary};
use serde::Serialize;

use super::reference::{self, SharingReference};
use super::{config_of, format_number, machine_label, summary_line, MachineFinding};
use crate::load::RunData;

#[derive(Debug, Serialize)]
pub struct SharingSection {
    pub measured: bool,
    /// The summary line at the top of the page.
    pub finding_summary: String,
    pub findings: Vec<MachineFinding>,
    /// What the article measured, in one sentence built from data/reference/sharing.csv.
    pub article: String,
    pub chart_svg: String,
    pub machines: Vec<String>,
    pub rows: Vec<CaseRow>,
    pub ratios: Vec<RatioRow>,
    pub configs: Vec<MachineFinding>,
    pub cache_misses: Vec<MachineFinding>,
}

#[derive(Debug, Serialize)]
pub struct CaseRow {
    pub case: String,
    pub describe: String,
    pub article_ms: String,
    pub cells: Vec<CaseCell>,
}

#[derive(Debug, Serialize)]
pub struct CaseCell {
    pub threads: String,
    pub median_ms: String,
    pub interval_ms: String,
    pub ns_per_increment: String,
    pub noisy: bool,
}

/// One of the three ratios: the article's printed value and each machine's.
#[derive(Debug, Serialize)]
pub struct RatioRow {
    pub label: String,
    pub article: String,
    pub cells: Vec<String>,
}

/// The ratios the control is read by, as (denominator, label).
const RATIOS: [(Case, &str); 3] = [
    (Case::NoSharing, "false / no sharing"),
    (Case::TrueSharing, "false / true sharing"),
    (Case::Single, "false sharing / single thread"),
];

pub fn section(runs: &[RunData]) -> Result<SharingSection> {
    let measured: Vec<(String, &RunData, Vec<CaseSummary>)> = runs
        .iter()
        .filter_map(|run| run.sharing.as_ref().map(|rows| (machine_label(run), run, summarize(rows))))
        .collect();
    let reference = reference::sharing()?;
    let mut series = vec![article_series(&reference)];
    series.extend(measured.iter().map(|(label, _, summaries)| {
        let threads = summaries.iter().map(|s| s.threads).max().unwrap_or(0);
        series_from_summaries(format!("{label}, {threads} threads"), summaries)
    }));
    let rows = Case::ALL
        .iter()
        .map(|&case| CaseRow {
            case: case.name().into(),
            describe: describe(case, &measured),
            article_ms: reference.iter().find(|r| r.case == case).map_or("-".into(), |r| r.time_ms.to_string()),
            cells: measured.iter().map(|(_, _, summaries)| cell(summaries.iter().find(|s| s.case == case))).collect(),
        })
        .collect();
    let ratios = RATIOS
        .iter()
        .map(|&(case, label)| RatioRow {
            label: label.into(),
            article: reference
                .iter()
                .find(|r| r.case == case)
                .and_then(|r| r.false_sharing_over_this.clone())
                .map_or("-".into(), |ratio| ratio + "x"),
            cells: measured
                .iter()
                .map(|(_, _, summaries)| false_sharing_over(summaries, case).map_or("-".into(), |r| describe_ratio(&r)))
                .collect(),
        })
        .collect();
    let findings: Vec<MachineFinding> = measured
        .iter()
        .map(|(label, _, summaries)| MachineFinding { machine: label.clone(), text: finding(summaries) })
        .collect();
    Ok(SharingSection {
        measured: !measured.is_empty(),
        finding_summary: summary_line(findings.iter().map(|f| (f.machine.as_str(), f.text.as_str()))),
        article: article_sentence(&reference),
        chart_svg: sharing_chart("Four-way control: time per increment", &series)?,
        machines: measured.iter().map(|(label, _, _)| label.clone()).collect(),
        configs: measured.iter().map(|(label, run, _)| config_line(label, run)).collect(),
        cache_misses: measured.iter().map(|(label, run, _)| cache_miss_line(label, run)).collect(),
        findings,
        rows,
        ratios,
    })
}

/// The case in words; for no sharing, with the padding each run used.
fn describe(case: Case, measured: &[(String, &RunData, Vec<CaseSummary>)]) -> String {
    if case != Case::NoSharing {
        return case.describe().into();
    }
    let mut paddings: Vec<String> = measured
        .iter()
        .filter_map(|(_, _, summaries)| summaries.iter().find(|s| s.case == Case::NoSharing))
        .map(|s| s.distance_bytes.to_string())
        .collect();
    paddings.dedup();
    match paddings.as_slice() {
        [] => case.describe().into(),
        many => format!("each thread its own counter, {} bytes apart", many.join(" / ")),
    }
}

/// The article's table as nanoseconds per increment per goroutine (time over the
/// increments each goroutine did), so it shares the chart's axis with any run's size.
fn article_series(reference: &[SharingReference]) -> Series {
    Series {
        label: format!("article (Apple M3 Max, {} goroutines)", reference.iter().map(|r| r.threads).max().unwrap_or(0)),
        points: reference
            .iter()
            .map(|r| {
                let ns = r.time_ms * 1e6 / r.increments_per_thread as f64;
                IntervalPoint { x: case_x(r.case), median: ns, low: ns, high: ns }
            })
            .collect(),
    }
}

/// "The article (a fixed total of 20 000 000 increments ...): single thread 35 ms, ...;
/// false / no sharing 3.87x, ..."
fn article_sentence(reference: &[SharingReference]) -> String {
    let row = |case: Case| reference.iter().find(|r| r.case == case);
    let time = |case: Case| row(case).map_or("-".into(), |r| format!("{} ms", r.time_ms));
    let printed =
        |case: Case| row(case).and_then(|r| r.false_sharing_over_this.clone()).map_or("-".into(), |x| x + "x");
    let (threads, per_thread) = row(Case::FalseSharing).map_or((0, 0), |r| (r.threads, r.increments_per_thread));
    format!(
        "The article (a fixed total of {} increments: one goroutine doing all of them, or {threads} doing {} each): \
         single thread {}, true sharing {}, false sharing {}, no sharing {}; false / no sharing {}, false / true \
         sharing {}, false sharing / single thread {}.",
        format_count(threads * per_thread),
        format_count(per_thread),
        time(Case::Single),
        time(Case::TrueSharing),
        time(Case::FalseSharing),
        time(Case::NoSharing),
        printed(Case::NoSharing),
        printed(Case::TrueSharing),
        printed(Case::Single),
    )
}

fn cache_miss_line(label: &str, run: &RunData) -> MachineFinding {
    let rows = run.sharing.as_deref().unwrap_or_default();
    let groups = Case::ALL
        .iter()
        .map(|&case| {
            let readings = rows.iter().filter(|row| row.case == case).map(|row| row.cache_misses).collect();
            (case.name().to_string(), readings)
        })
        .collect();
    MachineFinding { machine: label.to_string(), text: super::cache_miss_note(groups) }
}

fn config_line(label: &str, run: &RunData) -> MachineFinding {
    MachineFinding { machine: label.to_string(), text: config_of(run, contention::sharing::EXPERIMENT) }
}

fn cell(summary: Option<&CaseSummary>) -> CaseCell {
    match summary {
        None => CaseCell {
            threads: "-".into(),
            median_ms: "-".into(),
            interval_ms: String::new(),
            ns_per_increment: "-".into(),
            noisy: false,
        },
        Some(s) => CaseCell {
            threads: s.threads.to_string(),
            median_ms: format_number(s.elapsed_ms.median),
            interval_ms: format!(
                "{}-{}",
                format_number(s.elapsed_ms.median_low),
                format_number(s.elapsed_ms.median_high)
            ),
            ns_per_increment: format_number(s.ns_per_increment.median),
            noisy: s.elapsed_ms.is_noisy(),
        },
    }
}
