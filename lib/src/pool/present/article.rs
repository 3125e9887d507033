//! The article's incident and fix beside each machine: its pool sizes scaled per CPU, its
//! numbers as published, ours from the same pool sizes per CPU.

use super::cases::bounded;
use super::PoolReference;
use super::Summarised;
use crate::format;
use crate::pool::{format_ms, PoolSummary, Variant};
use crate::view::{Cell, Column, Table};

/// Pool sizes per CPU the article's two settings correspond to (320 and 64 on 8 cores).
const INCIDENT_PER_CPU: u64 = 40;
const FIX_PER_CPU: u64 = 8;

fn with_unit(reference: &PoolReference) -> String {
    let value = format!("{}", reference.value);
    match reference.unit.as_str() {
        "" => value,
        "%" => format!("{value}%"),
        unit => format!("{value} {unit}"),
    }
}

/// Every number the article published, in its own unit.
pub(super) fn numbers_table(article: &[PoolReference]) -> Table {
    Table {
        id: "article-numbers",
        caption: "The article's numbers".into(),
        columns: vec![Column::text("what"), Column::number("as published")],
        rows: article.iter().map(|r| vec![Cell::from(r.what.clone()), Cell::from(with_unit(r))]).collect(),
    }
}

fn article_value(article: &[PoolReference], key: &str) -> String {
    article.iter().find(|r| r.key == key).map_or(format::NOT_AVAILABLE.into(), with_unit)
}

/// The fixed pool of `per_cpu` threads per CPU at `hit_rate`, if the sweep ran it.
fn fixed_at<'a>(m: &'a Summarised, per_cpu: u64, hit_rate: f64) -> Option<&'a PoolSummary> {
    m.summaries.iter().find(|s| {
        s.key.variant == Variant::Fixed && s.key.hit_rate == hit_rate && s.key.pool_threads == per_cpu * s.cpus
    })
}

/// The pool the article had during the incident (40 per CPU), at the first hit rate.
fn incident<'a>(m: &'a Summarised) -> Option<&'a PoolSummary> {
    fixed_at(m, INCIDENT_PER_CPU, m.first_hit())
}

/// The pool the article fixed it with (8 per CPU), at the first hit rate.
fn fix<'a>(m: &'a Summarised) -> Option<&'a PoolSummary> {
    fixed_at(m, FIX_PER_CPU, m.first_hit())
}

/// The incident pool's figure from the process's CPU time or switches, or why there is none.
fn incident_usage(m: &Summarised, figure: fn(&PoolSummary) -> String) -> Option<String> {
    incident(m).map(|s| if s.usage_measured() { figure(s) } else { USAGE_UNAVAILABLE.into() })
}

const USAGE_UNAVAILABLE: &str = "unavailable (the OS counted no CPU time or switches)";

fn p99(s: &PoolSummary) -> String {
    bounded(s.p99_ms.median, s.p99_lower_bound)
}

fn variant_at<'a>(m: &'a Summarised, variant: Variant) -> Option<&'a PoolSummary> {
    m.summaries.iter().find(|s| s.key.variant == variant && s.key.hit_rate == m.first_hit())
}

type Measure<'m> = &'m dyn Fn(&Summarised) -> Option<String>;

/// One row: the article's value, then each machine's (or "not in this run").
fn row(measured: &[Summarised], what: &str, article: String, cell: Measure<'_>) -> Vec<Cell> {
    let mut row = vec![Cell::from(what), Cell::from(article)];
    row.extend(measured.iter().map(|m| Cell::from(cell(m).unwrap_or_else(|| "not in this run".into()))));
    row
}

/// The article's numbers against each machine's at the same pool sizes per CPU.
pub(super) fn comparison(article: &[PoolReference], measured: &[Summarised]) -> Table {
    let mut columns = vec![Column::text("what"), Column::text("article (8 cores, Java)")];
    columns.extend(measured.iter().map(|m| Column::text(m.label)));
    let mut rows = sizing_rows(article, measured);
    rows.extend(cost_rows(article, measured));
    Table {
        id: "article-beside",
        caption: "The article beside this machine (its pool sizes scaled per CPU: 320 threads on 8 cores is 40 per \
                  CPU, 64 is 8 per CPU)"
            .into(),
        columns,
        rows,
    }
}

