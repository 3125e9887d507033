//! Article A's claims (false sharing) from the stride sweep, the four-way control, the
//! counter layouts and the machine's description.

use super::{effect, ratio_text, Answer, Context, Status, DIRECTION};
use crate::counters::{Layout, LayoutSummary};
use crate::format;
use crate::judgement::{Judgement, Target};
use crate::sharing::{false_sharing_over, Case, CaseSummary};
use crate::stats::Ratio;
use crate::stride::{Knee, StrideSummary};
use crate::{counters, evidence, sharing, stride};

/// The threads of the article's four-way control (claims A6 and A7).
const ARTICLE_CONTROL_THREADS: u64 = 2;

/// How far from 1 a "changed nothing" may lie: within 10%.
pub(super) const NO_CHANGE_BOUND: f64 = 0.1;

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "A1" | "A6" | "A7" => four_way(id, context),
        "A2" => shard_count(context),
        "A3" | "A8" | "A9" | "A11" => layouts(id, context),
        "A4" => smallest_stride(context),
        "A10" => adjacent_line(context),
        "A5" | "A12" => line_size(id, context),
        _ => Answer::unanswered(),
    }
}

/// A1 from the control's largest team (the article's headline ran 8 threads), A6 and A7
/// from its team at the article's 2 threads.
fn four_way(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<sharing::Row>() else { return Answer::not_in_run(sharing::EXPERIMENT) };
    let teams = sharing::teams(rows);
    let team = match id {
        "A1" => teams.last().copied(),
        _ => teams.iter().copied().find(|&threads| threads == ARTICLE_CONTROL_THREADS),
    };
    if team.is_none() && !teams.is_empty() {
        let why = format!(
            "the control ran at {} threads, not the article's {ARTICLE_CONTROL_THREADS}: run `contention run sharing \
             --threads {ARTICLE_CONTROL_THREADS}`",
            teams.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ")
        );
        return Answer::without_figure(Status::NotInRun, why);
    }
    let cases = sharing::summarize_team(rows, team);
    let threads = cases.iter().map(|case| case.threads).max().unwrap_or(0);
    let enough = evidence::check(cases.iter().map(|case| &case.elapsed_ms)).is_ok();
    let over = |other: Case| false_sharing_over(&cases, other);
    let missing = || Answer::without_figure(Status::NotInRun, "the four-way control's cases did not all run");
    match id {
        "A1" => match over(Case::Single) {
            Some(ratio) => effect(
                format!(
                    "{threads} threads on {threads} adjacent shards took {} as long as 1 thread",
                    ratio_text(&ratio)
                ),
                &ratio,
                enough,
                context.target_or(Target::point(13.7)),
            )
            .with_estimate(format!("{threads} threads"), ratio),
            None => missing(),
        },
        "A6" => match over(Case::Single) {
            Some(single) => {
                let times: Vec<String> = Case::ALL.iter().filter_map(|&case| time_of(&cases, case)).collect();
                let figure = format!("{}: false sharing {} one thread", times.join(" / "), ratio_text(&single));
                effect(figure, &single, enough, context.target_or(Target::point(2.0)))
            }
            None => missing(),
        },
        _ => match (over(Case::NoSharing), over(Case::TrueSharing), over(Case::Single)) {
            (Some(none), Some(truly), Some(single)) => effect(
                format!("{} ({}, {})", ratio_text(&none), format::ratio(truly.value), format::ratio(single.value)),
                &none,
                enough,
                context.target_or(Target::point(3.87)),
            ),
            _ => missing(),
        },
    }
}

