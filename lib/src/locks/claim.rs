//! Article C's five lock claims, what the files answering them share: the claims, a
//! finding's shape, the article's figures and the one rule that judges a figure against
//! them, and the words the findings are written with. [`super::claims_text`] answers
//! each claim; [`super::kernel_trip`] the trip to the kernel (C12). A
//! claim is judged only under the minimum-evidence rule ([`crate::evidence`]); a ratio is
//! an effect only when its interval lies wholly on one side of 1.

use serde::{Deserialize, Serialize};

use super::summary::{threads_of, CellSummary};
use super::Case;
use crate::evidence::TooFewTrials;
use crate::format::{interval, number, percent};
use crate::judgement::{Judgement, Target};
use crate::kit::reference::ReferenceFile;
use crate::reference_file;
use crate::run_format::RunsError;
use crate::stats::{Ratio, Summary};

/// The lock claims, by the ids of `shared/articles/CLAIMS.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Claim {
    /// C11: uncontended `synchronized` costs 20-30 ns.
    UncontendedCost,
    /// C12: contended, one futex call costs 1-2 us, two orders of magnitude above a CAS.
    KernelTrip,
    /// C13: at 2 threads `synchronized` is about 15% faster than `ReentrantLock`.
    BargingOverQueue,
    /// C14: `StampedLock` optimistic reads are 3-7x `ReentrantReadWriteLock` when reads dominate.
    OptimisticReads,
    /// C16: a remote call inside `computeIfAbsent`: QPS 8 000 -> 900.
    LockAcrossWait,
}

impl Claim {
    pub const ALL: [Claim; 5] = [
        Claim::UncontendedCost,
        Claim::KernelTrip,
        Claim::BargingOverQueue,
        Claim::OptimisticReads,
        Claim::LockAcrossWait,
    ];

    /// The id in `shared/articles/CLAIMS.md` and `data/reference/locks.csv`.
    pub fn id(self) -> &'static str {
        match self {
            Claim::UncontendedCost => "C11",
            Claim::KernelTrip => "C12",
            Claim::BargingOverQueue => "C13",
            Claim::OptimisticReads => "C14",
            Claim::LockAcrossWait => "C16",
        }
    }

    /// Whether the article's figure is a ratio (an effect with a direction) rather than an
    /// absolute cost in nanoseconds.
    pub fn is_ratio(self) -> bool {
        !matches!(self, Claim::UncontendedCost | Claim::KernelTrip)
    }

    /// What the claim is about, in a few words.
    pub fn what(self) -> &'static str {
        match self {
            Claim::UncontendedCost => "an uncontended acquire and release",
            Claim::KernelTrip => "a contended acquisition's trip to the kernel",
            Claim::BargingOverQueue => "2 threads: barging lock against queued hand-off",
            Claim::OptimisticReads => "optimistic reads against a read-write lock, reads dominating",
            Claim::LockAcrossWait => "a remote call inside a map's compute-if-absent",
        }
    }
}

pub use crate::judgement::Status;

/// One claim as this machine answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimFinding {
    pub claim: Claim,
    /// The article's figure as printed ("20-30 ns").
    pub article: String,
    /// This machine's figure in the article's unit (nanoseconds, or a ratio), with its
    /// interval; `None` when not measured or below the evidence rule.
    pub measured: Option<Ratio>,
    /// This machine's figure in words with its interval, or why there is none.
    pub figure: String,
    pub status: Status,
    /// The finding: what was measured, how it stands against the article, what may hide it.
    pub sentence: String,
}

/// One of article C's lock numbers (claims C11-C14 and C16), by claim id and key ("low",
/// "high", "faster_by", ...), in the unit the article printed it in.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LocksReference {
    pub claim: String,
    pub key: String,
    pub value: f64,
    pub unit: String,
    pub what: String,
}

/// Its file in `data/reference/`, compiled in.
pub const REFERENCE: ReferenceFile<LocksReference> = reference_file!("locks.csv");

