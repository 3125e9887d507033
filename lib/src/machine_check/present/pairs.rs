//! The core-to-core latency as the machine's section shows it: the heatmap and each pair's
//! medians by both methods.

use crate::c2c::chart::c2c_heatmap;
use crate::c2c::PairSummary;
use crate::evidence::Evidence;
use crate::format;
use crate::view::{Cell, Column, Figure, NotDrawn, Table};

/// Above this many pairs the table is left out: the heatmap shows them all.
pub(super) const MAX_PAIRS_IN_TABLE: usize = 28;

/// The latency matrix; the text stand-in lists each pair's median.
pub fn c2c_figure(label: &str, pairs: &[PairSummary]) -> Result<Figure, NotDrawn> {
    let medians: Vec<String> = pairs
        .iter()
        .map(|pair| format!("CPUs {}-{}: {} ns", pair.cpu_a, pair.cpu_b, format::number(pair.one_way_ns.median)))
        .collect();
    let unpinned = pairs.iter().any(|pair| pair.unpinned);
    let method = if unpinned { "unpinned, " } else { "" };
    let title = format!("core-to-core latency, {method}{label}");
    let svg = c2c_heatmap(&format!("One-way latency (ns), {method}{label}"), pairs)
        .map_err(|error| NotDrawn::new(&title, error))?;
    let grey = if unpinned {
        "grey was never seen (the scheduler never ran the two threads on that pair; unpinned, each sample read \
         both threads' CPUs and one where a thread moved was dropped)"
    } else {
        "grey was not measured (time budget)"
    };
    Ok(Figure {
        id: "c2c-heatmap",
        title,
        svg,
        legend: Vec::new(),
        caption: format!(
            "Median one-way latency per pair of logical CPUs in nanoseconds, by handshake (a load, then a store); \
             darker is slower, {grey}."
        ),
        text: format!("One-way latency per pair: {}", medians.join(", ")),
    })
}

/// "0 and 1", with the cores' kinds where known ("0 and 4 (P-E)") and "unpinned" where the
/// scheduler placed the threads.
fn pair_name(pair: &PairSummary) -> String {
    let notes: Vec<&str> = [pair.kinds.as_str(), if pair.unpinned { "unpinned" } else { "" }]
        .into_iter()
        .filter(|n| !n.is_empty())
        .collect();
    let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join(", ")) };
    format!("{} and {}{notes}", pair.cpu_a, pair.cpu_b)
}

/// Each pair's median and interval by each method, and what the handshake's stands on:
/// samples against `samples_planned` (unknown: the samples taken), coverage and outliers.
pub(super) fn pairs_table(label: &str, pairs: &[PairSummary], samples_planned: Option<u64>) -> Table {
    let rows = pairs
        .iter()
        .take(MAX_PAIRS_IN_TABLE)
        .map(|pair| {
            let ns = &pair.one_way_ns;
            let (cas_median, cas_interval) = match &pair.cas_one_way_ns {
                Some(cas) => (
                    Cell::noisy(format::number(cas.median), cas.is_noisy()),
                    Cell::from(format::interval(cas.median_low, cas.median_high)),
                ),
                None => (Cell::from("not measured"), Cell::from("not measured")),
            };
            vec![
                Cell::from(pair_name(pair)),
                cas_median,
                cas_interval,
                Cell::noisy(format::number(ns.median), ns.is_noisy()),
                Cell::from(format::interval(ns.median_low, ns.median_high)),
                Cell::evidence(&Evidence::of(ns, samples_planned.unwrap_or(ns.samples as u64)), ns),
            ]
        })
        .collect();
    Table {
        id: "c2c-pairs",
        caption: format!(
            "Core-to-core latency, one way: {label}. Compare-and-swap ping-pong (each hop takes the line exclusive \
             in one transfer, as the standard tools measure it) and handshake (each hop a load, then a store: a \
             shared read, then an upgrade); the verdict and the heatmap read the handshake"
        ),
        columns: vec![
            Column::text("CPUs"),
            Column::number("CAS ping-pong median (ns)"),
            Column::number("CAS ping-pong interval (ns)"),
            Column::number("handshake median (ns)"),
            Column::number("handshake interval (ns)"),
            Column::number("evidence"),
        ],
        rows,
    }
}