/// A2: the compact array's time per add across the shard-count sweep. "No change" needs
/// evidence of none: the slowest count's interval over the fastest's inside 1 ± 10%, at 2 or
/// more threads (one thread shares no line, whatever the count).
fn shard_count(context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<counters::Row>() else { return Answer::not_in_run(counters::EXPERIMENT) };
    let sweep = counters::summarize_shards(rows);
    let Some(compact) = counters::shard_dependence(&sweep, Layout::Compact) else {
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

fn time_of(cases: &[CaseSummary], case: Case) -> Option<String> {
    let found = cases.iter().find(|summary| summary.case == case)?;
    Some(format!("{} {} ms", case.name(), format::number(found.elapsed_ms.median)))
}

fn layouts(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<counters::Row>() else { return Answer::not_in_run(counters::EXPERIMENT) };
    let summaries = counters::summarize(rows);
    let find = |layout: Layout| summaries.iter().find(|s| s.layout == layout);
    let Some(compact) = find(Layout::Compact) else { return Answer::not_in_run(counters::EXPERIMENT) };
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

/// The stride sweep's summaries and its fastest stride, or why there are none.
fn sweep(context: &Context) -> Result<Vec<StrideSummary>, Answer> {
    let Some(rows) = context.run.rows::<stride::Row>() else { return Err(Answer::not_in_run(stride::EXPERIMENT)) };
    Ok(stride::summarize(rows))
}

/// `bytes`' stride against the fastest of the others (so a stride that was itself the
/// fastest shows how far ahead it was, and can differ).
fn stride_over_fastest(summaries: &[StrideSummary], bytes: u64) -> Option<(&StrideSummary, &StrideSummary, Ratio)> {
    let at = summaries.iter().find(|s| s.stride_bytes == bytes)?;
    let fastest = summaries
        .iter()
        .filter(|s| s.stride_bytes != bytes)
        .min_by(|a, b| a.ns_per_op.median.total_cmp(&b.ns_per_op.median))?;
    Some((at, fastest, Ratio::between(&at.ns_per_op, &fastest.ns_per_op)))
}

fn stride_figure(at: &StrideSummary, fastest: &StrideSummary, ratio: &Ratio) -> String {
    format!(
        "{} B took {} the fastest other stride's time ({} B), {} threads",
        at.stride_bytes,
        ratio_text(ratio),
        fastest.stride_bytes,
        at.threads
    )
}

fn enough_strides(a: &StrideSummary, b: &StrideSummary) -> bool {
    evidence::check([&a.ns_per_op, &b.ns_per_op]).is_ok()
}

/// A4: the 8-byte stride against the fastest.
fn smallest_stride(context: &Context) -> Answer {
    let summaries = match sweep(context) {
        Ok(summaries) => summaries,
        Err(answer) => return answer,
    };
    let Some((at, fastest, ratio)) = stride_over_fastest(&summaries, 8) else {
        return Answer::without_figure(Status::NotInRun, "the 8-byte stride and another did not both run");
    };
    effect(
        stride_figure(at, fastest, &ratio),
        &ratio,
        enough_strides(at, fastest),
        context.target_or(Target::point(122.46)),
    )
}

/// A10, both halves: the 64-byte stride still paid (the article's 1.81x) at 8 threads, where
/// 2 threads were clean (within 10% of the fastest). A run sweeps at 2 threads and at as many
/// as the machine has up to 8: the paying half is judged from its most threads (which the
/// CPU count alone holds to the article's 8, [`Context::cpus`]), the clean half from its 2;
/// the claim reads reproduced only where both halves do.
fn adjacent_line(context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<stride::Row>() else { return Answer::not_in_run(stride::EXPERIMENT) };
    let teams = stride::teams(rows);
    let clean_team = teams.iter().copied().find(|&threads| threads <= stride::ARTICLE_CLEAN_THREADS as u64);
    let paying_team = teams.last().copied().filter(|&threads| threads > stride::ARTICLE_CLEAN_THREADS as u64);
    let half = |threads: u64| {
        let summaries = stride::summarize_team(rows, threads);
        let (at, fastest, ratio) = stride_over_fastest(&summaries, 64)?;
        Some((stride_figure(at, fastest, &ratio), enough_strides(at, fastest), ratio))
    };
    let clean = clean_team.and_then(half).map(|(figure, enough, ratio)| {
        let judged = if enough { Judgement::no_change(&ratio, NO_CHANGE_BOUND) } else { Judgement::too_few_trials() };
        (figure, judged)
    });
    let paying = paying_team.and_then(half).map(|(figure, enough, ratio)| {
        let target = context.target_or(Target::point(1.81));
        (figure, if enough { Judgement::effect(&ratio, target) } else { Judgement::too_few_trials() })
    });
    match (clean, paying) {
        (None, None) => Answer::without_figure(Status::NotInRun, "the 64-byte stride and another did not both run"),
        (Some((figure, clean)), None) => {
            // The CPU count alone decides whether the 8-thread half could have run here.
            let (missing, status) = if context.cpus < 8 {
                ("needs 8 threads", Status::NeedsCores(8))
            } else {
                ("is not in this run (run stride --threads 8)", Status::NotInRun)
            };
            let status = if clean.status == Status::Reproduced { status } else { clean.status };
            Answer::new(figure, status, format!("the 2-thread half {clean}; the 1.81x half {missing}"))
        }
        (None, Some((figure, paid))) => {
            let clean = "the 2-thread half is not in this run (run stride --threads 2)";
            let why = if paid.why.is_empty() { clean.to_string() } else { format!("{}; {clean}", paid.why) };
            Answer::new(figure, paid.status, why)
        }
        (Some((clean_figure, clean)), Some((figure, paid))) => {
            let figure = format!("{figure}; {clean_figure}");
            if clean.status == Status::Reproduced {
                let why = if paid.why.is_empty() { "the 2-thread half was clean".into() } else { paid.why };
                Answer::new(figure, paid.status, why)
            } else {
                Answer::new(figure, clean.status, format!("the 2-thread half {clean}"))
            }
        }
    }
}

/// A5 (whole lines move: 64 B on x86, 128 on Apple's arm64) and A12 (Go pads 64 B on x86,
/// 128 on arm64): this machine's padding need, read from the stride sweep, against the
/// article's figure for its architecture; sysfs's line size is shown beside it.
fn line_size(id: &str, context: &Context) -> Answer {
    let machine = &context.run.manifest.machine;
    let reported =
        machine.largest_line_bytes().map_or("sysfs gives no line size".into(), |line| format!("sysfs: {line} B"));
    let article = match (id, machine.arch.as_str()) {
        (_, "x86_64" | "x86") => Target::point(64.0),
        ("A5", "aarch64") => Target::range(64.0, 128.0),
        ("A12", "aarch64" | "powerpc64") => Target::point(128.0),
        ("A12", "riscv64") => Target::point(64.0),
        ("A12", "s390x") => Target::point(256.0),
        (_, arch) => {
            return Answer::new(reported, Status::NotMeasurable, format!("the article gives no figure for {arch}"));
        }
    };
    let summaries = match sweep(context) {
        Ok(summaries) => summaries,
        Err(answer) => return answer,
    };
    let threads = summaries.first().map_or(0, |s| s.threads);
    match stride::knee(&summaries) {
        None => Answer::not_in_run(stride::EXPERIMENT),
        Some(Knee::TooFewTrials { .. }) => Answer::judged(reported, Judgement::too_few_trials()),
        Some(Knee::NoPenalty { smallest_stride_bytes, .. }) => Answer::new(
            reported,
            Status::NotBeyondNoise,
            format!("the {smallest_stride_bytes}-byte stride paid no penalty here, so the sweep shows no line to pad"),
        ),
        Some(Knee::At { stride_bytes, .. }) => {
            let need = stride_bytes as f64;
            let what = if id == "A5" { "the penalty ends" } else { "padding needed" };
            let go = if id == "A12" { format!(" (Go pads {} B)", format::number(article.low)) } else { String::new() };
            let figure = format!("{what} at {stride_bytes} B in the stride sweep, {threads} threads{go}; {reported}");
            let judged = Judgement::figure(need, need, article);
            // More threads only raise the need (the article's 64 B still paid at 8 threads):
            // a need below the article's from fewer threads is not yet a difference.
            if judged.status == Status::Differs && need < article.low && threads < 8 {
                return Answer::new(figure, Status::NeedsCores(8), "below the article's at fewer than 8 threads");
            }
            Answer::judged(figure, judged)
        }
    }
}
