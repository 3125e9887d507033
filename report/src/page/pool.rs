//! The thread-pool section: the article's incident and fix beside each machine's runs at the
//! same pool sizes per CPU, the two charts, a table of every case, and the sentences the
//! data supports.

use anyhow::Result;
use contention::chart::pool_latency::{fixed_series, pool_latency_chart, LatencyLines, Marker};
use contention::chart::pool_switches::{pool_switches_chart, SwitchLines};
use contention::pool::{findings, summarize, PoolSummary, Variant};
use serde::Serialize;

use super::reference;
use super::{format_number, machine_label};
use crate::load::RunData;
use contention::notebook::machine::human_bytes;

mod article;

#[derive(Debug, Serialize)]
pub struct PoolSection {
    pub measured: bool,
    pub finding_summary: String,
    pub machines: Vec<String>,
    pub findings: Vec<MachineFindings>,
    pub latency_svg: String,
    pub switches_svg: String,
    pub comparison: Vec<ComparisonRow>,
    pub tables: Vec<MachineTable>,
    pub article: Vec<ArticleNumber>,
    pub configs: Vec<RunConfig>,
}

#[derive(Debug, Serialize)]
pub struct RunConfig {
    pub machine: String,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct MachineFindings {
    pub machine: String,
    pub sentences: Vec<String>,
    pub setup: String,
}

#[derive(Debug, Serialize)]
pub struct ComparisonRow {
    pub what: String,
    pub article: String,
    pub cells: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct MachineTable {
    pub machine: String,
    pub rows: Vec<CaseRow>,
}

#[derive(Debug, Serialize)]
pub struct CaseRow {
    pub variant: String,
    pub hit: String,
    pub threads: String,
    pub trials: String,
    pub completed_per_s: String,
    pub p50: String,
    pub p99: String,
    pub p99_interval: String,
    pub p999: String,
    pub switches: String,
    pub cpu_share: String,
    pub switching_cpus: String,
    pub dropped: String,
    pub peak_queue: String,
    pub peak_rss: String,
    pub noisy: bool,
}

#[derive(Debug, Serialize)]
pub struct ArticleNumber {
    pub what: String,
    pub value: String,
}

struct Measured<'a> {
    label: String,
    run: &'a RunData,
    summaries: Vec<PoolSummary>,
}

pub fn section(runs: &[RunData]) -> Result<PoolSection> {
    let measured: Vec<Measured> = runs
        .iter()
        .filter_map(|run| {
            run.pool.as_ref().map(|rows| Measured { label: machine_label(run), run, summaries: summarize(rows) })
        })
        .collect();
    let article = reference::pool()?;
    let findings: Vec<MachineFindings> = measured.iter().map(machine_findings).collect();
    let (latency_svg, switches_svg) =
        if measured.is_empty() { (String::new(), String::new()) } else { charts(&measured)? };
    Ok(PoolSection {
        measured: !measured.is_empty(),
        finding_summary: match findings.as_slice() {
            [] => "Not measured.".into(),
            [only] => only.sentences.first().cloned().unwrap_or_default(),
            many => many
                .iter()
                .map(|f| format!("{}: {}", f.machine, f.sentences.first().cloned().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(" "),
        },
        machines: measured.iter().map(|m| m.label.clone()).collect(),
        comparison: article::comparison(&article, &measured),
        tables: measured
            .iter()
            .map(|m| MachineTable { machine: m.label.clone(), rows: m.summaries.iter().map(case_row).collect() })
            .collect(),
        article: article.iter().map(|r| ArticleNumber { what: r.what.clone(), value: article::with_unit(r) }).collect(),
        configs: measured
            .iter()
            .filter_map(|m| {
                let record = m.run.manifest.experiments.iter().find(|e| e.name == contention::pool::EXPERIMENT)?;
                Some(RunConfig { machine: m.label.clone(), text: super::environment::config_text(&record.config) })
            })
            .collect(),
        findings,
        latency_svg,
        switches_svg,
    })
}

fn machine_findings(m: &Measured) -> MachineFindings {
    let setup = m.summaries.first().map_or(String::new(), |s| {
        format!(
            "{} CPUs; {:.2} ms of hashing per request (calibrated); {:.0} requests/s offered; one context switch \
             cost {:.1} us in the probe.",
            s.cpus,
            s.cpu_work_ms,
            s.offered_rate_per_s,
            s.switch_cost_ns / 1e3
        )
    });
    MachineFindings { machine: m.label.clone(), sentences: findings(&m.summaries), setup }
}

fn first_hit(m: &Measured) -> f64 {
    m.summaries.first().map_or(0.0, |s| s.key.hit_rate)
}

fn charts(measured: &[Measured]) -> Result<(String, String)> {
    let suffix = |m: &Measured| if measured.len() > 1 { format!(", {}", m.label) } else { String::new() };
    let latency: Vec<LatencyLines> = measured
        .iter()
        .map(|m| LatencyLines {
            p99: fixed_series(format!("p99{}", suffix(m)), &m.summaries, first_hit(m), |s| &s.p99_ms),
            p50: fixed_series(format!("p50{}", suffix(m)), &m.summaries, first_hit(m), |s| &s.p50_ms),
        })
        .collect();
    let formula: Vec<Marker> = measured
        .iter()
        .filter_map(|m| {
            m.summaries
                .first()
                .map(|s| Marker { label: format!("formula: {}", s.formula_threads), value: s.formula_threads as f64 })
        })
        .collect();
    let levels: Vec<Marker> = measured
        .iter()
        .flat_map(|m| {
            let hit = first_hit(m);
            m.summaries.iter().filter(move |s| s.key.variant != Variant::Fixed && s.key.hit_rate == hit).map(move |s| {
                Marker { label: format!("{} p99{}", s.key.variant.name(), suffix(m)), value: s.p99_ms.median }
            })
        })
        .collect();
    let hit_note = measured.first().map_or(String::new(), |m| format!(" at {:.0}% hits", first_hit(m) * 100.0));
    let latency_svg = pool_latency_chart(&format!("Latency against pool size{hit_note}"), &latency, &formula, &levels)?;
    let switches: Vec<SwitchLines> = measured
        .iter()
        .map(|m| SwitchLines {
            voluntary: fixed_series(format!("voluntary{}", suffix(m)), &m.summaries, first_hit(m), |s| {
                &s.voluntary_per_s
            }),
            involuntary: fixed_series(format!("involuntary{}", suffix(m)), &m.summaries, first_hit(m), |s| {
                &s.involuntary_per_s
            }),
            throughput: fixed_series(format!("completed{}", suffix(m)), &m.summaries, first_hit(m), |s| {
                &s.completed_per_s
            }),
            offered_per_s: m.summaries.first().map_or(0.0, |s| s.offered_rate_per_s),
        })
        .collect();
    let switches_svg = pool_switches_chart(&format!("Context switches and throughput{hit_note}"), &switches, &formula)?;
    Ok((latency_svg, switches_svg))
}

fn case_row(s: &PoolSummary) -> CaseRow {
    CaseRow {
        variant: s.key.variant.name().into(),
        hit: format!("{:.0}%", s.key.hit_rate * 100.0),
        threads: match s.key.variant {
            Variant::Split => format!("{} + {} db", s.key.pool_threads, s.key.db_connections),
            Variant::Async => format!("{} workers", s.key.pool_threads),
            Variant::Fixed => s.key.pool_threads.to_string(),
        },
        trials: s.trials.to_string(),
        completed_per_s: format!("{:.0}", s.completed_per_s.median),
        p50: format_number(s.p50_ms.median),
        p99: format_number(s.p99_ms.median),
        p99_interval: format!("{}-{}", format_number(s.p99_ms.median_low), format_number(s.p99_ms.median_high)),
        p999: format_number(s.p999_ms.median),
        switches: format!("{:.0} / {:.0}", s.voluntary_per_s.median, s.involuntary_per_s.median),
        cpu_share: format!("{:.0}%", s.cpu_share.median * 100.0),
        switching_cpus: format!("{:.3}", s.switching_cpus),
        dropped: format!("{:.1}%", s.dropped_share * 100.0),
        peak_queue: s.peak_queue.to_string(),
        peak_rss: if s.peak_rss_bytes == 0 { "n/a".into() } else { human_bytes(s.peak_rss_bytes) },
        noisy: s.p99_ms.is_noisy(),
    }
}
