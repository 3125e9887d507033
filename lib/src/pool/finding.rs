//! Sentences the data supports, for the report and the notebooks. A difference is claimed
//! only when both cases have at least [`MIN_TRIALS_FOR_CLAIM`] trials and their intervals do
//! not overlap; otherwise the sentence says the cases could not be told apart.

use super::summary::{format_ms, PoolSummary};
use super::Variant;
use crate::stats::Ratio;

/// Fewer trials than this give intervals too wide (or too weak) to claim a difference.
pub const MIN_TRIALS_FOR_CLAIM: usize = 3;

/// The headline: the largest fixed pool's p99 against the best other one's, or why not.
pub fn finding(summaries: &[PoolSummary]) -> String {
    findings(summaries).into_iter().next().unwrap_or_else(|| "The pool experiment was not measured.".into())
}

/// Every sentence the data supports, headline first. Sentences cover the first hit rate of
/// the run; pools that dropped requests are never "best" (their percentiles omit the drops).
pub fn findings(summaries: &[PoolSummary]) -> Vec<String> {
    let Some(first_hit) = summaries.first().map(|s| s.key.hit_rate) else { return Vec::new() };
    let at_hit = |variant: Variant| -> Vec<&PoolSummary> {
        summaries.iter().filter(|s| s.key.variant == variant && s.key.hit_rate == first_hit).collect()
    };
    let fixed = at_hit(Variant::Fixed);
    let mut serving: Vec<&PoolSummary> = fixed.iter().copied().filter(|s| s.dropped_share == 0.0).collect();
    serving.sort_by(|a, b| a.p99_ms.median.total_cmp(&b.p99_ms.median));
    let best = serving.first().copied();
    let mut sentences = Vec::new();
    match (best, fixed.last()) {
        (Some(best), Some(largest)) => {
            // The largest pool against the best other pool that dropped nothing.
            if let Some(other) = serving.iter().find(|s| s.key != largest.key) {
                let comparison = lowercase_first(&compare_p99(largest, other));
                sentences.push(format!("At {:.0}% hits, {comparison}", first_hit * 100.0));
            }
            sentences.push(format!(
                "The lowest median p99 among fixed pools that dropped nothing was at {} ({}).",
                best.label(),
                format_ms(best.p99_ms.median)
            ));
            sentences.extend(fixed.iter().find(|s| s.dropped_share > 0.0).map(|starved| starved_sentence(starved)));
        }
        (None, Some(_)) => sentences.push(overloaded_sentence(&fixed, first_hit)),
        _ => {}
    }
    sentences.extend(formula_sentence(&fixed));
    sentences.extend(switch_sentence(&fixed));
    for other in at_hit(Variant::Split).into_iter().chain(at_hit(Variant::Async)) {
        sentences.push(match best {
            Some(best) if other.dropped_share == 0.0 => compare_p99(other, best),
            _ => format!(
                "{} served {:.0} requests/s and dropped {:.1}% (p99 of those served: {}).",
                upper_first(&other.label()),
                other.completed_per_s.median,
                other.dropped_share * 100.0,
                format_ms(other.p99_ms.median)
            ),
        });
    }
    sentences
}

/// "p99 at A (x) is R times p99 at B (y)", or that they could not be told apart.
fn compare_p99(a: &PoolSummary, b: &PoolSummary) -> String {
    let (la, lb) = (a.label(), b.label());
    let (xa, xb) = (format_ms(a.p99_ms.median), format_ms(b.p99_ms.median));
    let trials = a.trials.min(b.trials);
    if trials < MIN_TRIALS_FOR_CLAIM {
        return format!(
            "p99 was {xa} at {la} and {xb} at {lb}; {trials} trial(s) are too few to call that a difference."
        );
    }
    let ratio = Ratio::between(&a.p99_ms, &b.p99_ms);
    if ratio.clearly_above_one() || ratio.clearly_below_one() {
        format!(
            "p99 at {la} ({xa}) is {:.2} times p99 at {lb} ({xb}; interval {:.2}x to {:.2}x over {trials} trials).",
            ratio.value, ratio.low, ratio.high
        )
    } else {
        format!("p99 at {la} ({xa}) and at {lb} ({xb}) could not be told apart: their trial intervals overlap.")
    }
}

