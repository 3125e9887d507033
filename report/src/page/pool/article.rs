//! The article's incident and fix beside each machine: its pool sizes scaled per CPU, its
//! numbers as published, ours from the same pool sizes per CPU.

use contention::pool::{format_ms, PoolSummary, Variant};

use super::{first_hit, ComparisonRow, Measured};
use crate::page::reference::PoolReference;
use contention::notebook::machine::human_bytes;

/// Pool sizes per CPU the article's two settings correspond to (320 and 64 on 8 cores).
const INCIDENT_PER_CPU: u64 = 40;
const FIX_PER_CPU: u64 = 8;

pub(super) fn with_unit(reference: &PoolReference) -> String {
    let value = format!("{}", reference.value);
    match reference.unit.as_str() {
        "" => value,
        "%" => format!("{value}%"),
        unit => format!("{value} {unit}"),
    }
}

fn article_value(article: &[PoolReference], key: &str) -> String {
    article.iter().find(|r| r.key == key).map_or("-".into(), with_unit)
}

/// The fixed pool of `per_cpu` threads per CPU at the first hit rate, if the sweep ran it.
fn fixed_at<'a>(m: &'a Measured, per_cpu: u64, hit_rate: f64) -> Option<&'a PoolSummary> {
    m.summaries.iter().find(|s| {
        s.key.variant == Variant::Fixed && s.key.hit_rate == hit_rate && s.key.pool_threads == per_cpu * s.cpus
    })
}

/// A value of the run's recorded pool config, as text.
fn config_value(m: &Measured, field: &str) -> Option<String> {
    let record = m.run.manifest.experiments.iter().find(|e| e.name == contention::pool::EXPERIMENT)?;
    record.config.get(field).map(ToString::to_string)
}

/// The pool the article had during the incident (40 per CPU), at the first hit rate.
fn incident<'a>(m: &'a Measured) -> Option<&'a PoolSummary> {
    fixed_at(m, INCIDENT_PER_CPU, first_hit(m))
}

/// The pool the article fixed it with (8 per CPU), at the first hit rate.
fn fix<'a>(m: &'a Measured) -> Option<&'a PoolSummary> {
    fixed_at(m, FIX_PER_CPU, first_hit(m))
}

fn variant_at<'a>(m: &'a Measured, variant: Variant) -> Option<&'a PoolSummary> {
    m.summaries.iter().find(|s| s.key.variant == variant && s.key.hit_rate == first_hit(m))
}

/// One row: the article's value, then each machine's (or "not in this run").
fn row(
    measured: &[Measured],
    what: &str,
    article: String,
    cell: &dyn Fn(&Measured) -> Option<String>,
) -> ComparisonRow {
    ComparisonRow {
        what: what.into(),
        article,
        cells: measured.iter().map(|m| cell(m).unwrap_or_else(|| "not in this run".into())).collect(),
    }
}

/// The article's numbers against each machine's at the same pool sizes per CPU.
pub(super) fn comparison(article: &[PoolReference], measured: &[Measured]) -> Vec<ComparisonRow> {
    let mut rows = sizing_rows(article, measured);
    rows.extend(cost_rows(article, measured));
    rows
}

fn sizing_rows(article: &[PoolReference], measured: &[Measured]) -> Vec<ComparisonRow> {
    let a = |key| article_value(article, key);
    vec![
        row(measured, "CPUs", a("cores"), &|m| m.summaries.first().map(|s| s.cpus.to_string())),
        row(
            measured,
            "Goetz's formula with the mean W/C (ms)",
            format!("8 x {} x (1 + 49/1) = 320", a("formula_utilization")),
            &|m| {
                let utilization = config_value(m, "target_utilization")?;
                m.summaries.first().map(|s| {
                    format!(
                        "{} x {utilization} x (1 + {:.2}/{:.2}) = {}",
                        s.cpus, s.mean_wait_ms, s.cpu_work_ms, s.formula_threads
                    )
                })
            },
        ),
        row(measured, "pool size, incident (40 per CPU)", a("incident_threads"), &|m| {
            incident(m).map(|s| s.key.pool_threads.to_string())
        }),
        row(measured, "p99, incident pool", a("incident_p99"), &|m| incident(m).map(|s| format_ms(s.p99_ms.median))),
        row(measured, "pool size, fix (8 per CPU)", a("fix_threads"), &|m| {
            fix(m).map(|s| s.key.pool_threads.to_string())
        }),
        row(measured, "p99, fix pool", a("fix_p99"), &|m| fix(m).map(|s| format_ms(s.p99_ms.median))),
        row(measured, "throughput, incident -> fix pool", format!("{} -> {}", a("incident_qps"), a("fix_qps")), &|m| {
            let (big, small) = (incident(m)?, fix(m)?);
            Some(format!("{:.0} -> {:.0} requests/s", big.completed_per_s.median, small.completed_per_s.median))
        }),
        row(measured, "p99 at 97% hits, incident pool", format!("above {}", a("hit_rate_after_p99_floor")), &|m| {
            fixed_at(m, INCIDENT_PER_CPU, 0.97).map(|s| format_ms(s.p99_ms.median))
        }),
    ]
}

fn cost_rows(article: &[PoolReference], measured: &[Measured]) -> Vec<ComparisonRow> {
    let a = |key| article_value(article, key);
    let value = |key: &str| article.iter().find(|r| r.key == key).map_or(f64::NAN, |r| r.value);
    let per_request = value("incident_context_switches") / value("incident_qps");
    vec![
        row(measured, "context switches, incident pool", a("incident_context_switches"), &|m| {
            incident(m).map(|s| format!("{:.0} per s", s.switches_per_s.median))
        }),
        row(
            measured,
            "context switches per completed request, incident pool",
            format!("{per_request:.0} (derived: switches / QPS)"),
            &|m| {
                incident(m)
                    .filter(|s| s.completed_per_s.median > 0.0)
                    .map(|s| format!("{:.1}", s.switches_per_s.median / s.completed_per_s.median))
            },
        ),
        row(measured, "CPU busy, incident pool", a("incident_cpu_busy"), &|m| {
            incident(m).map(|s| format!("{:.0}%", s.cpu_share.median * 100.0))
        }),
        row(measured, "one context switch", format!("{} to {}", a("switch_cost_min"), a("switch_cost_max")), &|m| {
            m.summaries.first().map(|s| format!("{:.1} us (probe)", s.switch_cost_ns / 1e3))
        }),
        row(
            measured,
            "CPU spent switching, incident pool",
            format!("{} to {}", a("switching_cores_min"), a("switching_cores_max")),
            &|m| incident(m).map(|s| format!("{:.3} CPUs", s.switching_cpus)),
        ),
        row(
            measured,
            "throughput, platform -> virtual threads (async)",
            format!("{} -> {}", a("virtual_qps_before"), a("virtual_qps_after")),
            &|m| {
                let (fixed, tasks) = (incident(m)?, variant_at(m, Variant::Async)?);
                Some(format!(
                    "{:.0} -> {:.0} requests/s (incident pool -> async)",
                    fixed.completed_per_s.median, tasks.completed_per_s.median
                ))
            },
        ),
        row(
            measured,
            "memory, platform -> virtual threads (async)",
            format!("{} saved", a("virtual_memory_saved")),
            &|m| {
                let (fixed, tasks) = (incident(m)?, variant_at(m, Variant::Async)?);
                Some(format!("peak RSS {} -> {}", human_bytes(fixed.peak_rss_bytes), human_bytes(tasks.peak_rss_bytes)))
            },
        ),
    ]
}
