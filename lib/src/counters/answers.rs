//! The counter layouts' answers to article A's claims (A2 the shard count, A3, A8, A9 and
//! A11 the layouts) and to C15 (LongAdder over AtomicLong: the JVM's contended cells where a
//! JDK ran beside the locks, else the striped layout over one shared atomic).

use super::{Layout, LayoutSummary};
use crate::evidence;
use crate::format;
use crate::judgement::Status;
use crate::judgement::{Judgement, Target};
use crate::kit::{effect, ratio_text, Answer, Context, DIRECTION, NO_CHANGE_BOUND};
use crate::locks::{summarize_java, Case, JavaPrimitive, JavaRow};
use crate::stats::Ratio;

/// C15's setting: LongAdder against AtomicLong at 16 threads.
const ARTICLE_THREADS: u64 = 16;

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "A2" => shard_count(context),
        "A3" | "A8" | "A9" | "A11" => layouts(id, context),
        "C15" => adders(context),
        _ => Answer::unanswered(),
    }
}

/// A2: the compact array's time per add across the shard-count sweep. "No change" needs
/// evidence of none: the slowest count's interval over the fastest's inside 1 ± 10%, at 2 or
/// more threads (one thread shares no line, whatever the count).
fn shard_count(context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<super::Row>() else { return Answer::not_in_run(super::EXPERIMENT) };
    let sweep = super::summarize_shards(rows);
    let Some(compact) = super::shard_dependence(&sweep, Layout::Compact) else {
        return Answer::without_figure(
            Status::NotInRun,
            "the shard-count sweep did not run (two shard counts or more)",
        );
    };
    let (low, high) = sweep.iter().fold((u64::MAX, 0), |(l, h), s| (l.min(s.shards), h.max(s.shards)));
    let threads = sweep.iter().map(|s| s.threads).max().unwrap_or(0);
    let ratio = compact.slowest_over_fastest;
    let figure = format!(
        "compact, {low} to {high} shards, {threads} threads: {} shards took {} the time per add of {} shards",
        compact.slowest_shards,
        ratio_text(&ratio),
        compact.fastest_shards
    );
    if threads < 2 {
        return Answer::new(figure, Status::NotMeasurable, "one thread shares no line: run 2 or more threads");
    }
    if evidence::check(sweep.iter().map(|s| &s.ns_per_increment)).is_err() {
        return Answer::judged(figure, Judgement::too_few_trials());
    }
    Answer::judged(figure, Judgement::no_change(&ratio, NO_CHANGE_BOUND))
}

fn layouts(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<super::Row>() else { return Answer::not_in_run(super::EXPERIMENT) };
    let summaries = super::summarize(rows);
    let find = |layout: Layout| summaries.iter().find(|s| s.layout == layout);
    let Some(compact) = find(Layout::Compact) else { return Answer::not_in_run(super::EXPERIMENT) };
    let threads = compact.threads;
    let enough = |other: &LayoutSummary| evidence::check([&compact.elapsed_ms, &other.elapsed_ms]).is_ok();
    let not_run =
        |layout: Layout| Answer::without_figure(Status::NotInRun, format!("the {} layout did not run", layout.name()));
    let faster = |layout: Layout, words: &str, target: Target| -> Answer {
        match find(layout).and_then(|s| Some((s, s.faster_than_compact?))) {
            Some((summary, ratio)) => effect(
                format!("{words} {} faster than compact, {threads} threads", ratio_text(&ratio)),
                &ratio,
                enough(summary),
                target,
            ),
            None => not_run(layout),
        }
    };
    match id {
        "A3" => match find(Layout::Mutex) {
            Some(mutex) => {
                let slower = Ratio::between(&mutex.ns_per_increment, &compact.ns_per_increment);
                effect(
                    format!("Mutex<i64> took {} the compact atomics' time per increment", ratio_text(&slower)),
                    &slower,
                    enough(mutex),
                    DIRECTION,
                )
            }
            None => not_run(Layout::Mutex),
        },
        "A8" => {
            let mut answer = faster(Layout::CachePadded, "CachePadded", context.target_or(Target::point(50.95)));
            if let Some(memory) = find(Layout::CachePadded).and_then(|s| s.memory_vs_compact) {
                answer.figure += &format!(" for {} the memory", format::ratio(memory));
            }
            answer
        }
        "A9" => match find(Layout::CachePadded) {
            Some(padded) => {
                // The article's counters have 8 shards each, whatever threads this run had.
                let per_shard = |s: &LayoutSummary| s.bytes_used / s.cells.max(1);
                let megabytes = |s: &LayoutSummary| per_shard(s) as f64 * 8.0 * 100_000.0 / 1e6;
                let figure = format!(
                    "{} MB vs {} MB ({} vs {} B per shard, 8 shards each)",
                    format::number(megabytes(padded)),
                    format::number(megabytes(compact)),
                    per_shard(padded),
                    per_shard(compact)
                );
                Answer::set_up(figure, "arithmetic: the layouts' sizes times 100 000 counters")
            }
            None => not_run(Layout::CachePadded),
        },
        _ => faster(Layout::LocalFlush, "local accumulation flushed now and then:", DIRECTION),
    }
}

