//! The trials of each case summarised, and the sentences they support: what a pass cost per
//! line after the other thread ran, against the same pass warm.

use serde::{Deserialize, Serialize};

use super::config::Evicts;
use super::Row;
use crate::evidence;
use crate::format;
use crate::stats::{Ratio, Summary};
use crate::verdict::{then_what_may_hide_it, Verdict};

/// The trials of one (working set, other thread) case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub working_set_bytes: u64,
    pub lines: u64,
    pub evicts: Evicts,
    pub evict_bytes: u64,
    pub warm_ns_per_line: Summary,
    pub switched_ns_per_line: Summary,
    /// After the switch over warm.
    pub slowdown: Ratio,
    /// Lines x (median after the switch - median warm): what refilling the set cost once.
    pub refill_us: f64,
    pub all_pinned: bool,
}

/// Groups rows by case: working sets in the order measured, then the other thread's load.
pub fn summarize(rows: &[Row]) -> Vec<CaseSummary> {
    let mut keys: Vec<(u64, Evicts)> = Vec::new();
    for row in rows {
        if !keys.contains(&(row.working_set_bytes, row.evicts)) {
            keys.push((row.working_set_bytes, row.evicts));
        }
    }
    keys.sort_by_key(|&(bytes, evicts)| (bytes, Evicts::ALL.iter().position(|&e| e == evicts)));
    keys.into_iter()
        .filter_map(|(bytes, evicts)| {
            let group: Vec<&Row> = rows.iter().filter(|r| r.working_set_bytes == bytes && r.evicts == evicts).collect();
            let of = |value: fn(&Row) -> f64| Summary::of(&group.iter().map(|row| value(row)).collect::<Vec<_>>());
            let (warm, switched) = (of(|row| row.warm_ns_per_line)?, of(|row| row.switched_ns_per_line)?);
            let first = group.first()?;
            Some(CaseSummary {
                working_set_bytes: bytes,
                lines: first.lines,
                evicts,
                evict_bytes: first.evict_bytes,
                slowdown: Ratio::between(&switched, &warm),
                refill_us: first.lines as f64 * (switched.median - warm.median) / 1e3,
                warm_ns_per_line: warm,
                switched_ns_per_line: switched,
                all_pinned: group.iter().all(|row| row.pinned),
            })
        })
        .collect()
}

/// The case the article's figure is set beside: the most the other thread touched (a miss
/// to memory, where 80-120 ns belongs), on the largest working set.
pub fn article_case(cases: &[CaseSummary]) -> Option<&CaseSummary> {
    cases.iter().max_by_key(|case| (case.evict_bytes, case.working_set_bytes))
}

/// One sentence per working set, from the case where the other thread touched the most,
/// then one about the switch alone; below the evidence rule, says so and claims nothing.
pub fn finding(cases: &[CaseSummary], verdict: Option<&Verdict>) -> Vec<String> {
    let most = cases.iter().map(|case| case.evict_bytes).max().unwrap_or(0);
    let mut sentences: Vec<String> = cases
        .iter()
        .filter(|case| case.evict_bytes == most && most > 0)
        .map(|case| evicted_sentence(case, verdict))
        .collect();
    sentences.extend(cases.iter().filter(|case| case.evicts == Evicts::None).map(switch_alone_sentence));
    if cases.iter().any(|case| !case.all_pinned) {
        sentences.push(
            "The two threads could not both be pinned to one CPU, so the other thread may have run elsewhere \
             and left the working set in place."
                .into(),
        );
    }
    if sentences.is_empty() {
        sentences.push("The cache-refill experiment was not measured.".into());
    }
    sentences
}

/// Where a measured interval stands against a published range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// The interval reaches into the range.
    Within,
    Below,
    Above,
    /// Below the minimum-evidence rule: no claim.
    TooFewTrials,
}

impl Standing {
    /// Where `summary`'s median interval stands against `low..=high`.
    pub fn of(summary: &Summary, (low, high): (f64, f64)) -> Self {
        if !evidence::sufficient(summary) {
            Standing::TooFewTrials
        } else if summary.median_high < low {
            Standing::Below
        } else if summary.median_low > high {
            Standing::Above
        } else {
            Standing::Within
        }
    }
}

/// The article's miss after a switch beside this machine's (the case of [`article_case`]).
pub fn beside_article(cases: &[CaseSummary], (low, high): (f64, f64)) -> Option<String> {
    let case = article_case(cases).filter(|case| case.evict_bytes > 0)?;
    let after = &case.switched_ns_per_line;
    let standing = match Standing::of(after, (low, high)) {
        Standing::Within => "within the article's range".to_string(),
        Standing::Below => "below the article's range".to_string(),
        Standing::Above => "above the article's range".to_string(),
        Standing::TooFewTrials => format!("{}", evidence::check([after]).err()?),
    };
    Some(format!(
        "The article puts a miss after a switch at {low:.0}-{high:.0} ns; here a line of {} came back in {} ns \
         (interval {}) after the other thread wrote {}: {standing}.",
        set_words(case),
        format::number(after.median),
        format::interval(after.median_low, after.median_high),
        format::bytes(case.evict_bytes)
    ))
}

