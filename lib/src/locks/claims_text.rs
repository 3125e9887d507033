//! Each claim's figure and sentence, computed from the summaries (see [`super::claims`]).

use super::claims::{judge, judged_threads, logical_cpus, not_measured, ArticleRange, Claim, ClaimFinding, Status};
use super::summary::{find, read_shares_of, threads_of, CellSummary};
use super::{Case, Primitive};
use crate::evidence::{self, TooFewTrials};
use crate::format::{interval, number, percent, ratio_with_interval};
use crate::stats::{Ratio, Summary};
use crate::verdict::{then_what_may_hide_it, Verdict};

/// The read share the article's "reads dominate" is judged at.
const READS_DOMINATE: f64 = 0.99;

pub(crate) fn answer(
    claim: Claim,
    summaries: &[CellSummary],
    range: &ArticleRange,
    verdict: Option<&Verdict>,
) -> ClaimFinding {
    let multi_thread = matches!(claim, Claim::KernelTrip | Claim::BargingOverQueue);
    if multi_thread && logical_cpus(summaries) < 2 && !summaries.is_empty() {
        let why = "this machine has 1 logical CPU, so two threads never hold and want the lock at the same instant";
        return not_measured(claim, range.printed, why);
    }
    match claim {
        Claim::UncontendedCost => uncontended(summaries, range),
        Claim::KernelTrip => super::kernel_trip::answer(summaries, range),
        Claim::BargingOverQueue => barging(summaries, range, verdict),
        Claim::OptimisticReads => optimistic(summaries, range, verdict),
        Claim::LockAcrossWait => across_wait(summaries, range, verdict),
    }
}

/// A summary's median as a figure with its interval.
pub(crate) fn estimate(summary: &Summary) -> Ratio {
    Ratio { value: summary.median, low: summary.median_low, high: summary.median_high }
}

/// "14.2 ns (interval 13.9–14.8)".
pub(crate) fn nanoseconds(figure: &Ratio) -> String {
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
    let is_ratio = !matches!(claim, Claim::UncontendedCost | Claim::KernelTrip);
    let status = judge(&measured, range, is_ratio);
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
        format!("1 in {}", crate::counters::format_count((1.0 / per_op).round() as u64))
    } else {
        percent(per_op)
    }
}

/// A rate for a sentence: "63.8 million", "12 752", "950".
pub(crate) fn per_second(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1} million", rate / 1e6)
    } else {
        crate::counters::format_count(rate.round() as u64)
    }
}

fn uncontended(summaries: &[CellSummary], range: &ArticleRange) -> ClaimFinding {
    let claim = Claim::UncontendedCost;
    let cost = |primitive| find(summaries, Case::Uncontended, primitive, 1, 0.0);
    let Some(mutex) = cost(Primitive::StdMutex) else {
        return not_measured(claim, range.printed, "the uncontended case was not run (--cases)");
    };
    if let Err(short) = evidence::check([&mutex.ns_per_op]) {
        return too_few(claim, range, short);
    }
    let measured = estimate(&mutex.ns_per_op);
    let others: Vec<String> = [
        Primitive::ParkingLotMutex,
        Primitive::SpinLock,
        Primitive::SleepLock,
        Primitive::StdRwLock,
        Primitive::FetchAdd,
    ]
    .into_iter()
    .filter_map(cost)
    .map(|s| format!("{} {} ns", s.primitive.label(), number(s.ns_per_op.median)))
    .collect();
    let sentence = format!(
        "C11: one uncontended acquire and release of a std Mutex took {} on one pinned thread: {}. Beside it: {}.",
        nanoseconds(&measured),
        against_range(&measured, range, "an uncontended synchronized"),
        others.join(", ")
    );
    finding(claim, range, measured, format!("std Mutex {}", nanoseconds(&measured)), sentence)
}

fn barging(summaries: &[CellSummary], range: &ArticleRange, verdict: Option<&Verdict>) -> ClaimFinding {
    let claim = Claim::BargingOverQueue;
    let Some(&threads) = threads_of(summaries, Case::FairVsBarging).first() else {
        return not_measured(
            claim,
            range.printed,
            "fair vs barging needs 2 or more threads (--threads) and did not run",
        );
    };
    let barging = find(summaries, Case::FairVsBarging, Primitive::ParkingLotMutex, threads, 0.0);
    let fifo = find(summaries, Case::FairVsBarging, Primitive::ParkingLotFair, threads, 0.0);
    let (Some(barging), Some(fifo)) = (barging, fifo) else {
        return not_measured(claim, range.printed, "parking_lot's Mutex was not measured both ways");
    };
    if let Err(short) = evidence::check([&barging.ops_per_sec, &fifo.ops_per_sec]) {
        return too_few(claim, range, short);
    }
    let ratio = Ratio::between(&barging.ops_per_sec, &fifo.ops_per_sec);
    let mut sentence = format!(
        "C13 ({threads} threads): parking_lot's Mutex released normally (barging) made {} acquisitions per second, \
         released with unlock_fair (FIFO hand-off) {}: barging had {} the throughput. The busiest thread took {} of the \
         acquisitions when barging and {} with FIFO hand-off (an even split is {}).",
        per_second(barging.ops_per_sec.median),
        per_second(fifo.ops_per_sec.median),
        ratio_with_interval(&ratio),
        percent(barging.max_share.median),
        percent(fifo.max_share.median),
        percent(1.0 / threads as f64)
    );
    if let Some(sleeps) = &fifo.handoffs_per_op {
        sentence.push_str(&format!(
            " unlock_fair hands the lock over only to a waiter asleep in the kernel, and its waiters slept on {} of \
             the acquisitions.",
            sleep_rate(sleeps.median)
        ));
    }
    if !ratio.clearly_above_one() && !ratio.clearly_below_one() {
        sentence = then_what_may_hide_it(sentence, verdict);
    }
    finding(claim, range, ratio, format!("barging {} FIFO", ratio_with_interval(&ratio)), sentence)
}