/// The article's lock figures' rows.
pub fn reference() -> Result<Vec<LocksReference>, RunsError> {
    REFERENCE.rows()
}

/// The article's figures read from `data/reference/locks.csv`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ArticleRange {
    /// Low and high end, in nanoseconds or as a ratio.
    pub low: f64,
    pub high: f64,
    /// How the article printed it ("20-30 ns").
    pub printed: &'static str,
}

/// The article's figure for `claim` in the unit the lab compares in: nanoseconds for C11 and
/// C12, a ratio (larger is the article's direction) for the others.
pub(crate) fn article_range(article: &[LocksReference], claim: Claim) -> Option<ArticleRange> {
    let value = |key: &str| article.iter().find(|r| r.claim == claim.id() && r.key == key).map(|r| r.value);
    let (low, high, printed) = match claim {
        Claim::UncontendedCost => (value("low")?, value("high")?, "20-30 ns"),
        Claim::KernelTrip => (value("low")? * 1e3, value("high")? * 1e3, "1-2 us per futex call"),
        Claim::BargingOverQueue => {
            let faster = 1.0 + value("faster_by")? / 100.0;
            (faster, faster, "about 15% faster (1.15x)")
        }
        Claim::OptimisticReads => (value("low")?, value("high")?, "3-7x"),
        Claim::LockAcrossWait => {
            let collapse = value("qps_before")? / value("qps_after")?;
            (collapse, collapse, "8000 -> 900 QPS (8.89x)")
        }
    };
    Some(ArticleRange { low, high, printed })
}

/// The article's figure or range as the lab's one rule compares against it.
impl ArticleRange {
    pub fn target(&self) -> Target {
        Target::range(self.low, self.high)
    }
}

/// A measured figure against the article's: `is_ratio` claims are effects (a direction
/// above 1, [`Judgement::effect`]); absolute ones only a range.
pub(crate) fn judgement(measured: &Ratio, article: &ArticleRange, is_ratio: bool) -> Judgement {
    if is_ratio {
        Judgement::effect(measured, article.target())
    } else {
        Judgement::figure(measured.low, measured.high, article.target())
    }
}

/// [`judgement`]'s status.
pub(crate) fn judge(measured: &Ratio, article: &ArticleRange, is_ratio: bool) -> Status {
    judgement(measured, article, is_ratio).status
}

/// A claim this run could not answer, and why (said, never left out).
pub(crate) fn not_measured(claim: Claim, article: &str, why: &str) -> ClaimFinding {
    ClaimFinding {
        claim,
        article: article.to_string(),
        measured: None,
        figure: format!("not measured: {why}"),
        status: Status::NotMeasurable,
        sentence: format!("{} ({}): not measured here: {why}.", claim.id(), claim.what()),
    }
}

/// The thread count to judge a multi-thread case at: the largest measured that does not
/// exceed the logical CPUs (oversubscription measures the scheduler), else the smallest.
pub(crate) fn judged_threads(summaries: &[CellSummary], case: Case) -> Option<u64> {
    let threads = threads_of(summaries, case);
    let cpus = summaries.iter().map(|s| s.logical_cpus).max().unwrap_or(1);
    threads.iter().rev().find(|&&t| t <= cpus).or(threads.first()).copied()
}

/// The logical CPUs the rows were measured on (1 when unknown).
pub(crate) fn logical_cpus(summaries: &[CellSummary]) -> u64 {
    summaries.iter().map(|s| s.logical_cpus).max().unwrap_or(1)
}

/// A summary's median as a figure with its interval.
pub(crate) fn estimate(summary: &Summary) -> Ratio {
    Ratio { value: summary.median, low: summary.median_low, high: summary.median_high }
}

/// "14.2 ns (interval 13.9–14.8)"; "17022 ns (interval from 86.6, no upper end)" when an
/// end of the interval divides by a count that may be zero.
pub(crate) fn nanoseconds(figure: &Ratio) -> String {
    if !figure.high.is_finite() {
        return format!("{} ns (interval from {}, no upper end)", number(figure.value), number(figure.low));
    }
    format!("{} ns (interval {})", number(figure.value), interval(figure.low, figure.high))
}

