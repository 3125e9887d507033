//! Each claim's figure and sentence, computed from the summaries, and all five in order.

use super::claim::{
    against_range, article_range, estimate, finding, judged_threads, logical_cpus, nanoseconds, not_measured,
    per_second, sleep_rate, too_few, ArticleRange, Claim, ClaimFinding, LocksReference,
};
use super::summary::{find, read_shares_of, threads_of, CellSummary};
use super::{Case, Primitive};
use crate::evidence;
use crate::format::{number, percent, ratio_with_interval};
use crate::stats::Ratio;
use crate::verdict::{then_what_may_hide_it, Verdict};

/// The read share the article's "reads dominate" is judged at.
const READS_DOMINATE: f64 = 0.99;

/// Each of the five claims, in [`Claim::ALL`] order, answered from `summaries`; where an
/// effect does not show, what `verdict` says may hide it.
pub fn claims(summaries: &[CellSummary], article: &[LocksReference], verdict: Option<&Verdict>) -> Vec<ClaimFinding> {
    Claim::ALL
        .into_iter()
        .map(|claim| match article_range(article, claim) {
            None => not_measured(claim, "-", "the article's figure is missing from data/reference/locks.csv"),
            Some(range) => answer(claim, summaries, &range, verdict),
        })
        .collect()
}

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
