//! Article A's claims (false sharing) from the stride sweep, the four-way control, the
//! counter layouts and the machine's description.

use super::{direction, judged, ratio_text, Answer, Context, Status};
use crate::counters::{Layout, LayoutSummary};
use crate::format;
use crate::sharing::{false_sharing_over, Case, CaseSummary};
use crate::stats::Ratio;
use crate::stride::StrideSummary;
use crate::{counters, evidence, sharing, stride};

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "A1" | "A6" | "A7" => four_way(id, context),
        "A2" => shard_count(context),
        "A3" | "A8" | "A9" | "A11" => layouts(id, context),
        "A4" | "A10" => strides(id, context),
        "A5" => line_size(context),
        "A12" => padding(context),
        _ => Answer::without_figure(Status::NotMeasurable, "no measurement answers this claim yet"),
    }
}

fn four_way(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<sharing::Row>() else { return Answer::not_in_run(sharing::EXPERIMENT) };
    let cases = sharing::summarize(rows);
    let threads = cases.iter().map(|case| case.threads).max().unwrap_or(0);
    let enough = evidence::check(cases.iter().map(|case| &case.elapsed_ms)).is_ok();
    let over = |other: Case| false_sharing_over(&cases, other);
    match id {
        "A1" => match over(Case::Single) {
            Some(ratio) => judged(
                format!("false sharing {} one thread's time, {threads} threads", ratio_text(&ratio)),
                &ratio,
                enough,
            ),
            None => Answer::not_in_run(sharing::EXPERIMENT),
        },
        "A6" => {
            let times: Vec<String> = Case::ALL.iter().filter_map(|&case| time_of(&cases, case)).collect::<Vec<_>>();
            let checks = [over(Case::NoSharing), over(Case::Single)];
            let status = match checks {
                [Some(none), Some(single)] => match (direction(&none, enough), direction(&single, enough)) {
                    (Status::Reproduced, Status::Reproduced) => Status::Reproduced,
                    (Status::Differs, _) | (_, Status::Differs) => Status::Differs,
                    _ => Status::NotBeyondNoise,
                },
                _ => Status::NotBeyondNoise,
            };
            Answer::new(times.join(" / "), status, "judged by false sharing against no sharing and one thread")
        }
        _ => match (over(Case::NoSharing), over(Case::TrueSharing), over(Case::Single)) {
            (Some(none), Some(truly), Some(single)) => judged(
                format!("{} ({}, {})", ratio_text(&none), format::ratio(truly.value), format::ratio(single.value)),
                &none,
                enough,
            ),
            _ => Answer::not_in_run(sharing::EXPERIMENT),
        },
    }
}

/// A2: the compact array's time per add across the shard-count sweep. The article's "no
/// change" is reproduced when the slowest shard count's interval overlaps the fastest's.
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
    let ratio = compact.slowest_over_fastest;
    let figure = format!(
        "compact, {low} to {high} shards: {} shards took {} the time per add of {} shards",
        compact.slowest_shards,
        ratio_text(&ratio),
        compact.fastest_shards
    );
    if evidence::check(sweep.iter().map(|s| &s.ns_per_increment)).is_err() {
        Answer::new(figure, Status::NotBeyondNoise, "too few trials")
    } else if ratio.clearly_above_one() {
        Answer::new(figure, Status::Differs, "the shard count changed the time per add")
    } else {
        Answer::new(figure, Status::Reproduced, "")
    }
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
    let faster = |layout: Layout, words: &str| -> Answer {
        match find(layout).and_then(|s| Some((s, s.faster_than_compact?))) {
            Some((summary, ratio)) => judged(
                format!("{words} {} faster than compact, {threads} threads", ratio_text(&ratio)),
                &ratio,
                enough(summary),
            ),
            None => Answer::without_figure(Status::NotInRun, format!("the {} layout did not run", layout.name())),
        }
    };
    match id {
        "A3" => match find(Layout::Mutex) {
            Some(mutex) => {
                let slower = Ratio::between(&mutex.ns_per_increment, &compact.ns_per_increment);
                judged(
                    format!("Mutex<i64> took {} the compact atomics' time per increment", ratio_text(&slower)),
                    &slower,
                    enough(mutex),
                )
            }
            None => Answer::without_figure(Status::NotInRun, "the mutex layout did not run"),
        },
        "A8" => {
            let mut answer = faster(Layout::CachePadded, "CachePadded");
            if let Some(memory) = find(Layout::CachePadded).and_then(|s| s.memory_vs_compact) {
                answer.figure += &format!(" for {} the memory", format::ratio(memory));
            }
            answer
        }
        "A9" => match find(Layout::CachePadded) {
            Some(padded) => {
                // The article's counters have 8 shards each, whatever threads this run had.
                let megabytes = |s: &LayoutSummary| (s.bytes_used / s.cells.max(1)) as f64 * 8.0 * 100_000.0 / 1e6;
                let (padded_mb, compact_mb) = (megabytes(padded), megabytes(compact));
                // Arithmetic on the layouts' sizes: the same padding gives the same bytes.
                let same = (padded_mb / 100.0 - 1.0).abs() < 0.1 && (compact_mb / 6.4 - 1.0).abs() < 0.1;
                let (status, why) =
                    if same { (Status::Reproduced, "") } else { (Status::Differs, "this target pads otherwise") };
                let figure = format!(
                    "{} MB vs {} MB ({} vs {} B per shard, 8 shards each)",
                    format::number(padded_mb),
                    format::number(compact_mb),
                    padded.bytes_used / padded.cells.max(1),
                    compact.bytes_used / compact.cells.max(1)
                );
                Answer::new(figure, status, why)
            }
            None => Answer::without_figure(Status::NotInRun, "the cache-padded layout did not run"),
        },
        _ => faster(Layout::LocalFlush, "local accumulation flushed now and then:"),
    }
}

