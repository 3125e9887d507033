//! The counter layouts' section: the article's padded-against-compact numbers beside each
//! machine's, speed and memory against the compact array, the extrapolation to 100 000
//! counters, the chart, and the sentences the data supports.

use anyhow::Result;
use contention::chart::counters::{counters_chart, layout_x, series_from_summaries};
use contention::chart::{IntervalPoint, Series};
use contention::counters::{
    finding, format_bytes, format_count, headline, summarize, Layout, LayoutSummary, EXTRAPOLATED_COUNTERS,
};
use serde::Serialize;

use super::reference::{self, CountersReference};
use super::{config_of, format_number, machine_label, summary_line, MachineFinding};
use crate::load::RunData;

#[derive(Debug, Serialize)]
pub struct CountersSection {
    pub measured: bool,
    /// The summary line at the top of the page: padded against compact, speed and memory.
    pub finding_summary: String,
    pub findings: Vec<MachineFinding>,
    /// What the article measured, in one sentence built from data/reference/counters.csv.
    pub article: String,
    pub extrapolated_counters: String,
    pub chart_svg: String,
    pub machines: Vec<String>,
    pub rows: Vec<LayoutRow>,
    pub configs: Vec<MachineFinding>,
}

#[derive(Debug, Serialize)]
pub struct LayoutRow {
    pub layout: String,
    pub describe: String,
    pub article_ms: String,
    pub article_bytes: String,
    pub cells: Vec<LayoutCell>,
}

#[derive(Debug, Serialize)]
pub struct LayoutCell {
    pub median_ms: String,
    pub interval_ms: String,
    pub ns_per_increment: String,
    pub bytes: String,
    pub faster_than_compact: String,
    pub memory_vs_compact: String,
    pub bytes_extrapolated: String,
    pub noisy: bool,
}

pub fn section(runs: &[RunData]) -> Result<CountersSection> {
    let measured: Vec<(String, &RunData, Vec<LayoutSummary>)> = runs
        .iter()
        .filter_map(|run| run.counters.as_ref().map(|rows| (machine_label(run), run, summarize(rows))))
        .collect();
    let reference = reference::counters()?;
    let mut series = vec![article_series(&reference)];
    series.extend(measured.iter().map(|(label, _, summaries)| {
        let threads = summaries.first().map_or(0, |s| s.threads);
        series_from_summaries(format!("{label}, {threads} threads"), summaries)
    }));
    let rows = Layout::ALL
        .iter()
        .map(|&layout| {
            let article = reference.iter().find(|r| r.layout == layout);
            LayoutRow {
                layout: layout.name().into(),
                describe: layout.describe().into(),
                article_ms: article.map_or("-".into(), |r| r.time_ms.to_string()),
                article_bytes: article.map_or("-".into(), |r| r.bytes.to_string()),
                cells: measured
                    .iter()
                    .map(|(_, _, summaries)| cell(summaries.iter().find(|s| s.layout == layout)))
                    .collect(),
            }
        })
        .collect();
    let findings: Vec<MachineFinding> = measured
        .iter()
        .map(|(label, _, summaries)| MachineFinding { machine: label.clone(), text: finding(summaries) })
        .collect();
    let headlines: Vec<(String, String)> =
        measured.iter().map(|(label, _, summaries)| (label.clone(), headline(summaries))).collect();
    Ok(CountersSection {
        measured: !measured.is_empty(),
        finding_summary: summary_line(headlines.iter().map(|(machine, text)| (machine.as_str(), text.as_str()))),
        article: article_sentence(&reference),
        extrapolated_counters: format_count(EXTRAPOLATED_COUNTERS),
        chart_svg: counters_chart("Counter layouts: time per increment", &series)?,
        machines: measured.iter().map(|(label, _, _)| label.clone()).collect(),
        configs: measured.iter().map(|(label, run, _)| config_line(label, run)).collect(),
        findings,
        rows,
    })
}

/// The article's two layouts as nanoseconds per increment per goroutine (10 M each).
fn article_series(reference: &[CountersReference]) -> Series {
    const ARTICLE_INCREMENTS_PER_GOROUTINE: f64 = 10_000_000.0;
    Series {
        label: "article (Apple M3 Max, 8 goroutines)".into(),
        points: reference
            .iter()
            .map(|r| {
                let ns = r.time_ms * 1e6 / ARTICLE_INCREMENTS_PER_GOROUTINE;
                IntervalPoint { x: layout_x(r.layout), median: ns, low: ns, high: ns }
            })
            .collect(),
    }
}

/// "The article: compact ... 2327 ms; padded ... 46 ms: 50.95x faster for 16x the memory ..."
fn article_sentence(reference: &[CountersReference]) -> String {
    let compact = reference.iter().find(|r| r.layout == Layout::Compact);
    let padded = reference.iter().find(|r| r.layout == Layout::CachePadded);
    let (Some(compact), Some(padded)) = (compact, padded) else {
        return "The article's padded-against-compact numbers are missing from data/reference/counters.csv.".into();
    };
    let printed = |value: &Option<String>| value.clone().unwrap_or_else(|| "-".into());
    format!(
        "The article ({} goroutines, one shard each): the compact array ({} bytes) took {} ms; shards padded to {} \
         bytes ({} bytes) took {} ms: {}x faster for {}x the memory ({} extra bytes). For {} such counters, one per \
         connection: {} MB against {} MB.",
        compact.shards,
        compact.bytes,
        compact.time_ms,
        padded.bytes_per_shard,
        padded.bytes,
        padded.time_ms,
        printed(&padded.faster_than_compact),
        printed(&padded.memory_vs_compact),
        printed(&padded.extra_bytes),
        format_count(EXTRAPOLATED_COUNTERS),
        printed(&padded.memory_at_100000_counters_mb),
        printed(&compact.memory_at_100000_counters_mb),
    )
}

fn config_line(label: &str, run: &RunData) -> MachineFinding {
    MachineFinding { machine: label.to_string(), text: config_of(run, contention::counters::EXPERIMENT) }
}

fn cell(summary: Option<&LayoutSummary>) -> LayoutCell {
    let Some(s) = summary else {
        return LayoutCell {
            median_ms: "-".into(),
            interval_ms: String::new(),
            ns_per_increment: "-".into(),
            bytes: "-".into(),
            faster_than_compact: "-".into(),
            memory_vs_compact: "-".into(),
            bytes_extrapolated: "-".into(),
            noisy: false,
        };
    };
    LayoutCell {
        median_ms: format_number(s.elapsed_ms.median),
        interval_ms: format!("{}-{}", format_number(s.elapsed_ms.median_low), format_number(s.elapsed_ms.median_high)),
        ns_per_increment: format_number(s.ns_per_increment.median),
        bytes: s.bytes_used.to_string(),
        faster_than_compact: match (s.layout, s.faster_than_compact) {
            (Layout::Compact, _) => "reference".into(),
            (_, ratio) => ratio.map_or("-".into(), |r| format!("{:.2}x ({:.2}-{:.2})", r.value, r.low, r.high)),
        },
        memory_vs_compact: s.memory_vs_compact.map_or("-".into(), |m| format!("{}x", short_number(m))),
        bytes_extrapolated: format_bytes(s.bytes_for_extrapolated_counters),
        noisy: s.elapsed_ms.is_noisy(),
    }
}

/// "16", "1.5", "0.25": up to two decimals, trailing zeros dropped (memory ratios are
/// mostly whole).
fn short_number(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
