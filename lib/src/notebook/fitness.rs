//! Machine fitness in a notebook: what the machine did while a measurement ran, and the
//! verdict (can this machine show contention?) with its reasons.

use super::{escape, figure, format_number, Rich};
use crate::c2c::PairSummary;
use crate::chart::c2c::c2c_heatmap;
use crate::chart::ChartError;
use crate::fitness::conditions::{Conditions, Snapshot};
use crate::fitness::Verdict;

/// Runs `measure` and returns its result with what the rest of the machine did meanwhile
/// (other programs' CPU share, steal time), for [`crate::fitness::gather_facts`].
pub fn watched<T>(measure: impl FnOnce() -> T) -> (T, Conditions) {
    let before = Snapshot::take();
    let result = measure();
    (result, Conditions::between(&before, &Snapshot::take()))
}

/// The report's core-to-core latency matrix; the text fallback lists each pair's median.
pub fn c2c_chart(pairs: &[PairSummary]) -> Result<Rich, ChartError> {
    let svg = c2c_heatmap("One-way cache-line transfer between CPUs (ns)", pairs)?;
    let medians: Vec<String> = pairs
        .iter()
        .map(|pair| format!("CPUs {}-{}: {} ns", pair.cpu_a, pair.cpu_b, format_number(pair.one_way_ns.median)))
        .collect();
    Ok(figure(
        &svg,
        "Median one-way latency for each pair of CPUs",
        &format!("one-way latency per pair: {}", medians.join(", ")),
    ))
}

/// The verdict as a headline, its reasons, and what was not checked.
pub fn verdict_view(verdict: &Verdict) -> Rich {
    let fitness = verdict.fitness.as_str();
    let mut html = format!("<p><b>Verdict: {}</b></p>", escape(&verdict.headline()));
    let mut plain = format!("Verdict: {}", verdict.headline());
    if verdict.reasons.is_empty() {
        let none = format!("Nothing checked stands in the way: this machine is {fitness} for the experiments.");
        html.push_str(&format!("<p>{}</p>", escape(&none)));
        plain.push_str(&format!("\n{none}"));
    } else {
        html.push_str("<ul>");
        for reason in &verdict.reasons {
            html.push_str(&format!("<li>{} ({})</li>", escape(&reason.text), reason.fitness.as_str()));
            plain.push_str(&format!("\n- {} ({})", reason.text, reason.fitness.as_str()));
        }
        html.push_str("</ul>");
    }
    if !verdict.unchecked.is_empty() {
        let unchecked = format!("Not checked: {}.", verdict.unchecked.join("; "));
        html.push_str(&format!("<p><i>{}</i></p>", escape(&unchecked)));
        plain.push_str(&format!("\n{unchecked}"));
    }
    Rich { html, plain }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fitness::verdict::{verdict, Facts};

    fn facts(usable_cpus: usize) -> Facts {
        Facts {
            usable_cpus,
            usable_cores: Some(usable_cpus),
            experiment_threads: 8,
            typical_one_way_ns: Some(60.0),
            speedup_at_two_threads: Some(1.9),
            trial_spread_cv: Some(0.02),
            background: None,
            steal: None,
        }
    }

    #[test]
    fn a_fit_machine_says_nothing_stands_in_the_way() {
        let view = verdict_view(&verdict(&facts(16)));
        assert!(view.plain.starts_with("Verdict: fit"), "{}", view.plain);
        assert!(view.plain.contains("Nothing checked stands in the way"));
    }

    #[test]
    fn every_reason_is_listed_with_its_level() {
        let judged = verdict(&facts(1));
        let view = verdict_view(&judged);
        assert_eq!(view.html.matches("<li>").count(), judged.reasons.len());
        assert!(view.plain.contains("(unfit)"), "{}", view.plain);
    }

    #[test]
    fn c2c_chart_lists_every_pair_in_its_fallback() {
        use crate::stats::Summary;
        let pair = |cpu_a, cpu_b, ns: f64| PairSummary {
            cpu_a,
            cpu_b,
            one_way_ns: Summary::of(&[ns, ns + 2.0, ns + 4.0]).unwrap(),
            all_pinned: true,
        };
        let rich = c2c_chart(&[pair(0, 1, 40.0), pair(0, 2, 120.0), pair(1, 2, 118.0)]).unwrap();
        assert!(rich.html.contains("data:image/svg+xml;base64,"));
        assert!(rich.plain.ends_with("CPUs 0-1: 42.0 ns, CPUs 0-2: 122 ns, CPUs 1-2: 120 ns"), "{}", rich.plain);
    }

    #[test]
    fn watched_returns_the_result_and_the_conditions() {
        let (value, conditions) = watched(|| 6 * 7);
        assert_eq!(value, 42);
        if cfg!(target_os = "linux") {
            assert!(conditions.load_average_before.is_some() && conditions.load_average_after.is_some());
        }
    }
}