/// C15 (article C's LongAdder against AtomicLong at 16 threads): the striped counter against
/// one shared atomic.
pub fn striped(context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<counters::Row>() else { return Answer::not_in_run(counters::EXPERIMENT) };
    let summaries = counters::summarize(rows);
    let find = |layout: Layout| summaries.iter().find(|s| s.layout == layout);
    let (Some(shared), Some(striped)) = (find(Layout::SharedAtomic), find(Layout::Striped)) else {
        return Answer::without_figure(Status::NotInRun, "the shared-atomic and striped layouts did not both run");
    };
    let ratio = Ratio::between(&shared.ns_per_increment, &striped.ns_per_increment);
    let figure = format!("striped {} faster than one shared atomic, {} threads", ratio_text(&ratio), striped.threads);
    if striped.threads < 16 {
        return Answer::needs_cores(figure, 16, context.cpus);
    }
    judged(figure, &ratio, evidence::check([&shared.elapsed_ms, &striped.elapsed_ms]).is_ok())
}

fn strides(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<stride::Row>() else { return Answer::not_in_run(stride::EXPERIMENT) };
    let summaries = stride::summarize(rows);
    let fastest = summaries.iter().min_by(|a, b| a.ns_per_op.median.total_cmp(&b.ns_per_op.median));
    let at = |bytes: u64| summaries.iter().find(|s| s.stride_bytes == bytes);
    let stride_bytes = if id == "A4" { 8 } else { 64 };
    let (Some(fastest), Some(at)) = (fastest, at(stride_bytes)) else {
        return Answer::without_figure(Status::NotInRun, format!("the {stride_bytes}-byte stride did not run"));
    };
    let ratio = Ratio::between(&at.ns_per_op, &fastest.ns_per_op);
    let figure = format!(
        "{stride_bytes} B took {} the fastest stride's time ({} B), {} threads",
        ratio_text(&ratio),
        fastest.stride_bytes,
        at.threads
    );
    if id == "A10" && at.threads < 8 {
        return Answer::needs_cores(figure, 8, context.cpus);
    }
    if at.stride_bytes == fastest.stride_bytes {
        return Answer::new(figure, Status::Differs, "it was the fastest stride here");
    }
    judged(figure, &ratio, enough_strides(at, fastest))
}

fn enough_strides(a: &StrideSummary, b: &StrideSummary) -> bool {
    evidence::check([&a.ns_per_op, &b.ns_per_op]).is_ok()
}

fn line_size(context: &Context) -> Answer {
    let machine = &context.run.manifest.machine;
    let Some(line) = machine.largest_line_bytes() else {
        return Answer::without_figure(Status::NotMeasurable, "sysfs gives no cache line size here");
    };
    let figure = format!("{line} B ({}, sysfs coherency_line_size)", machine.arch);
    match (machine.arch.as_str(), line) {
        ("x86_64" | "x86", 64) | ("aarch64", 64 | 128) => Answer::new(figure, Status::Reproduced, ""),
        ("x86_64" | "x86" | "aarch64", _) => {
            Answer::new(figure, Status::Differs, "the article gives 64 B for x86 and 128 B for Apple's arm64")
        }
        _ => Answer::new(figure, Status::NotMeasurable, "the article names x86 and arm64 only"),
    }
}

/// Go's `CacheLinePadSize` for this architecture beside the padding the Rust ecosystem
/// (crossbeam's `CachePadded`) chooses.
fn padding(context: &Context) -> Answer {
    let machine = &context.run.manifest.machine;
    let go = match machine.arch.as_str() {
        "x86_64" | "x86" | "riscv64" => Some(64),
        "aarch64" | "powerpc64" => Some(128),
        "s390x" => Some(256),
        _ => None,
    };
    let padded = machine.cache_padded_bytes;
    let Some(go) = go else {
        return Answer::new(
            format!("CachePadded: {padded} B"),
            Status::NotMeasurable,
            "the article names no padding for this architecture",
        );
    };
    let figure = format!("crossbeam's CachePadded: {padded} B on {} (Go: {go} B)", machine.arch);
    if padded == go {
        Answer::new(figure, Status::Reproduced, "")
    } else {
        Answer::new(
            figure,
            Status::Differs,
            "crossbeam pads x86_64 to 128 B because its spatial prefetcher pulls lines in pairs",
        )
    }
}
