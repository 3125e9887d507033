//! The stride-sweep section: the article's table beside each machine's medians, the chart,
//! and the sentence the data supports.

use anyhow::Result;
use contention::chart::stride::{series_from_summaries, stride_chart};
use contention::chart::{IntervalPoint, Series};
use contention::stride::{finding, summarize, StrideSummary};
use serde::Serialize;

use super::{cache_miss_note, config_of, format_number, machine_label, reference, summary_line, MachineFinding};
use crate::load::RunData;

#[derive(Debug, Serialize)]
pub struct StrideSection {
    pub measured: bool,
    /// The summary line at the top of the page.
    pub finding_summary: String,
    pub findings: Vec<MachineFinding>,
    pub chart_svg: String,
    pub machines: Vec<String>,
    pub rows: Vec<StrideTableRow>,
    pub configs: Vec<MachineFinding>,
    pub cache_misses: Vec<MachineFinding>,
}

#[derive(Debug, Serialize)]
pub struct StrideTableRow {
    pub stride_bytes: String,
    pub article_ms: String,
    pub article_relative: String,
    pub cells: Vec<StrideCell>,
}

#[derive(Debug, Serialize)]
pub struct StrideCell {
    pub median_ms: String,
    pub interval_ms: String,
    pub relative: String,
    pub ns_per_op: String,
    pub noisy: bool,
}

pub fn section(runs: &[RunData]) -> Result<StrideSection> {
    let measured: Vec<(String, &RunData, Vec<StrideSummary>)> = runs
        .iter()
        .filter_map(|run| run.stride.as_ref().map(|rows| (machine_label(run), run, summarize(rows))))
        .collect();
    let reference = reference::stride()?;
    let mut series = vec![Series {
        label: "article (Apple M3 Max, 8 threads)".into(),
        points: reference
            .iter()
            .map(|r| IntervalPoint { x: r.stride_bytes as f64, median: r.time_ms, low: r.time_ms, high: r.time_ms })
            .collect(),
    }];
    series.extend(measured.iter().map(|(label, _, summaries)| {
        let threads = summaries.first().map_or(0, |s| s.threads);
        series_from_summaries(format!("{label}, {threads} threads"), summaries)
    }));
    let mut strides: Vec<u64> = reference.iter().map(|r| r.stride_bytes).collect();
    strides.extend(measured.iter().flat_map(|(_, _, summaries)| summaries.iter().map(|s| s.stride_bytes)));
    strides.sort_unstable();
    strides.dedup();
    let rows = strides
        .iter()
        .map(|&stride| {
            let article = reference.iter().find(|r| r.stride_bytes == stride);
            StrideTableRow {
                stride_bytes: stride.to_string(),
                article_ms: article.map_or("-".into(), |r| format_number(r.time_ms)),
                article_relative: article.map_or("-".into(), |r| format!("{:.2}x", r.relative_to_fastest)),
                cells: measured
                    .iter()
                    .map(|(_, _, summaries)| cell(summaries.iter().find(|s| s.stride_bytes == stride)))
                    .collect(),
            }
        })
        .collect();
    let findings: Vec<MachineFinding> = measured
        .iter()
        .map(|(label, _, summaries)| MachineFinding { machine: label.clone(), text: finding(summaries) })
        .collect();
    Ok(StrideSection {
        measured: !measured.is_empty(),
        finding_summary: summary_line(findings.iter().map(|f| (f.machine.as_str(), f.text.as_str()))),
        chart_svg: stride_chart("Stride sweep: time per trial", &series)?,
        machines: measured.iter().map(|(label, _, _)| label.clone()).collect(),
        cache_misses: measured
            .iter()
            .map(|(label, run, summaries)| MachineFinding {
                machine: label.clone(),
                text: cache_miss_note(
                    summaries
                        .iter()
                        .map(|s| {
                            let rows = run.stride.iter().flatten().filter(|row| row.stride_bytes == s.stride_bytes);
                            (format!("{} B", s.stride_bytes), rows.map(|row| row.cache_misses).collect())
                        })
                        .collect(),
                ),
            })
            .collect(),
        configs: measured
            .iter()
            .map(|(label, run, _)| MachineFinding {
                machine: label.clone(),
                text: config_of(run, contention::stride::EXPERIMENT),
            })
            .collect(),
        findings,
        rows,
    })
}

fn cell(summary: Option<&StrideSummary>) -> StrideCell {
    match summary {
        None => StrideCell {
            median_ms: "-".into(),
            interval_ms: String::new(),
            relative: "-".into(),
            ns_per_op: "-".into(),
            noisy: false,
        },
        Some(s) => StrideCell {
            median_ms: format_number(s.elapsed_ms.median),
            interval_ms: format!(
                "{}-{}",
                format_number(s.elapsed_ms.median_low),
                format_number(s.elapsed_ms.median_high)
            ),
            relative: format!("{:.2}x", s.relative_to_fastest),
            ns_per_op: format_number(s.ns_per_op.median),
            noisy: s.elapsed_ms.is_noisy(),
        },
    }
}
