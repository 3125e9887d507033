//! Summaries per layout, speed and memory against the compact array, and the sentences the
//! data supports. An effect is claimed only when the layouts have enough trials
//! ([`crate::evidence`]) and a ratio's interval lies wholly on one side of 1.

use serde::{Deserialize, Serialize};

use super::{Layout, Part, Row};
use crate::evidence::{self, Evidence};
use crate::format::format_count;
use crate::format::{describe_ratio, ratio_and_interval};
use crate::stats::{Ratio, Summary};
use crate::verdict::{then_what_may_hide_it, Verdict};

/// How many counters the memory extrapolation assumes (the article: one sharded counter
/// per connection, 100 000 connections).
pub const EXTRAPOLATED_COUNTERS: u64 = 100_000;

/// The trials of one layout, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayoutSummary {
    pub layout: Layout,
    pub threads: u64,
    pub cells: u64,
    pub bytes_used: u64,
    pub increments_per_write: u64,
    /// Elapsed time per trial, in milliseconds (each layout's trial is sized on its own:
    /// compare layouts by [`LayoutSummary::ns_per_increment`]).
    pub elapsed_ms: Summary,
    pub ns_per_increment: Summary,
    pub all_pinned: bool,
    /// The compact array's time per add over this layout's: how many times faster this
    /// layout is (`None` for the compact array itself and when it was not measured).
    pub faster_than_compact: Option<Ratio>,
    /// This layout's bytes over the compact array's.
    pub memory_vs_compact: Option<f64>,
    /// Bytes for [`EXTRAPOLATED_COUNTERS`] counters of this layout.
    pub bytes_for_extrapolated_counters: u64,
    /// Trials, coverage and budget cuts behind this layout's figures.
    pub evidence: Evidence,
}

/// Groups the layouts' rows (not the shard-count sweep's, see
/// [`super::summarize_shards`]) by layout, in [`Layout::ALL`] order; layouts without rows
/// are left out.
pub fn summarize(rows: &[Row]) -> Vec<LayoutSummary> {
    let mut summaries: Vec<LayoutSummary> = Layout::ALL
        .iter()
        .filter_map(|&layout| {
            let group: Vec<&Row> =
                rows.iter().filter(|row| row.part == Part::Layouts && row.layout == layout).collect();
            let elapsed: Vec<f64> = group.iter().map(|row| row.elapsed_ns as f64 / 1e6).collect();
            let per_increment: Vec<f64> = group.iter().map(|row| row.ns_per_increment).collect();
            let first = group.first()?;
            let elapsed_ms = Summary::of(&elapsed)?;
            let planned = group.iter().map(|row| row.trials_planned).max().unwrap_or(0);
            Some(LayoutSummary {
                layout,
                threads: first.threads,
                cells: first.cells,
                bytes_used: first.bytes_used,
                increments_per_write: first.increments_per_write,
                evidence: Evidence::of(&elapsed_ms, planned),
                elapsed_ms,
                ns_per_increment: Summary::of(&per_increment)?,
                all_pinned: group.iter().all(|row| row.pinned),
                faster_than_compact: None,
                memory_vs_compact: None,
                bytes_for_extrapolated_counters: first.bytes_used * EXTRAPOLATED_COUNTERS,
            })
        })
        .collect();
    if let Some(compact) = summaries.iter().find(|s| s.layout == Layout::Compact).cloned() {
        for summary in &mut summaries {
            summary.faster_than_compact = (summary.layout != Layout::Compact)
                .then(|| Ratio::between(&compact.ns_per_increment, &summary.ns_per_increment));
            summary.memory_vs_compact = Some(summary.bytes_used as f64 / compact.bytes_used as f64);
        }
    }
    summaries
}

/// "25.6 MB", "1.6 MB", "800 kB", "64 B" (decimal units, as the article's "6.4 MB").
pub fn format_bytes(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{} kB", one_decimal(bytes as f64 / 1e3)),
        _ => format!("{} MB", one_decimal(bytes as f64 / 1e6)),
    }
}

