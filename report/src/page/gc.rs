//! The GC-sweep section: the article's two tables beside each machine's medians, the two
//! charts, every cell with its derived values, and the sentences the data supports.

use anyhow::Result;
use contention::chart::gc::ratio::throughput_by_ratio_chart;
use contention::chart::gc::threads::throughput_by_threads_chart;
use contention::chart::gc::{series_by_ratio, series_by_threads, RatioPoint, RatioSeries};
use contention::chart::{IntervalPoint, Series};
use contention::gc::summary::{
    best_ratio_per_threads, cell, most_threads, over_default_ratio, over_one_thread, threads_text,
};
use contention::gc::{finding, summarize, CellSummary, GcRatio, Workload};
use contention::stats::Ratio;
use serde::Serialize;

use super::{config_of, format_number, machine_label, reference, summary_line};
use crate::load::RunData;
use contention::notebook::machine::human_bytes;

#[derive(Debug, Serialize)]
pub struct GcSection {
    pub measured: bool,
    /// The summary line at the top of the page.
    pub finding_summary: String,
    pub machines: Vec<MachineGc>,
    pub ratio_chart_svg: String,
    /// Article vs machines at ratio 100, by thread count.
    pub threads_rows: Vec<CompareRow>,
    /// Article (48 goroutines) vs machines at their largest thread count, by ratio.
    pub ratio_rows: Vec<CompareRow>,
    /// Goroutines of the article's ratio table.
    pub article_ratio_goroutines: String,
}

/// One machine's part of the section.
#[derive(Debug, Serialize)]
pub struct MachineGc {
    pub label: String,
    pub finding: String,
    pub workload: String,
    pub most_threads: String,
    pub logical_cpus: String,
    pub threads_chart_svg: String,
    pub cells: Vec<CellRow>,
    pub best: Vec<BestRow>,
    pub config: String,
}

#[derive(Debug, Serialize)]
pub struct CompareRow {
    pub key: String,
    pub article: String,
    pub article_relative: String,
    /// Per machine: median operations/s and its relative value.
    pub cells: Vec<[String; 2]>,
}

#[derive(Debug, Serialize)]
pub struct CellRow {
    pub threads: String,
    pub ratio: String,
    pub ops_per_sec: String,
    pub interval: String,
    pub over_default: String,
    pub over_one_thread: String,
    pub collections_per_sec: String,
    pub pause_share: String,
    pub pause_max_ms: String,
    pub stop_share: String,
    pub peak_heap: String,
    pub noisy: bool,
    pub oversubscribed: bool,
}

#[derive(Debug, Serialize)]
pub struct BestRow {
    /// "1 thread", "8 threads".
    pub threads: String,
    pub ratio: String,
    pub is_default: bool,
    pub over_default: String,
    /// The best ratio beat ratio 100 beyond the noise.
    pub clear: bool,
}

pub fn section(runs: &[RunData]) -> Result<GcSection> {
    let measured: Vec<(&RunData, Vec<CellSummary>)> =
        runs.iter().filter_map(|run| run.gc.as_ref().map(|rows| (run, summarize(rows)))).collect();
    let article_threads = reference::gc_threads()?;
    let article_ratios = reference::gc_ratios()?;
    let article_curve = Series {
        label: "article: GOGC=100, 24 cores / 48 threads".into(),
        points: article_threads.iter().map(|r| point(r.goroutines as f64, r.signatures_per_sec)).collect(),
    };
    let machines =
        measured.iter().map(|(run, cells)| machine_section(run, cells, &article_curve)).collect::<Result<Vec<_>>>()?;
    let goroutines = article_ratios.first().map_or("-".into(), |r| r.goroutines.to_string());
    let mut ratio_series = vec![RatioSeries {
        label: format!("article: {goroutines} goroutines"),
        points: article_ratios
            .iter()
            .map(|r| RatioPoint {
                ratio: r.gogc,
                median: r.signatures_per_sec,
                low: r.signatures_per_sec,
                high: r.signatures_per_sec,
            })
            .collect(),
    }];
    ratio_series.extend(measured.iter().filter_map(|(run, cells)| {
        let most = most_threads(cells)?;
        Some(series_by_ratio(format!("{}, {most} threads", machine_label(run)), cells, most))
    }));
    let article_one = article_threads.iter().find(|r| r.goroutines == 1).map(|r| r.signatures_per_sec);
    let article_default = article_ratios.iter().find(|r| r.gogc == GcRatio::DEFAULT).map(|r| r.signatures_per_sec);
    Ok(GcSection {
        measured: !measured.is_empty(),
        finding_summary: summary_line(machines.iter().map(|m| (m.label.as_str(), m.finding.as_str()))),
        ratio_chart_svg: throughput_by_ratio_chart("Throughput against GC ratio, most threads", &ratio_series)?,
        threads_rows: threads_rows(&article_threads, article_one, &measured),
        ratio_rows: ratio_rows(&article_ratios, article_default, &measured),
        article_ratio_goroutines: goroutines,
        machines,
    })
}

fn point(x: f64, value: f64) -> IntervalPoint {
    IntervalPoint { x, median: value, low: value, high: value }
}

