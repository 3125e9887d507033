//! One machine's GC sweep cell by cell, and the best ratio at each thread count.

use crate::format;
use crate::gc::summary::{best_ratio_per_threads, over_default_ratio, over_one_thread, threads_text};
use crate::gc::{CellSummary, GcRatio, Row};
use crate::measured::Measured;
use crate::view::{Cell, Column, Table};

/// Every (threads, ratio) cell with throughput, its relatives, cycles, pauses, heap and lock waits.
pub(super) fn every_cell(machine: &Measured<'_, Row>, cells: &[CellSummary]) -> Table {
    let labels = [
        "ops/s",
        "interval",
        "x ratio 100",
        "x 1 thread, ratio 100",
        "cycles (all trials)",
        "cycles/s",
        "pause share",
        "longest pause (ms)",
        "stopping, share of pause",
        "peak heap",
        "refill lock wait, share of worker time",
        "CPU used",
    ];
    let mut columns = vec![Column::number("threads"), Column::text("ratio")];
    columns.extend(labels.iter().map(|label| Column::number(*label)));
    let ratio_cell = |ratio: Option<crate::stats::Ratio>| {
        ratio.map_or_else(Cell::missing, |r| Cell::from(format::ratio_with_interval(&r)))
    };
    let rows = cells
        .iter()
        .map(|c| {
            let oversubscribed = machine.logical_cpus.is_some_and(|cpus| c.threads > cpus as u64);
            vec![
                Cell::from(format!("{}{}", c.threads, if oversubscribed { "*" } else { "" })),
                Cell::from(c.ratio.to_string()),
                Cell::noisy(format::number(c.ops_per_sec.median), c.ops_per_sec.is_noisy()),
                Cell::from(format::interval(c.ops_per_sec.median_low, c.ops_per_sec.median_high)),
                ratio_cell(over_default_ratio(cells, c)),
                ratio_cell(over_one_thread(cells, c)),
                Cell::from(if c.too_few_cycles {
                    format!("{}: too few cycles to judge", c.cycles)
                } else {
                    c.cycles.to_string()
                }),
                Cell::from(format::number(c.cycles_per_sec.median)),
                Cell::from(format::percent(c.pause_share.median)),
                Cell::from(format::number(c.pause_max_ms)),
                Cell::from(format::percent(c.stop_share_of_pause)),
                Cell::from(format::bytes(c.peak_heap_bytes)),
                Cell::from(format::percent(c.refill_wait_share)),
                c.cpu_share.as_ref().map_or_else(Cell::missing, |share| Cell::from(format::percent(share.median))),
            ]
        })
        .collect();
    Table { id: "every-cell", caption: format!("Every cell: {}", machine.label), columns, rows }
}

/// "Best ratio per thread count: at 1 thread, 100 itself; at 2 threads, off (1.20x ...)."
pub(super) fn best_ratios(cells: &[CellSummary]) -> String {
    let parts: Vec<String> = best_ratio_per_threads(cells)
        .into_iter()
        .map(|best| {
            let at = threads_text(best.threads);
            if best.ratio == GcRatio::DEFAULT {
                return format!("at {at}, 100 itself");
            }
            let over = best
                .over_default
                .map_or(format::NOT_AVAILABLE.into(), |r| format!("{} ratio 100", format::ratio_with_interval(&r)));
            let noise = if best.beats_default { "" } else { ": not beyond the noise" };
            format!("at {at}, {} ({over}{noise})", best.ratio)
        })
        .collect();
    format!("Best ratio per thread count: {}.", parts.join("; "))
}