/// The read share nearest the article's "reads dominate" (99%).
fn dominating_share(summaries: &[CellSummary]) -> Option<f64> {
    let distance = |share: &f64| (share - READS_DOMINATE).abs();
    read_shares_of(summaries).into_iter().min_by(|a, b| distance(a).total_cmp(&distance(b)))
}

fn optimistic(summaries: &[CellSummary], range: &ArticleRange, verdict: Option<&Verdict>) -> ClaimFinding {
    let claim = Claim::OptimisticReads;
    let (Some(share), Some(threads)) = (dominating_share(summaries), judged_threads(summaries, Case::ReadMostly))
    else {
        return not_measured(claim, range.printed, "the read-mostly case was not run (--cases)");
    };
    let cell = |primitive| find(summaries, Case::ReadMostly, primitive, threads, share);
    let (Some(seq), Some(rw)) = (cell(Primitive::SeqLock), cell(Primitive::StdRwLock)) else {
        return not_measured(claim, range.printed, "the seqlock and std RwLock were not both measured");
    };
    if let Err(short) = evidence::check([&seq.reads_per_sec, &rw.reads_per_sec]) {
        return too_few(claim, range, short);
    }
    let ratio = Ratio::between(&seq.reads_per_sec, &rw.reads_per_sec);
    let parking = cell(Primitive::ParkingLotRwLock)
        .map(|pl| {
            format!(
                ", {} parking_lot RwLock's",
                ratio_with_interval(&Ratio::between(&seq.reads_per_sec, &pl.reads_per_sec))
            )
        })
        .unwrap_or_default();
    let seqlocks = summaries.iter().filter(|s| s.primitive == Primitive::SeqLock);
    let (torn, reads) = seqlocks.fold((0, 0), |(torn, reads), s| (torn + s.torn_retries, reads + s.reads));
    let mut sentence = format!(
        "C14 ({threads} threads, {} reads): optimistic reads through a seqlock made {} reads per second, {} std \
         RwLock's{parking}. Over every seqlock trial {torn} torn reads were caught and retried in {} reads, and \
         none was returned: every read's fields were checked.",
        percent(share),
        per_second(seq.reads_per_sec.median),
        ratio_with_interval(&ratio),
        per_second(reads as f64),
    );
    if threads < 2 {
        sentence.push_str(" With one thread no reader count moves between cores: run 2 or more threads to see it.");
    }
    if !ratio.clearly_above_one() && !ratio.clearly_below_one() {
        sentence = then_what_may_hide_it(sentence, verdict);
    }
    finding(claim, range, ratio, format!("seqlock {} std RwLock", ratio_with_interval(&ratio)), sentence)
}

fn across_wait(summaries: &[CellSummary], range: &ArticleRange, verdict: Option<&Verdict>) -> ClaimFinding {
    let claim = Claim::LockAcrossWait;
    let cell = |primitive| summaries.iter().find(|s| s.case == Case::LockAcrossWait && s.primitive == primitive);
    let (Some(under), Some(outside)) = (cell(Primitive::EntryUnderLock), cell(Primitive::ComputeOutsideLock)) else {
        return not_measured(claim, range.printed, "the lock-across-wait case was not run (--cases)");
    };
    if let Err(short) = evidence::check([&under.ops_per_sec, &outside.ops_per_sec]) {
        return too_few(claim, range, short);
    }
    let ratio = Ratio::between(&outside.ops_per_sec, &under.ops_per_sec);
    let mut sentence = format!(
        "C16 ({} threads, {} skewed keys, each miss a {} ms remote call): computing under the shard lock served {} \
         requests per second, outside it {}: {} the throughput without the lock. Threads spent {} of their time \
         waiting for the map under the lock and {} outside it; outside it {} remote calls answered {} distinct keys \
         (a duplicate call is the price of not waiting).",
        under.threads,
        under.keys,
        number(under.wait_ms),
        per_second(under.ops_per_sec.median),
        per_second(outside.ops_per_sec.median),
        ratio_with_interval(&ratio),
        percent(under.blocked_share.median),
        percent(outside.blocked_share.median),
        number(outside.remote_calls.median),
        number(outside.keys_requested.median),
    );
    if !ratio.clearly_above_one() && !ratio.clearly_below_one() {
        sentence = then_what_may_hide_it(sentence, verdict);
    }
    finding(claim, range, ratio, format!("outside {} under", ratio_with_interval(&ratio)), sentence)
}
