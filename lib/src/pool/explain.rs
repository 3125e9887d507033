//! Why big pools hurt here, or did not: the article's incident pool (40 per CPU) against its
//! fix (8 per CPU), or the largest pool against the smallest, at the first hit rate, with
//! every cost the article blames read from this run's rows. Each sentence is computed from
//! the summaries; a cost counts as having risen only when the trial intervals separate.

use super::finding::{change, MIN_TRIALS_FOR_CLAIM};
use super::summary::{format_ms, PoolSummary};
use super::Variant;
use crate::format::upper_first;
use crate::stats::{Ratio, Summary};

/// How the big pool compared with the small one on one measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Higher,
    Lower,
    /// Too few trials, or the intervals overlap.
    Unclear,
}

fn direction(small: &PoolSummary, large: &PoolSummary, a: &Summary, b: &Summary) -> Direction {
    if small.trials.min(large.trials) < MIN_TRIALS_FOR_CLAIM {
        return Direction::Unclear;
    }
    let ratio = Ratio::between(b, a);
    if ratio.clearly_above_one() && !a.overlaps(b) {
        Direction::Higher
    } else if ratio.clearly_below_one() && !a.overlaps(b) {
        Direction::Lower
    } else {
        Direction::Unclear
    }
}

/// The two fixed pools the explanation sets side by side: small first.
pub fn compared_pools(summaries: &[PoolSummary]) -> Option<(&PoolSummary, &PoolSummary)> {
    let hit = summaries.first()?.key.hit_rate;
    let fixed: Vec<&PoolSummary> =
        summaries.iter().filter(|s| s.key.variant == Variant::Fixed && s.key.hit_rate == hit).collect();
    let per_cpu = |n: u64| fixed.iter().copied().find(|s| s.key.pool_threads == n * s.cpus);
    let small = per_cpu(8).or_else(|| fixed.first().copied())?;
    let large = per_cpu(40).or_else(|| fixed.last().copied())?;
    (small.key != large.key).then_some((small, large))
}

/// The costs a big pool is blamed for, each with how it moved from the small pool to the big.
fn costs(small: &PoolSummary, large: &PoolSummary) -> Vec<(&'static str, Direction, String)> {
    let mut costs = Vec::new();
    let mut add = |what: &'static str, pick: fn(&PoolSummary) -> Option<&Summary>, show: fn(f64) -> String| {
        if let (Some(a), Some(b)) = (pick(small), pick(large)) {
            let moved = change(small, large, pick, show).unwrap_or_default();
            costs.push((what, direction(small, large, a, b), format!("{what} {moved}")));
        }
    };
    add(
        "context switches per request",
        |s| s.usage_measured().then_some(&s.switches_per_request),
        |v| format!("{v:.1}"),
    );
    add("run-queue delay per request", |s| s.run_delay_ms.as_ref(), format_ms);
    add("the wait for the shared lock", |s| Some(&s.lock_wait_ms), format_ms);
    add("a miss's wait for a database connection", |s| Some(&s.db_wait_ms), format_ms);
    costs
}

/// Sentences: whether the big pool's p99 was worse, which costs rose with it, and how the
/// fast class fared (head-of-line blocking behind slow misses).
pub fn why_big_pools(summaries: &[PoolSummary]) -> Vec<String> {
    let Some((small, large)) = compared_pools(summaries) else { return Vec::new() };
    let verdict = match direction(small, large, &small.p99_ms, &large.p99_ms) {
        Direction::Higher => "hurt",
        Direction::Lower => "did better",
        Direction::Unclear => "could not be told apart from the small one",
    };
    let mut sentences = vec![format!(
        "Here the big pool ({}) {verdict}: p99 {} against {} at {}.",
        large.label(),
        format_ms(large.p99_ms.median),
        format_ms(small.p99_ms.median),
        small.label()
    )];
    let costs = costs(small, large);
    let rose: Vec<&str> = costs.iter().filter(|c| c.1 == Direction::Higher).map(|c| c.0).collect();
    sentences.push(if rose.is_empty() && large.usage_measured() {
        format!(
            "None of the costs the article blames rose clearly with the pool: at {:.0}% of the CPUs busy the big \
             pool rarely had many threads runnable at once (at most {} requests waited for a thread).",
            large.cpu_share.median * 100.0,
            large.peak_queue
        )
    } else if rose.is_empty() {
        format!(
            "None of the costs measured here rose clearly with the pool (at most {} requests waited for a thread; \
             this OS counted no CPU time or switches).",
            large.peak_queue
        )
    } else {
        format!("With the big pool, {} rose clearly.", rose.join(", "))
    });
    sentences.extend(costs.into_iter().map(|(_, _, text)| upper_first(&text) + "."));
    let hits = change(small, large, |s| Some(&s.hit_p99_ms), format_ms).unwrap_or_default();
    sentences.push(format!(
        "The fast class: p99 of cache hits {hits}; a pool too small for the slow misses makes hits queue behind \
         them, a pool too big makes them share the CPUs and the lock with every runnable thread."
    ));
    sentences
}
