//! Where a sweep's counters land in cache lines: arithmetic on addresses, no measurement,
//! for the notebook to set beside what the sweep measures.

use crate::view::{Cell, Column, Table};

/// Where `threads` counters `stride_bytes` apart land in `line_bytes`-byte cache lines,
/// counting from a line boundary (the sweep's arena is page-aligned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub stride_bytes: u64,
    /// From the first counter's first byte to the last counter's last byte.
    pub span_bytes: u64,
    pub lines_touched: u64,
    /// The most counters sharing one line: the cores that fight over it.
    pub most_counters_per_line: u64,
}

pub fn layout(threads: u64, stride_bytes: u64, line_bytes: u64) -> Layout {
    // Counters sit at rising offsets, so each line's counters are one run: count the runs.
    let line_of = |slot: u64| slot.saturating_mul(stride_bytes) / line_bytes.max(1);
    let (mut lines_touched, mut most, mut run) = (0u64, 0u64, 0u64);
    for slot in 0..threads {
        if slot == 0 || line_of(slot) != line_of(slot - 1) {
            lines_touched += 1;
            run = 0;
        }
        run += 1;
        most = most.max(run);
    }
    Layout {
        stride_bytes,
        span_bytes: threads.saturating_sub(1).saturating_mul(stride_bytes).saturating_add(8),
        lines_touched,
        most_counters_per_line: most,
    }
}

/// The layouts of a sweep as a table: no measurement, just arithmetic on addresses.
pub fn layout_table(threads: u64, strides_bytes: &[u64], line_bytes: u64) -> Table {
    let rows = strides_bytes
        .iter()
        .map(|&stride| {
            let l = layout(threads, stride, line_bytes);
            [l.stride_bytes, l.span_bytes, l.lines_touched, l.most_counters_per_line]
                .iter()
                .map(|value| Cell::from(value.to_string()))
                .collect()
        })
        .collect();
    Table {
        id: "layout",
        caption: format!("Where {threads} counters land in {line_bytes}-byte cache lines"),
        columns: vec![
            Column::number("stride (bytes)"),
            Column::number("bytes spanned"),
            Column::number(format!("{line_bytes}-byte lines touched")),
            Column::number("most counters in one line"),
        ],
        rows,
    }
}