fn sizing_rows(article: &[PoolReference], measured: &[Summarised]) -> Vec<Vec<Cell>> {
    let a = |key| article_value(article, key);
    vec![
        row(measured, "CPUs", a("cores"), &|m| m.summaries.first().map(|s| s.cpus.to_string())),
        row(
            measured,
            "Goetz's formula with this service's mean W/C (ms)",
            format!("8 x {} x (1 + 49/1) = 320", a("formula_utilization")),
            &|m| {
                let utilization = m.target_utilization.as_ref()?;
                m.summaries.first().map(|s| {
                    format!(
                        "{} x {utilization} x (1 + {:.2}/{:.2}) = {}",
                        s.cpus, s.mean_wait_ms, s.cpu_work_ms, s.formula_threads
                    )
                })
            },
        ),
        row(
            measured,
            "Goetz's formula with the article's W = 49 ms (a response time under load)",
            a("incident_threads"),
            &|m| {
                let utilization = m.target_utilization.as_ref()?;
                m.summaries
                    .first()
                    .map(|s| format!("{} x {utilization} x (1 + 49/1) = {}", s.cpus, s.article_formula_threads))
            },
        ),
        row(measured, "pool size, incident (40 per CPU)", a("incident_threads"), &|m| {
            incident(m).map(|s| s.key.pool_threads.to_string())
        }),
        row(measured, "p99, incident pool", a("incident_p99"), &|m| incident(m).map(p99)),
        row(measured, "pool size, fix (8 per CPU)", a("fix_threads"), &|m| {
            fix(m).map(|s| s.key.pool_threads.to_string())
        }),
        row(measured, "p99, fix pool", a("fix_p99"), &|m| fix(m).map(p99)),
        row(measured, "throughput, incident -> fix pool", format!("{} -> {}", a("incident_qps"), a("fix_qps")), &|m| {
            let (big, small) = (incident(m)?, fix(m)?);
            Some(format!(
                "capacity {:.0} -> {:.0} requests/s (closed loop)",
                big.capacity_per_s.median, small.capacity_per_s.median
            ))
        }),
        row(measured, "p99 at 97% hits, incident pool", format!("above {}", a("hit_rate_after_p99_floor")), &|m| {
            fixed_at(m, INCIDENT_PER_CPU, 0.97).map(p99)
        }),
    ]
}

fn cost_rows(article: &[PoolReference], measured: &[Summarised]) -> Vec<Vec<Cell>> {
    let a = |key| article_value(article, key);
    let value = |key: &str| article.iter().find(|r| r.key == key).map_or(f64::NAN, |r| r.value);
    let per_request = value("incident_context_switches") / value("incident_qps");
    vec![
        row(measured, "context switches, incident pool", a("incident_context_switches"), &|m| {
            incident_usage(m, |s| format!("{:.0} per s", s.switches_per_s.median))
        }),
        row(
            measured,
            "context switches per completed request, incident pool",
            format!("{} (derived: switches / QPS)", format::number(per_request)),
            &|m| incident_usage(m, |s| format!("{:.1}", s.switches_per_request.median)),
        ),
        row(measured, "mean wait for a CPU, incident pool", format!("{} (perf sched)", a("scheduling_wait")), &|m| {
            incident(m).map(|s| {
                s.run_delay_ms.as_ref().map_or("unavailable (no schedstat)".into(), |delay| {
                    format!("{} per request (schedstat)", format_ms(delay.median))
                })
            })
        }),
        row(measured, "CPU busy, incident pool", a("incident_cpu_busy"), &|m| {
            incident_usage(m, |s| format::percent(s.cpu_share.median))
        }),
        row(measured, "one context switch", format!("{} to {}", a("switch_cost_min"), a("switch_cost_max")), &|m| {
            m.switch_cost.as_ref().map(|cost| format!("{:.1} us (probe)", cost.median / 1e3))
        }),
        row(
            measured,
            "CPU spent switching, incident pool",
            format!("{} to {}", a("switching_cores_min"), a("switching_cores_max")),
            &|m| incident_usage(m, |s| format!("{:.3} CPUs", s.switching_cpus)),
        ),
        row(
            measured,
            "throughput, platform -> virtual threads (async)",
            format!("{} -> {}", a("virtual_qps_before"), a("virtual_qps_after")),
            &|m| {
                let (fixed, tasks) = (incident(m)?, variant_at(m, Variant::Async)?);
                Some(format!(
                    "capacity {:.0} -> {:.0} requests/s (incident pool -> async)",
                    fixed.capacity_per_s.median, tasks.capacity_per_s.median
                ))
            },
        ),
        row(
            measured,
            "memory, platform -> virtual threads (async)",
            format!("{} saved", a("virtual_memory_saved")),
            &|m| {
                let (fixed, tasks) = (incident(m)?, variant_at(m, Variant::Async)?);
                let reserved = if fixed.reserved_bytes > 0 && tasks.reserved_bytes > 0 {
                    format!(
                        "reserved {} -> {}; ",
                        format::bytes(fixed.reserved_bytes),
                        format::bytes(tasks.reserved_bytes)
                    )
                } else {
                    String::new()
                };
                Some(format!(
                    "{reserved}committed (peak RSS) {} -> {}",
                    format::bytes(fixed.peak_rss_bytes),
                    format::bytes(tasks.peak_rss_bytes)
                ))
            },
        ),
        row(
            measured,
            "throughput, virtual threads pinned by blocking (async tasks blocking their workers)",
            "the gain is gone (JDK 21)".into(),
            &|m| {
                let b = crate::pool::virtual_threads::blocking_figures(&m.summaries)?;
                Some(format!(
                    "capacity {:.0} -> {:.0} requests/s (timers -> blocking; workers / (wait + work) = {:.0})",
                    b.timers_per_s, b.blocking_per_s, b.predicted_per_s
                ))
            },
        ),
    ]
}