fn starved_sentence(starved: &PoolSummary) -> String {
    format!(
        "A pool of {} threads could not keep up: {:.1}% of requests waited past the queue timeout and were dropped \
         (p99 of those served: {}).",
        starved.key.pool_threads,
        starved.dropped_share * 100.0,
        format_ms(starved.p99_ms.median)
    )
}

/// Every fixed pool dropped requests: say how far short the best one fell, and how much CPU
/// the process got meanwhile.
fn overloaded_sentence(fixed: &[&PoolSummary], hit_rate: f64) -> String {
    let most = fixed.iter().max_by(|a, b| a.completed_per_s.median.total_cmp(&b.completed_per_s.median));
    let cpu_share = fixed.iter().map(|s| s.cpu_share.median).fold(0.0, f64::max);
    let (served, label, offered) =
        most.map_or((0.0, String::new(), 0.0), |s| (s.completed_per_s.median, s.label(), s.offered_rate_per_s));
    format!(
        "No fixed pool kept up at {:.0}% hits: every size dropped requests. The most served was {served:.0} of the \
         {offered:.0} requests/s offered (at {label}), while the process used at most {:.0}% of the CPUs; see the \
         run conditions in the machine section. Pools that drop requests are not compared by latency.",
        hit_rate * 100.0,
        cpu_share * 100.0
    )
}

fn formula_sentence(fixed: &[&PoolSummary]) -> Option<String> {
    let any = fixed.first()?;
    let formula = fixed.iter().find(|s| s.key.pool_threads == any.formula_threads)?;
    let twice = fixed.iter().find(|s| s.key.pool_threads == 2 * any.formula_threads)?;
    let comparison = if formula.dropped_share > 0.0 || twice.dropped_share > 0.0 {
        format!(
            "it dropped {:.1}% of requests, twice that size dropped {:.1}%.",
            formula.dropped_share * 100.0,
            twice.dropped_share * 100.0
        )
    } else {
        lowercase_first(&compare_p99(formula, twice))
    };
    Some(format!(
        "Goetz's formula with the mean W/C (W = {:.2} ms, C = {:.2} ms) gives N = {} here; {comparison}",
        any.mean_wait_ms, any.cpu_work_ms, any.formula_threads
    ))
}

fn switch_sentence(fixed: &[&PoolSummary]) -> Option<String> {
    let (small, large) = (fixed.first()?, fixed.last()?);
    if small.key == large.key {
        return None;
    }
    let (a, b) = (small.switches_per_s.median, large.switches_per_s.median);
    let separated =
        small.trials.min(large.trials) >= MIN_TRIALS_FOR_CLAIM && !small.switches_per_s.overlaps(&large.switches_per_s);
    let change = match (separated, b > a) {
        (true, true) => format!("rose from {a:.0}/s at {} to {b:.0}/s at {}", small.label(), large.label()),
        (true, false) => format!("fell from {a:.0}/s at {} to {b:.0}/s at {}", small.label(), large.label()),
        (false, _) => {
            format!("could not be told apart between {} ({a:.0}/s) and {} ({b:.0}/s)", small.label(), large.label())
        }
    };
    let per_request = if large.completed_per_s.median > 0.0 { b / large.completed_per_s.median } else { 0.0 };
    Some(format!(
        "Context switches of the whole process {change}: {per_request:.1} per completed request at the largest pool. \
         At the probe's {:.1} us per switch that is {:.1}% of one CPU.",
        large.switch_cost_ns / 1e3,
        large.switching_cpus * 100.0
    ))
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_lowercase().chain(chars).collect())
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
