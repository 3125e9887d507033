//! Every case of one machine as a table: latency over every arrival and per class, drops,
//! the waits downstream, the scheduler's view, capacity, memory.

use super::Summarised;
use crate::format;
use crate::pool::{format_ms, PoolSummary, Variant};
use crate::view::{Cell, Column, Table};

const NUMBERS: [&str; 20] = [
    "hits",
    "threads",
    "trials",
    "completed/s",
    "capacity/s",
    "p50",
    "p99",
    "p99 interval",
    "hit p99",
    "miss p99",
    "dropped",
    "switches per request",
    "run-queue delay",
    "lock wait",
    "db wait",
    "CPU used",
    "CPUs switching",
    "peak queue",
    "peak RSS",
    "reserved",
];

pub(super) fn table(m: &Summarised) -> Table {
    let mut columns = vec![Column::text("variant")];
    columns.extend(NUMBERS.iter().map(|label| Column::number(*label)));
    let rows = m.summaries.iter().map(row).collect();
    Table { id: "every-case", caption: format!("Every case: {}", m.label), columns, rows }
}

/// A latency, marked ">=" when drops recorded at the timeout make it a lower bound.
pub(super) fn bounded(ms: f64, lower_bound: bool) -> String {
    if lower_bound {
        format!(">= {}", format_ms(ms))
    } else {
        format_ms(ms)
    }
}

fn row(s: &PoolSummary) -> Vec<Cell> {
    let threads = match s.key.variant {
        Variant::Split => format!("{} + {} db", s.key.pool_threads, s.key.db_connections),
        Variant::Async | Variant::AsyncBlocking => format!("{} workers", s.key.pool_threads),
        Variant::Fixed => s.key.pool_threads.to_string(),
    };
    vec![
        Cell::from(s.key.variant.name()),
        Cell::from(format::percent(s.key.hit_rate)),
        Cell::from(threads),
        Cell::from(s.trials.to_string()),
        Cell::from(format!("{:.0}", s.completed_per_s.median)),
        Cell::from(format!("{:.0}", s.capacity_per_s.median)),
        Cell::from(format_ms(s.p50_ms.median)),
        Cell::noisy(bounded(s.p99_ms.median, s.p99_lower_bound), s.p99_ms.is_noisy()),
        Cell::from(format::interval(s.p99_ms.median_low, s.p99_ms.median_high)),
        Cell::from(bounded(s.hit_p99_ms.median, s.hit_p99_lower_bound)),
        Cell::from(bounded(s.miss_p99_ms.median, s.miss_p99_lower_bound)),
        Cell::from(format::percent(s.dropped_share)),
        usage(s, format!("{:.1}", s.switches_per_request.median)),
        s.run_delay_ms.as_ref().map_or_else(Cell::missing, |delay| Cell::from(format_ms(delay.median))),
        Cell::from(format_ms(s.lock_wait_ms.median)),
        Cell::from(format_ms(s.db_wait_ms.median)),
        usage(s, format::percent(s.cpu_share.median)),
        usage(s, format!("{:.3}", s.switching_cpus)),
        Cell::from(s.peak_queue.to_string()),
        if s.peak_rss_bytes == 0 { Cell::missing() } else { Cell::from(format::bytes(s.peak_rss_bytes)) },
        if s.reserved_bytes == 0 { Cell::missing() } else { Cell::from(format::bytes(s.reserved_bytes)) },
    ]
}

/// A figure from the process's CPU time or switches, or missing where the OS counted none.
fn usage(s: &PoolSummary, figure: String) -> Cell {
    if s.usage_measured() {
        Cell::from(figure)
    } else {
        Cell::missing()
    }
}
