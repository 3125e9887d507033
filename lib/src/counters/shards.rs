//! The shard-count sweep (article A's first wrong turn: "2 to 64 shards changed nothing"):
//! the compact and the cache-padded array at each shard count, the same threads, summarised
//! per layout and count, and the sentences the data supports. Worker `i` writes shard
//! `i mod shards`, as the article's goroutine `i` wrote shard `i`: with at least as many
//! shards as threads the extra shards are never written, so what the threads fight over
//! cannot change with the count.

use serde::{Deserialize, Serialize};

use super::{Layout, Part, Row};
use crate::evidence::{self, Evidence};
use crate::format::ratio_and_interval;
use crate::stats::{Ratio, Summary};

/// The layouts the sweep runs: the article's compact array and its fix.
pub const SHARD_SWEEP_LAYOUTS: [Layout; 2] = [Layout::Compact, Layout::CachePadded];

/// The trials of one layout at one shard count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardSummary {
    pub layout: Layout,
    pub shards: u64,
    pub threads: u64,
    pub bytes_used: u64,
    pub ns_per_increment: Summary,
    /// For the padded array: the compact array's time per add at the same shard count over
    /// this one's (how many times faster padding is there); `None` for the compact array.
    pub padded_faster: Option<Ratio>,
    pub evidence: Evidence,
}

/// The sweep's rows summarised by layout (compact first), then by shard count (ascending).
pub fn summarize_shards(rows: &[Row]) -> Vec<ShardSummary> {
    let sweep: Vec<&Row> = rows.iter().filter(|row| row.part == Part::ShardSweep).collect();
    let mut counts: Vec<u64> = sweep.iter().map(|row| row.cells).collect();
    counts.sort_unstable();
    counts.dedup();
    let mut summaries: Vec<ShardSummary> = SHARD_SWEEP_LAYOUTS
        .iter()
        .flat_map(|&layout| counts.iter().map(move |&shards| (layout, shards)))
        .filter_map(|(layout, shards)| {
            let group: Vec<&&Row> = sweep.iter().filter(|row| row.layout == layout && row.cells == shards).collect();
            let first = group.first()?;
            let per_add: Vec<f64> = group.iter().map(|row| row.ns_per_increment).collect();
            let ns_per_increment = Summary::of(&per_add)?;
            let planned = group.iter().map(|row| row.trials_planned).max().unwrap_or(0);
            Some(ShardSummary {
                layout,
                shards,
                threads: first.threads,
                bytes_used: first.bytes_used,
                evidence: Evidence::of(&ns_per_increment, planned),
                ns_per_increment,
                padded_faster: None,
            })
        })
        .collect();
    let compact: Vec<ShardSummary> = summaries.iter().filter(|s| s.layout == Layout::Compact).cloned().collect();
    for summary in summaries.iter_mut().filter(|s| s.layout != Layout::Compact) {
        summary.padded_faster = compact
            .iter()
            .find(|c| c.shards == summary.shards)
            .map(|c| Ratio::between(&c.ns_per_increment, &summary.ns_per_increment));
    }
    summaries
}

/// What the sweep showed, in a few sentences; `None` when it was not run.
pub fn shard_finding(summaries: &[ShardSummary]) -> Option<String> {
    let first = summaries.first()?;
    let (low, high) = summaries.iter().fold((u64::MAX, 0), |(l, h), s| (l.min(s.shards), h.max(s.shards)));
    if let Err(short) = evidence::check(summaries.iter().map(|s| &s.ns_per_increment)) {
        return Some(format!("The shard-count sweep ({low} to {high} shards) claims nothing: {short}."));
    }
    if first.threads < 2 {
        return Some(
            "With one thread no shard is shared: the shard count cannot matter. Run with 2 or more threads.".into(),
        );
    }
    let mut sentences = vec![format!(
        "The shard-count sweep ({} threads, {low} to {high} shards; thread i writes shard i, so shards past the \
         thread count are never written):",
        first.threads
    )];
    let lines: Vec<String> =
        SHARD_SWEEP_LAYOUTS.iter().filter_map(|&layout| line_sentence(summaries, layout)).collect();
    sentences.push(lines.join("; ") + ".");
    sentences.extend(padding_sentence(summaries));
    Some(sentences.join(" "))
}

/// How much the shard count moved one layout's time per add: its slowest shard count's time
/// over its fastest one's (a dependence only when the interval lies above 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShardDependence {
    pub slowest_shards: u64,
    pub fastest_shards: u64,
    pub slowest_over_fastest: Ratio,
}

/// `layout`'s [`ShardDependence`] in the sweep; `None` with fewer than two shard counts.
pub fn shard_dependence(summaries: &[ShardSummary], layout: Layout) -> Option<ShardDependence> {
    let line: Vec<&ShardSummary> = summaries.iter().filter(|s| s.layout == layout).collect();
    let by_median =
        |a: &&&ShardSummary, b: &&&ShardSummary| a.ns_per_increment.median.total_cmp(&b.ns_per_increment.median);
    let (slowest, fastest) = (line.iter().max_by(by_median)?, line.iter().min_by(by_median)?);
    (line.len() >= 2).then(|| ShardDependence {
        slowest_shards: slowest.shards,
        fastest_shards: fastest.shards,
        slowest_over_fastest: Ratio::between(&slowest.ns_per_increment, &fastest.ns_per_increment),
    })
}

/// Whether `layout`'s time per add depended on the shard count: its slowest count against
/// its fastest, a dependence claimed only when their intervals do not overlap.
fn line_sentence(summaries: &[ShardSummary], layout: Layout) -> Option<String> {
    let name = match layout {
        Layout::Compact => "the compact array",
        _ => "the padded array",
    };
    let Some(dependence) = shard_dependence(summaries, layout) else {
        let ran = summaries.iter().any(|s| s.layout == layout);
        return ran.then(|| format!("{name} ran at one shard count only"));
    };
    let (ratio, slowest, fastest) =
        (dependence.slowest_over_fastest, dependence.slowest_shards, dependence.fastest_shards);
    Some(if ratio.clearly_above_one() {
        format!(
            "{name}'s time per add changed with the shard count ({slowest} shards took {} as long as {fastest} \
             shards)",
            ratio_and_interval(&ratio)
        )
    } else {
        format!(
            "{name}'s time per add did not depend on the shard count (slowest over fastest {})",
            ratio_and_interval(&ratio)
        )
    })
}

/// At how many shard counts padding was measurably faster than the compact array.
fn padding_sentence(summaries: &[ShardSummary]) -> Option<String> {
    let ratios: Vec<(u64, Ratio)> = summaries.iter().filter_map(|s| Some((s.shards, s.padded_faster?))).collect();
    if ratios.is_empty() {
        return None;
    }
    let faster = ratios.iter().filter(|(_, ratio)| ratio.clearly_above_one()).count();
    let (least, most) =
        ratios.iter().fold((f64::INFINITY, 0.0f64), |(l, h), (_, ratio)| (l.min(ratio.value), h.max(ratio.value)));
    let span = format!("the compact array's time per add over the padded one's {least:.2}x to {most:.2}x");
    Some(if faster == ratios.len() {
        format!(
            "Padding was measurably faster at every shard count ({span}): compact shards share lines whatever \
             their number, so adding shards is no fix."
        )
    } else if faster == 0 {
        format!("Padding was not measurably faster at any shard count ({span}).")
    } else {
        format!("Padding was measurably faster at {faster} of {} shard counts ({span}).", ratios.len())
    })
}
