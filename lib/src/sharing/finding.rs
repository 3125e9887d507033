//! The sentences the four-way control supports. An effect is claimed only when every case
//! has enough trials ([`crate::evidence`]) and a ratio's interval lies wholly on one side of
//! 1 (the two cases' median intervals do not overlap).

use super::{false_sharing_over, Case, CaseSummary, FALSE_SHARING_DISTANCE_BYTES};
use crate::evidence;
use crate::format::{describe_ratio, ratio_and_interval};
use crate::stats::Ratio;
use crate::verdict::{then_what_may_hide_it, Verdict};

/// A few sentences saying what the control showed, for the report and the notebooks; where
/// it shows no penalty, what the machine's `verdict` says may hide it.
pub fn finding(summaries: &[CaseSummary], verdict: Option<&Verdict>) -> String {
    let false_sharing = summaries.iter().find(|s| s.case == Case::FalseSharing);
    let no_sharing = summaries.iter().find(|s| s.case == Case::NoSharing);
    let (Some(false_sharing), Some(no_sharing)) = (false_sharing, no_sharing) else {
        return "The four-way control was not measured.".into();
    };
    if false_sharing.threads < 2 {
        return "With one thread nothing is shared: run the control with 2 or more threads to compare the cases."
            .into();
    }
    if let Err(short) = evidence::check(summaries.iter().map(|summary| &summary.elapsed_ms)) {
        return format!("The four-way control claims nothing: {short}.");
    }
    let threads = false_sharing.threads;
    let mut sentences = Vec::new();
    if let Some(ratio) = false_sharing_over(summaries, Case::NoSharing) {
        sentences.push(versus_no_sharing(threads, no_sharing.distance_bytes, &ratio, verdict));
    }
    if let Some(ratio) = false_sharing_over(summaries, Case::TrueSharing) {
        sentences.push(versus_true_sharing(&ratio));
    }
    if let Some(ratio) = false_sharing_over(summaries, Case::Single) {
        sentences.push(versus_single(threads, &ratio));
    }
    sentences.join(" ")
}

fn versus_no_sharing(threads: u64, padding_bytes: u64, ratio: &Ratio, verdict: Option<&Verdict>) -> String {
    let near = FALSE_SHARING_DISTANCE_BYTES;
    if ratio.clearly_above_one() {
        format!(
            "On this machine {threads} threads with counters {near} bytes apart took {} as long as with counters \
             {padding_bytes} bytes apart: the same atomics on the same threads, so the difference is false sharing.",
            describe_ratio(ratio)
        )
    } else if ratio.clearly_below_one() {
        then_what_may_hide_it(
            format!(
                "On this machine counters {near} bytes apart were faster than counters {padding_bytes} bytes apart \
                 (time ratio {}), the opposite of a false-sharing penalty.",
                ratio_and_interval(ratio)
            ),
            verdict,
        )
    } else {
        then_what_may_hide_it(
            format!(
                "No false-sharing penalty was observed on this machine: counters {near} bytes apart were not \
                 measurably slower than counters {padding_bytes} bytes apart (time ratio {}, which includes 1).",
                ratio_and_interval(ratio)
            ),
            verdict,
        )
    }
}

fn versus_true_sharing(ratio: &Ratio) -> String {
    if ratio.clearly_above_one() {
        format!("False sharing took {} as long as true sharing (one counter for all threads).", describe_ratio(ratio))
    } else if ratio.clearly_below_one() {
        format!(
            "False sharing took {} of the time of true sharing (one counter for all threads).",
            describe_ratio(ratio)
        )
    } else {
        format!(
            "False sharing could not be told apart from true sharing (time ratio {}): private counters on one line \
             behaved like one counter shared by all threads.",
            ratio_and_interval(ratio)
        )
    }
}

fn versus_single(threads: u64, ratio: &Ratio) -> String {
    if ratio.clearly_above_one() {
        format!(
            "With false sharing, {threads} threads took {} as long as one thread doing all the work: adding \
             threads made it slower.",
            describe_ratio(ratio)
        )
    } else if ratio.clearly_below_one() {
        format!(
            "Even with false sharing, {threads} threads needed only {} of the time one thread took for all the work.",
            describe_ratio(ratio)
        )
    } else {
        format!(
            "With false sharing, {threads} threads were not measurably faster or slower than one thread doing all \
             the work (time ratio {}).",
            ratio_and_interval(ratio)
        )
    }
}

/// Article A's headline: 80 M increments, one goroutine 166 ms, 8 goroutines on 8 adjacent
/// shards 2.264 s, printed as 13.7x slower.
pub const ARTICLE_HEADLINE_THREADS: u64 = 8;
pub const ARTICLE_HEADLINE_SINGLE_MS: f64 = 166.0;
pub const ARTICLE_HEADLINE_SHARDED_MS: f64 = 2264.0;
pub const ARTICLE_HEADLINE_PRINTED: &str = "13.7x";

/// The article's headline as a row of the control: one thread doing the whole total
/// against N threads on N adjacent shards (the false-sharing case), here and in the article.
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleHeadline {
    /// "one thread vs 2 threads on 2 adjacent shards".
    pub label: String,
    /// The article's figure, named: "13.7x at 8 threads (166 ms vs 2.264 s)".
    pub article: String,
    /// Sharded time over single time on this machine; `None` below the evidence rule.
    pub measured: Option<Ratio>,
    /// The measured ratio in words, or "too few trials (n=...)".
    pub measured_text: String,
}

/// The headline row, when both the single and the false-sharing case were measured.
pub fn article_headline(summaries: &[CaseSummary]) -> Option<ArticleHeadline> {
    let sharded = summaries.iter().find(|s| s.case == Case::FalseSharing)?;
    let single = summaries.iter().find(|s| s.case == Case::Single)?;
    let (measured, measured_text) = match evidence::check([&sharded.elapsed_ms, &single.elapsed_ms]) {
        Ok(()) => {
            let ratio = Ratio::between(&sharded.elapsed_ms, &single.elapsed_ms);
            (Some(ratio), describe_ratio(&ratio))
        }
        Err(short) => (None, short.to_string()),
    };
    Some(ArticleHeadline {
        label: format!("one thread vs {0} threads on {0} adjacent shards", sharded.threads),
        article: format!(
            "{ARTICLE_HEADLINE_PRINTED} at {ARTICLE_HEADLINE_THREADS} threads ({ARTICLE_HEADLINE_SINGLE_MS:.0} ms vs \
             {:.3} s)",
            ARTICLE_HEADLINE_SHARDED_MS / 1000.0
        ),
        measured,
        measured_text,
    })
}