/// C15: LongAdder over AtomicLong at 16 threads, from the JVM's contended cells when they
/// ran, else the counters' striped layout over one shared atomic.
fn adders(context: &Context) -> Answer {
    let java = context.run.runtime_rows::<JavaRow>().filter(|rows| !rows.is_empty()).map(summarize_java);
    let java = java.as_deref();
    let target = context.target_or(Target::range(8.0, 10.0));
    let rust = striped(context, target);
    // The article's 16 threads where the JVM ran them, else the count nearest.
    let pick = |primitive| {
        let cells = java?.iter().filter(|c| c.case == Case::Contended && c.primitive == primitive);
        cells.min_by_key(|c| c.threads.abs_diff(ARTICLE_THREADS))
    };
    match (pick(JavaPrimitive::LongAdder), pick(JavaPrimitive::AtomicLong)) {
        (Some(adder), Some(atomic)) if adder.threads == atomic.threads => {
            let ratio = Ratio::between(&adder.ops_per_sec, &atomic.ops_per_sec);
            let enough = evidence::check([&adder.ops_per_sec, &atomic.ops_per_sec]).is_ok();
            let jvm = effect(
                format!(
                    "JVM: LongAdder {} AtomicLong, {} threads; Rust analogue: {}",
                    ratio_text(&ratio),
                    adder.threads,
                    rust.figure
                ),
                &ratio,
                enough,
                target,
            );
            let why = match jvm.why.as_str() {
                "" => "judged from the JVM's rows".to_string(),
                why => format!("{why}; judged from the JVM's rows"),
            };
            Answer::new(jvm.figure, jvm.status, why)
        }
        _ if rust.figure.is_empty() => rust,
        _ => Answer { figure: format!("Rust: {}", rust.figure), ..rust },
    }
}

/// The counters' striped layout (LongAdder's cells) over one shared atomic (AtomicLong).
fn striped(context: &Context, target: Target) -> Answer {
    let Some(rows) = context.run.rows::<super::Row>() else { return Answer::not_in_run(super::EXPERIMENT) };
    let summaries = super::summarize(rows);
    let find = |layout: Layout| summaries.iter().find(|s| s.layout == layout);
    let (Some(shared), Some(striped)) = (find(Layout::SharedAtomic), find(Layout::Striped)) else {
        return Answer::without_figure(Status::NotInRun, "the shared-atomic and striped layouts did not both run");
    };
    let ratio = Ratio::between(&shared.ns_per_increment, &striped.ns_per_increment);
    let figure = format!("striped {} faster than one shared atomic, {} threads", ratio_text(&ratio), striped.threads);
    effect(figure, &ratio, evidence::check([&shared.elapsed_ms, &striped.elapsed_ms]).is_ok(), target)
}
