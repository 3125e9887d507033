//! Thread-pool sizing in a notebook: every case (fixed pools by size, the split pools,
//! async tasks) as a table, and the report's latency and context-switch charts.

use super::machine::human_bytes;
use super::{figure, format_number, table, Rich};
use crate::chart::pool_latency::{fixed_series, pool_latency_chart, LatencyLines, Marker};
use crate::chart::pool_switches::{pool_switches_chart, SwitchLines};
use crate::chart::ChartError;
use crate::pool::{PoolSummary, Variant};

/// How many threads a case ran: "21", "10 + 24 db", "2 workers".
fn threads_text(s: &PoolSummary) -> String {
    match s.key.variant {
        Variant::Fixed => s.key.pool_threads.to_string(),
        Variant::Split => format!("{} + {} db", s.key.pool_threads, s.key.db_connections),
        Variant::Async => format!("{} workers", s.key.pool_threads),
    }
}

/// One row per case: throughput, latency percentiles, context switches, CPU, drops, memory.
pub fn cases_table(summaries: &[PoolSummary]) -> Rich {
    let rows: Vec<Vec<String>> = summaries
        .iter()
        .map(|s| {
            vec![
                s.key.variant.name().to_string(),
                format!("{:.0}%", s.key.hit_rate * 100.0),
                threads_text(s),
                format!("{:.0}", s.completed_per_s.median),
                format_number(s.p50_ms.median),
                format_number(s.p99_ms.median),
                format!("{}..{}", format_number(s.p99_ms.median_low), format_number(s.p99_ms.median_high)),
                format_number(s.p999_ms.median),
                format!("{:.0} / {:.0}", s.voluntary_per_s.median, s.involuntary_per_s.median),
                format!("{:.0}%", s.cpu_share.median * 100.0),
                format!("{:.1}%", s.dropped_share * 100.0),
                human_bytes(s.peak_rss_bytes),
            ]
        })
        .collect();
    table(
        &[
            "variant",
            "hits",
            "threads",
            "completed/s",
            "p50 (ms)",
            "p99 (ms)",
            "p99 interval",
            "p99.9 (ms)",
            "switches/s (vol / invol)",
            "CPU busy",
            "dropped",
            "peak memory",
        ],
        &rows,
    )
}

fn first_hit(summaries: &[PoolSummary]) -> f64 {
    summaries.first().map_or(0.0, |s| s.key.hit_rate)
}

fn formula_marker(summaries: &[PoolSummary]) -> Vec<Marker> {
    summaries
        .first()
        .map(|s| Marker { label: format!("formula: {}", s.formula_threads), value: s.formula_threads as f64 })
        .into_iter()
        .collect()
}

/// p50 and p99 against fixed-pool size at the first hit rate, the formula's size marked,
/// the split and async variants' p99 as levels.
pub fn latency_chart(summaries: &[PoolSummary]) -> Result<Rich, ChartError> {
    let hit = first_hit(summaries);
    let lines = [LatencyLines {
        p99: fixed_series("p99", summaries, hit, |s| &s.p99_ms),
        p50: fixed_series("p50", summaries, hit, |s| &s.p50_ms),
    }];
    let levels: Vec<Marker> = summaries
        .iter()
        .filter(|s| s.key.variant != Variant::Fixed && s.key.hit_rate == hit)
        .map(|s| Marker { label: format!("{} p99", s.key.variant.name()), value: s.p99_ms.median })
        .collect();
    let title = format!("Latency against pool size at {:.0}% hits", hit * 100.0);
    let svg = pool_latency_chart(&title, &lines, &formula_marker(summaries), &levels)?;
    let points: Vec<String> = summaries
        .iter()
        .filter(|s| s.key.hit_rate == hit)
        .map(|s| format!("{}: p99 {} ms", s.label(), format_number(s.p99_ms.median)))
        .collect();
    Ok(figure(
        &svg,
        "p99 (solid) and p50 (dashed) latency against the fixed pool's size (log scales)",
        &format!("median p99 per case: {}", points.join(", ")),
    ))
}

/// Voluntary and involuntary context switches, and completed requests, against pool size.
pub fn switches_chart(summaries: &[PoolSummary]) -> Result<Rich, ChartError> {
    let hit = first_hit(summaries);
    let lines = [SwitchLines {
        voluntary: fixed_series("voluntary", summaries, hit, |s| &s.voluntary_per_s),
        involuntary: fixed_series("involuntary", summaries, hit, |s| &s.involuntary_per_s),
        throughput: fixed_series("completed", summaries, hit, |s| &s.completed_per_s),
        offered_per_s: summaries.first().map_or(0.0, |s| s.offered_rate_per_s),
    }];
    let title = format!("Context switches and throughput at {:.0}% hits", hit * 100.0);
    let svg = pool_switches_chart(&title, &lines, &formula_marker(summaries))?;
    let points: Vec<String> = summaries
        .iter()
        .filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == hit)
        .map(|s| format!("N={}: {:.0} switches/s", s.key.pool_threads, s.switches_per_s.median))
        .collect();
    Ok(figure(
        &svg,
        "Context switches per second (above) and completed requests per second (below) against pool size",
        &format!("median switches per second: {}", points.join(", ")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::CaseKey;
    use crate::stats::Summary;

    fn summary(variant: Variant, pool_threads: u64, p99_ms: f64) -> PoolSummary {
        let around = |value: f64| Summary::of(&[value * 0.9, value, value * 1.1]).unwrap();
        PoolSummary {
            key: CaseKey { variant, hit_rate: 0.92, pool_threads, db_connections: 4 },
            trials: 3,
            cpus: 2,
            formula_threads: 64,
            mean_wait_ms: 6.3,
            cpu_work_ms: 0.5,
            offered_rate_per_s: 3200.0,
            completed_per_s: around(3000.0),
            p50_ms: around(2.0),
            p99_ms: around(p99_ms),
            p999_ms: around(p99_ms * 2.0),
            switches_per_s: around(12000.0),
            voluntary_per_s: around(10000.0),
            involuntary_per_s: around(2000.0),
            cpu_share: around(0.5),
            switching_cpus: 0.04,
            dropped_share: 0.01,
            peak_queue: 10,
            peak_rss_bytes: 3 << 20,
            switch_cost_ns: 3000.0,
        }
    }

    fn summaries() -> Vec<PoolSummary> {
        vec![
            summary(Variant::Fixed, 3, 400.0),
            summary(Variant::Fixed, 64, 90.0),
            summary(Variant::Fixed, 80, 120.0),
            summary(Variant::Split, 3, 85.0),
        ]
    }

    #[test]
    fn table_has_one_row_per_case() {
        let rich = cases_table(&summaries());
        let lines: Vec<&str> = rich.plain.lines().collect();
        assert_eq!(lines.len(), 2 + 4);
        assert!(lines[2].starts_with("fixed") && lines[2].contains("400") && lines[2].contains("1.0%"), "{}", lines[2]);
        assert!(lines[5].contains("3 + 4 db"), "{}", lines[5]);
        assert!(lines[5].trim_end().ends_with("3 MiB"), "{}", lines[5]);
    }

    #[test]
    fn charts_are_images_with_text_fallbacks() {
        let latency = latency_chart(&summaries()).unwrap();
        assert!(latency.html.contains("data:image/svg+xml;base64,"));
        assert!(latency.plain.ends_with("N=80: p99 120 ms, the split pools (3+4): p99 85.0 ms"), "{}", latency.plain);
        let switches = switches_chart(&summaries()).unwrap();
        assert!(switches.plain.ends_with("N=80: 12000 switches/s"), "{}", switches.plain);
    }
}