pub(crate) fn too_few(claim: Claim, range: &ArticleRange, short: TooFewTrials) -> ClaimFinding {
    ClaimFinding {
        claim,
        article: range.printed.into(),
        measured: None,
        figure: short.to_string(),
        status: Status::NotBeyondNoise,
        sentence: format!("{} ({}) claims nothing: {short}.", claim.id(), claim.what()),
    }
}

pub(crate) fn finding(
    claim: Claim,
    range: &ArticleRange,
    measured: Ratio,
    figure: String,
    sentence: String,
) -> ClaimFinding {
    let status = judge(&measured, range, claim.is_ratio());
    ClaimFinding { claim, article: range.printed.into(), measured: Some(measured), figure, status, sentence }
}

/// How `measured` stands against an absolute range, in words.
pub(crate) fn against_range(measured: &Ratio, range: &ArticleRange, what: &str) -> String {
    if measured.high < range.low {
        format!("below the article's {} for {what}, {} as fast", range.printed, describe(range.low / measured.value))
    } else if measured.low > range.high {
        format!("above the article's {} for {what}", range.printed)
    } else {
        format!("within the article's {} for {what}", range.printed)
    }
}

pub(crate) fn describe(factor: f64) -> String {
    format!("{factor:.1}x")
}

/// How often acquisitions slept: "none", "1 in 12 000", "3.5%".
pub(crate) fn sleep_rate(per_op: f64) -> String {
    if per_op <= 0.0 {
        "none".into()
    } else if per_op < 0.01 {
        format!("1 in {}", crate::format::format_count((1.0 / per_op).round() as u64))
    } else {
        percent(per_op)
    }
}

/// A rate for a sentence: "63.8 million", "12 752", "950".
pub(crate) fn per_second(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1} million", rate / 1e6)
    } else {
        crate::format::format_count(rate.round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_reads_in_the_lab_units() {
        let article = reference().unwrap();
        let c12 = article_range(&article, Claim::KernelTrip).unwrap();
        assert_eq!((c12.low, c12.high), (1000.0, 2000.0));
        let c16 = article_range(&article, Claim::LockAcrossWait).unwrap();
        assert!((c16.low - 8000.0 / 900.0).abs() < 1e-9);
        assert!((article_range(&article, Claim::BargingOverQueue).unwrap().low - 1.15).abs() < 1e-9);
        assert!(article_range(&[], Claim::OptimisticReads).is_none());
    }

    #[test]
    fn statuses_follow_the_one_rule() {
        let range = ArticleRange { low: 3.0, high: 7.0, printed: "3-7x" };
        let ratio = |low, high| Ratio { value: (low + high) / 2.0, low, high };
        assert_eq!(judge(&ratio(2.5, 3.5), &range, true), Status::Reproduced);
        assert_eq!(judge(&ratio(1.5, 2.0), &range, true), Status::Smaller);
        assert_eq!(judge(&ratio(8.0, 35.0), &range, true), Status::Larger);
        assert_eq!(judge(&ratio(0.5, 0.8), &range, true), Status::Differs);
        assert_eq!(judge(&ratio(0.9, 1.2), &range, true), Status::NotBeyondNoise);
        assert_eq!(judge(&ratio(8.0, 9.0), &range, false), Status::Differs);
        assert_eq!(judge(&ratio(0.0, f64::INFINITY), &range, false), Status::NotBeyondNoise, "an unbounded interval");
    }

    #[test]
    fn an_interval_without_an_upper_end_says_so() {
        let bounded = Ratio { value: 14.2, low: 13.9, high: 14.8 };
        assert_eq!(nanoseconds(&bounded), "14.2 ns (interval 13.9–14.8)");
        let open = Ratio { value: 17022.0, low: 86.6, high: f64::INFINITY };
        assert_eq!(nanoseconds(&open), "17022 ns (interval from 86.6, no upper end)");
    }
}