fn set_words(case: &CaseSummary) -> String {
    format!("the {} set ({} lines)", format::bytes(case.working_set_bytes), case.lines)
}

fn evicted_sentence(case: &CaseSummary, verdict: Option<&Verdict>) -> String {
    let (warm, switched) = (&case.warm_ns_per_line, &case.switched_ns_per_line);
    let measured = format!(
        "After another thread on the same CPU wrote {}, a pass over {} cost {} ns per line (interval {}) against {} \
         ns warm",
        format::bytes(case.evict_bytes),
        set_words(case),
        format::number(switched.median),
        format::interval(switched.median_low, switched.median_high),
        format::number(warm.median),
    );
    match evidence::check([warm, switched]) {
        Err(too_few) => format!("{measured}: {too_few}."),
        Ok(()) if case.slowdown.clearly_above_one() => format!(
            "{measured}: {} slower, {} us to refill the set once.",
            format::describe_ratio(&case.slowdown),
            format::number(case.refill_us)
        ),
        Ok(()) => then_what_may_hide_it(format!("{measured}: not measurably slower than warm."), verdict),
    }
}

fn switch_alone_sentence(case: &CaseSummary) -> String {
    let text = format!(
        "A switch to a thread that touched nothing left {} at {} ns per line (warm: {})",
        set_words(case),
        format::number(case.switched_ns_per_line.median),
        format::number(case.warm_ns_per_line.median)
    );
    match evidence::check([&case.warm_ns_per_line, &case.switched_ns_per_line]) {
        Err(too_few) => format!("{text}: {too_few}."),
        Ok(()) if case.slowdown.clearly_above_one() => {
            format!("{text}: {} slower, so the switch itself cost cache.", format::describe_ratio(&case.slowdown))
        }
        Ok(()) => format!("{text}: the switch alone evicted nothing measurable; the other thread's memory did."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(bytes: u64, evicts: Evicts, trial: u64, warm: f64, switched: f64) -> Row {
        Row {
            working_set_bytes: bytes,
            lines: bytes / 64,
            line_bytes: 64,
            evicts,
            evict_bytes: match evicts {
                Evicts::None => 0,
                Evicts::PastL2 => 2 << 20,
                Evicts::PastL3 => 64 << 20,
            },
            trial,
            warm_ns_per_line: warm,
            switched_ns_per_line: switched,
            switches: 2,
            pinned: true,
            cpu: 1,
        }
    }

    #[test]
    fn cases_summarise_and_the_sentences_follow_the_intervals() {
        let rows: Vec<Row> = (0..5)
            .flat_map(|trial| {
                let jitter = trial as f64 * 0.1;
                [
                    row(16 << 10, Evicts::PastL3, trial, 1.0 + jitter, 90.0 + jitter),
                    row(16 << 10, Evicts::None, trial, 1.0 + jitter, 1.05 + jitter),
                ]
            })
            .collect();
        let cases = summarize(&rows);
        assert_eq!(cases.iter().map(|c| c.evicts).collect::<Vec<_>>(), [Evicts::None, Evicts::PastL3]);
        assert!((cases[1].refill_us - 256.0 * 89.0 / 1e3).abs() < 1e-9);
        assert_eq!(article_case(&cases).map(|c| c.evicts), Some(Evicts::PastL3));
        let found = finding(&cases, None);
        assert!(found[0].starts_with("After another thread on the same CPU wrote 64 MiB, a pass over the 16 KiB set (256 lines) cost 90.2 ns per line"), "{found:?}");
        assert!(
            found[0].contains("ns warm: 75.17x (interval 64.29x to 90.40x) slower, 22.8 us to refill the set once."),
            "{found:?}"
        );
        assert!(
            found[1].ends_with("the switch alone evicted nothing measurable; the other thread's memory did."),
            "{found:?}"
        );
        let beside = beside_article(&cases, (80.0, 120.0)).unwrap();
        assert!(
            beside.ends_with("(interval 90.0–90.4) after the other thread wrote 64 MiB: within the article's range."),
            "{beside}"
        );
        assert_eq!(Standing::of(&cases[1].switched_ns_per_line, (100.0, 120.0)), Standing::Below);
        let few = summarize(&rows[..4]);
        assert!(finding(&few, None)[0].contains("too few trials (n=2"), "{:?}", finding(&few, None));
    }
}
