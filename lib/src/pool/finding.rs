//! Sentences the data supports, for the report and the notebooks. A difference is claimed
//! only when both cases have at least [`MIN_TRIALS_FOR_CLAIM`] trials and their intervals do
//! not overlap; otherwise the sentence says the cases could not be told apart. Percentiles
//! cover every arrival, drops counted at the timeout; a percentile that reached the timeout
//! is a lower bound and is said to be one.

use super::formula::{
    article_path_wait_ms, goetz_threads, rounded, ARTICLE_COMPUTE_MS, ARTICLE_HIT_RATE, ARTICLE_WAIT_MS,
};
use super::summary::{format_ms, PoolSummary};
use super::Variant;
use crate::stats::{Ratio, Summary};

/// Fewer trials than this give intervals too wide (or too weak) to claim a difference.
pub const MIN_TRIALS_FOR_CLAIM: usize = 3;

/// The headline: the largest fixed pool's p99 against the article's fix (8 per CPU) or the
/// best other pool's, or why not.
pub fn finding(summaries: &[PoolSummary]) -> String {
    findings(summaries).into_iter().next().unwrap_or_else(|| "The pool experiment was not measured.".into())
}

/// Every sentence the data supports, headline first, for the first hit rate of the run.
pub fn findings(summaries: &[PoolSummary]) -> Vec<String> {
    let Some(first_hit) = summaries.first().map(|s| s.key.hit_rate) else { return Vec::new() };
    let at_hit = |variant: Variant| -> Vec<&PoolSummary> {
        summaries.iter().filter(|s| s.key.variant == variant && s.key.hit_rate == first_hit).collect()
    };
    let fixed = at_hit(Variant::Fixed);
    let (Some(&smallest), Some(&largest)) = (fixed.first(), fixed.last()) else { return Vec::new() };
    let best = fixed.iter().copied().min_by(|a, b| a.p99_ms.median.total_cmp(&b.p99_ms.median)).unwrap_or(largest);
    let mut sentences = Vec::new();
    // The largest pool against the article's fix (8 per CPU) where the sweep ran it, else
    // against the best other pool.
    let others = || fixed.iter().copied().filter(|s| s.key != largest.key);
    let fix = others().find(|s| s.key.pool_threads == 8 * s.cpus);
    if let Some(other) = fix.or_else(|| others().min_by(|a, b| a.p99_ms.median.total_cmp(&b.p99_ms.median))) {
        sentences.push(format!("At {:.0}% hits, {}", first_hit * 100.0, lowercase_first(&compare_p99(largest, other))));
    }
    sentences.push(format!(
        "Over every arrival (drops counted at the {} timeout), the lowest median p99 among fixed pools was at {} ({}).",
        format_ms(best.queue_timeout_ms),
        best.label(),
        p99_text(best)
    ));
    sentences.extend(fixed.iter().find(|s| s.dropped_share > 0.0).map(|starved| starved_sentence(starved)));
    if smallest.key != largest.key {
        sentences.push(class_sentence(smallest, largest));
        sentences.extend(cost_sentences(smallest, largest));
    }
    sentences.extend(formula_sentences(&fixed));
    for other in at_hit(Variant::Split).into_iter().chain(at_hit(Variant::Async)) {
        sentences.push(format!(
            "{} Its hits' p99 was {} and its capacity {:.0} requests/s.",
            compare_p99(other, best),
            format_ms(other.hit_p99_ms.median),
            other.capacity_per_s.median
        ));
    }
    sentences
}

/// A case's median p99, marked when it is a lower bound.
fn p99_text(s: &PoolSummary) -> String {
    bounded(s.p99_ms.median, s.p99_lower_bound)
}

fn bounded(ms: f64, lower_bound: bool) -> String {
    if lower_bound {
        format!("at least {}", format_ms(ms))
    } else {
        format_ms(ms)
    }
}

/// "p99 at A (x) is R times p99 at B (y)", or that they could not be told apart.
fn compare_p99(a: &PoolSummary, b: &PoolSummary) -> String {
    let (la, lb) = (a.label(), b.label());
    let (xa, xb) = (p99_text(a), p99_text(b));
    let trials = a.trials.min(b.trials);
    if trials < MIN_TRIALS_FOR_CLAIM {
        return format!(
            "p99 was {xa} at {la} and {xb} at {lb}; {trials} trial(s) are too few to call that a difference."
        );
    }
    let ratio = Ratio::between(&a.p99_ms, &b.p99_ms);
    if ratio.clearly_above_one() || ratio.clearly_below_one() {
        let bound = if a.p99_lower_bound || b.p99_lower_bound { "; a bound at the timeout caps the ratio" } else { "" };
        format!(
            "p99 at {la} ({xa}) is {:.2} times p99 at {lb} ({xb}; interval {:.2}x to {:.2}x over {trials} trials{bound}).",
            ratio.value, ratio.low, ratio.high
        )
    } else {
        format!("p99 at {la} ({xa}) and at {lb} ({xb}) could not be told apart: their trial intervals overlap.")
    }
}