/// "1.6", "800", "25.6": one decimal, none when it is zero.
fn one_decimal(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

fn find(summaries: &[LayoutSummary], layout: Layout) -> Option<&LayoutSummary> {
    summaries.iter().find(|s| s.layout == layout)
}

/// The article's comparison on this machine: padded shards against the compact array,
/// speed and memory.
pub fn headline(summaries: &[LayoutSummary], verdict: Option<&Verdict>) -> String {
    let (Some(compact), Some(padded)) = (find(summaries, Layout::Compact), find(summaries, Layout::CachePadded)) else {
        return "The counter layouts were not measured.".into();
    };
    let shards = compact.cells;
    let memory = format!(
        "{:.0}x the memory ({} instead of {}; at {} such counters, {} instead of {})",
        padded.bytes_used as f64 / compact.bytes_used as f64,
        format_bytes(padded.bytes_used),
        format_bytes(compact.bytes_used),
        format_count(EXTRAPOLATED_COUNTERS),
        format_bytes(padded.bytes_for_extrapolated_counters),
        format_bytes(compact.bytes_for_extrapolated_counters),
    );
    let pad = padded.bytes_used / shards.max(1);
    if let (2.., Err(short)) = (shards, evidence::check([&compact.ns_per_increment, &padded.ns_per_increment])) {
        return format!("Nothing is claimed about padding's speed: {short}. Padding costs {memory}.");
    }
    match padded.faster_than_compact {
        _ if shards < 2 => format!(
            "With one thread nothing is shared, so padding can only cost memory: {memory}. Run with 2 or more threads."
        ),
        Some(ratio) if ratio.clearly_above_one() => format!(
            "Padding each of the {shards} shards to {pad} bytes made the counter faster than the compact array by {}, \
             for {memory}.",
            describe_ratio(&ratio)
        ),
        Some(ratio) => then_what_may_hide_it(
            format!(
                "Padding each of the {shards} shards to {pad} bytes did not make the counter measurably faster than \
                 the compact array (compact's time per add over padded's: {}), yet costs {memory}.",
                ratio_and_interval(&ratio)
            ),
            verdict,
        ),
        None => "The compact array was not measured.".into(),
    }
}

/// The headline, then 64- against 128-byte padding, then each fix against one shared atomic.
pub fn finding(summaries: &[LayoutSummary], verdict: Option<&Verdict>) -> String {
    let mut sentences = vec![headline(summaries, verdict)];
    if evidence::check(summaries.iter().map(|summary| &summary.ns_per_increment)).is_err() {
        return sentences.join(" ");
    }
    if let (Some(p64), Some(p128)) = (find(summaries, Layout::Padded64), find(summaries, Layout::CachePadded)) {
        let ratio = Ratio::between(&p64.ns_per_increment, &p128.ns_per_increment);
        let pad = p128.bytes_used / p128.cells.max(1);
        sentences.push(if ratio.clearly_above_one() {
            format!(
                "64-byte padding still took {} as long as {pad}-byte padding: neighbouring 64-byte lines still \
                 interfere here.",
                describe_ratio(&ratio)
            )
        } else if ratio.clearly_below_one() {
            format!("64-byte padding took {} of the time of {pad}-byte padding.", describe_ratio(&ratio))
        } else {
            format!(
                "64-byte and {pad}-byte padding could not be told apart (time ratio {}).",
                ratio_and_interval(&ratio)
            )
        });
    }
    if let Some(shared) = find(summaries, Layout::SharedAtomic) {
        let versus: Vec<String> = [Layout::Mutex, Layout::Striped, Layout::LocalFlush]
            .iter()
            .filter_map(|&layout| find(summaries, layout))
            .map(|other| against(other, &Ratio::between(&shared.ns_per_increment, &other.ns_per_increment)))
            .collect();
        if !versus.is_empty() {
            sentences.push(format!(
                "Against one shared atomic (its time per add over each layout's): {}.",
                versus.join("; ")
            ));
        }
    }
    sentences.join(" ")
}

/// "striped 3.10x (interval 2.90x to 3.30x), faster", or slower, or not measurably different.
fn against(other: &LayoutSummary, shared_over_other: &Ratio) -> String {
    let verdict = if shared_over_other.clearly_above_one() {
        "faster"
    } else if shared_over_other.clearly_below_one() {
        "slower"
    } else {
        "not measurably different"
    };
    format!("{} {}, {verdict}", other.layout.short_label(), describe_ratio(shared_over_other))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_formatted_in_decimal_units() {
        assert_eq!(format_bytes(64), "64 B");
        assert_eq!(format_bytes(1_600), "1.6 kB");
        assert_eq!(format_bytes(800_000), "800 kB");
        assert_eq!(format_bytes(6_400_000), "6.4 MB");
        assert_eq!(format_bytes(102_400_000), "102.4 MB");
    }

    #[test]
    fn counts_are_grouped_in_threes() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1_000), "1 000");
        assert_eq!(format_count(100_000), "100 000");
        assert_eq!(format_count(12_345_678), "12 345 678");
    }
}