fn machine_section(run: &RunData, cells: &[CellSummary], article: &Series) -> Result<MachineGc> {
    let label = machine_label(run);
    let cpus = run.manifest.machine.logical_cpus as u64;
    let mut ratios: Vec<GcRatio> = cells.iter().map(|c| c.ratio).collect();
    ratios.sort_by_key(|r| r.order_key());
    ratios.dedup();
    let mut series = vec![article.clone()];
    series.extend(ratios.iter().map(|&ratio| series_by_threads(format!("ratio {ratio}"), cells, ratio)));
    let title = format!("Throughput against threads, one line per GC ratio: {}", run.manifest.machine.hostname);
    Ok(MachineGc {
        finding: finding(cells),
        workload: match cells.first().map(|c| c.workload) {
            Some(Workload::Ecdsa) => "ECDSA P-256 signatures (the article's workload)".into(),
            _ => "hash chains (the cheaper workload; not comparable in absolute terms with signatures)".into(),
        },
        most_threads: most_threads(cells).map_or("-".into(), |n| n.to_string()),
        logical_cpus: cpus.to_string(),
        threads_chart_svg: throughput_by_threads_chart(&title, &series)?,
        cells: cells.iter().map(|c| cell_row(cells, c, cpus)).collect(),
        best: best_ratio_per_threads(cells)
            .into_iter()
            .map(|best| BestRow {
                threads: threads_text(best.threads),
                ratio: best.ratio.to_string(),
                is_default: best.ratio == GcRatio::DEFAULT,
                over_default: best
                    .over_default
                    .map_or("-".into(), |r| format!("{:.2}x ratio 100, interval {:.2}-{:.2}", r.value, r.low, r.high)),
                clear: best.beats_default,
            })
            .collect(),
        config: config_of(run, contention::gc::EXPERIMENT),
        label,
    })
}

fn cell_row(cells: &[CellSummary], c: &CellSummary, cpus: u64) -> CellRow {
    CellRow {
        threads: c.threads.to_string(),
        ratio: c.ratio.to_string(),
        ops_per_sec: format_number(c.ops_per_sec.median),
        interval: format!("{}-{}", format_number(c.ops_per_sec.median_low), format_number(c.ops_per_sec.median_high)),
        over_default: over_default_ratio(cells, c).map_or("-".into(), |r| times_with_interval(&r)),
        over_one_thread: over_one_thread(cells, c).map_or("-".into(), |r| times_with_interval(&r)),
        collections_per_sec: format_number(c.cycles_per_sec.median),
        pause_share: format!("{:.1}%", c.pause_share.median * 100.0),
        pause_max_ms: format_number(c.pause_max_ms),
        stop_share: format!("{:.0}%", c.stop_share_of_pause * 100.0),
        peak_heap: human_bytes(c.peak_heap_bytes),
        noisy: c.ops_per_sec.is_noisy(),
        oversubscribed: c.threads > cpus,
    }
}

fn times_with_interval(ratio: &Ratio) -> String {
    format!("{:.2}x ({:.2}-{:.2})", ratio.value, ratio.low, ratio.high)
}

fn times(value: Option<f64>) -> String {
    value.filter(|v| v.is_finite()).map_or("-".into(), |v| format!("{v:.2}x"))
}

/// Thread counts of the article and every machine, each with ratio-100 throughput.
fn threads_rows(
    article: &[reference::GcThreadsReference],
    article_one: Option<f64>,
    measured: &[(&RunData, Vec<CellSummary>)],
) -> Vec<CompareRow> {
    let mut keys: Vec<u64> = article.iter().map(|r| r.goroutines).collect();
    keys.extend(measured.iter().flat_map(|(_, cells)| cells.iter().map(|c| c.threads)));
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|threads| {
            let published = article.iter().find(|r| r.goroutines == threads).map(|r| r.signatures_per_sec);
            CompareRow {
                key: threads.to_string(),
                article: published.map_or("-".into(), format_number),
                article_relative: times(published.zip(article_one).map(|(v, one)| v / one)),
                cells: measured
                    .iter()
                    .map(|(_, cells)| {
                        let at = cell(cells, threads, GcRatio::DEFAULT);
                        let one = cell(cells, 1, GcRatio::DEFAULT);
                        compare_cell(at, one)
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Ratios of the article and every machine, each at that machine's largest thread count.
fn ratio_rows(
    article: &[reference::GcRatioReference],
    article_default: Option<f64>,
    measured: &[(&RunData, Vec<CellSummary>)],
) -> Vec<CompareRow> {
    let mut keys: Vec<GcRatio> = article.iter().map(|r| r.gogc).collect();
    keys.extend(measured.iter().flat_map(|(_, cells)| cells.iter().map(|c| c.ratio)));
    keys.sort_by_key(|r| r.order_key());
    keys.dedup();
    keys.into_iter()
        .map(|ratio| {
            let published = article.iter().find(|r| r.gogc == ratio).map(|r| r.signatures_per_sec);
            CompareRow {
                key: ratio.to_string(),
                article: published.map_or("-".into(), format_number),
                article_relative: times(published.zip(article_default).map(|(v, base)| v / base)),
                cells: measured
                    .iter()
                    .map(|(_, cells)| {
                        let most = most_threads(cells).unwrap_or(1);
                        compare_cell(cell(cells, most, ratio), cell(cells, most, GcRatio::DEFAULT))
                    })
                    .collect(),
            }
        })
        .collect()
}

fn compare_cell(at: Option<&CellSummary>, base: Option<&CellSummary>) -> [String; 2] {
    match at {
        None => ["-".into(), "-".into()],
        Some(at) => [
            format_number(at.ops_per_sec.median),
            times(base.map(|base| at.ops_per_sec.median / base.ops_per_sec.median)),
        ],
    }
}