fn starved_sentence(starved: &PoolSummary) -> String {
    format!(
        "A pool of {} threads could not keep up: {:.1}% of arrivals waited past the queue timeout and were dropped; \
         they count at the timeout, so its p99 ({}) is what callers saw, at best.",
        starved.key.pool_threads,
        starved.dropped_share * 100.0,
        p99_text(starved)
    )
}

/// How a measure moved from the smallest pool to the largest: rose, fell, or not told apart.
pub(super) fn change(
    small: &PoolSummary,
    large: &PoolSummary,
    value: impl Fn(&PoolSummary) -> Option<&Summary>,
    show: impl Fn(f64) -> String,
) -> Option<String> {
    let (a, b) = (value(small)?, value(large)?);
    let (la, lb) = (small.label(), large.label());
    let separated = small.trials.min(large.trials) >= MIN_TRIALS_FOR_CLAIM && !a.overlaps(b);
    let (xa, xb) = (show(a.median), show(b.median));
    Some(match (separated, b.median > a.median) {
        (true, true) => format!("rose from {xa} at {la} to {xb} at {lb}"),
        (true, false) => format!("fell from {xa} at {la} to {xb} at {lb}"),
        (false, _) => format!("could not be told apart between {la} ({xa}) and {lb} ({xb})"),
    })
}

/// Head-of-line blocking: the fast class's p99 at the smallest and largest pools.
fn class_sentence(small: &PoolSummary, large: &PoolSummary) -> String {
    let hits = change(small, large, |s| Some(&s.hit_p99_ms), format_ms).unwrap_or_default();
    let misses = change(small, large, |s| Some(&s.miss_p99_ms), format_ms).unwrap_or_default();
    format!("p99 of cache hits {hits}; p99 of misses {misses}.")
}

/// What a bigger pool cost downstream and in the scheduler, from smallest to largest.
fn cost_sentences(small: &PoolSummary, large: &PoolSummary) -> Vec<String> {
    let per_request = |value: f64| format!("{value:.1}");
    let mut sentences = vec![if small.usage_measured() && large.usage_measured() {
        format!(
            "Context switches per completed request {}; at the probe's {:.1} us per switch the largest pool spent \
             {:.1}% of one CPU switching.",
            change(small, large, |s| Some(&s.switches_per_request), per_request).unwrap_or_default(),
            large.switch_cost_ns.median / 1e3,
            large.switching_cpus * 100.0
        )
    } else {
        "Context switches are unavailable: this OS counted none for the process.".into()
    }];
    sentences.push(match change(small, large, |s| s.run_delay_ms.as_ref(), format_ms) {
        Some(delay) => format!("Run-queue delay per request (schedstat) {delay}."),
        None => "Run-queue delay is unavailable: this kernel keeps no per-thread scheduler statistics.".into(),
    });
    let lock = change(small, large, |s| Some(&s.lock_wait_ms), format_ms).unwrap_or_default();
    let db = change(small, large, |s| Some(&s.db_wait_ms), format_ms).unwrap_or_default();
    sentences.push(format!(
        "The wait for the shared lock ({} of work under it) {lock}; a miss's wait for one of {} database connections \
         {db}.",
        format_ms(large.lock_hold_ms),
        large.key.db_connections
    ));
    let capacity = |value: f64| format!("{value:.0}/s");
    sentences.push(format!(
        "Capacity in the closed-loop probe {}.",
        change(small, large, |s| Some(&s.capacity_per_s), capacity).unwrap_or_default()
    ));
    sentences
}

/// Goetz's formula with this service's mean W and with the article's 49 ms, and why 49 ms was
/// a response time: fed the mean response time measured here, the formula grows the pool.
fn formula_sentences(fixed: &[&PoolSummary]) -> Vec<String> {
    let Some(any) = fixed.first() else { return Vec::new() };
    let here = format!(
        "Goetz's formula with this service's mean W/C (W = {}, C = {}) gives N = {}; with the article's W = {ARTICLE_WAIT_MS} \
         ms and C = {ARTICLE_COMPUTE_MS} ms it gives N = {} on these {} CPUs.",
        format_ms(any.mean_wait_ms),
        format_ms(any.cpu_work_ms),
        any.formula_threads,
        any.article_formula_threads,
        any.cpus
    );
    let mut sentences = vec![here];
    let largest = fixed.last().copied().unwrap_or(any);
    let response_ms = largest.mean_ms.median;
    let fed_back = rounded(goetz_threads(any.cpus as f64, any.utilization, response_ms, any.cpu_work_ms));
    sentences.push(format!(
        "The article's {ARTICLE_WAIT_MS} ms was a mean response time under load, queueing included, not the wait \
         of its paths ({:.0}% hits at 1-2 ms, misses at 40-80 ms: {} on average); here the mean response time at {} \
         was {}, and fed to the formula as W it would ask for {fed_back} threads.",
        ARTICLE_HIT_RATE * 100.0,
        format_ms(article_path_wait_ms()),
        largest.label(),
        format_ms(response_ms)
    ));
    sentences
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}
