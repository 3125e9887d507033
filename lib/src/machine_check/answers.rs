//! The machine's answers: A5 and A12 (the cache line's size: the padding this machine needs,
//! read from the stride sweep, against the article's figure for its architecture) and B8
//! (per-core clocks, which the lab does not record).

use crate::format;
use crate::judgement::Status;
use crate::judgement::{Judgement, Target};
use crate::kit::{Answer, Context};
use crate::stride::{self, Knee};

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "A5" | "A12" => line_size(id, context),
        "B8" => Answer::without_figure(
            Status::NotMeasurable,
            "the lab does not record per-core clock frequencies (most guests hide them)",
        ),
        _ => Answer::unanswered(),
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
    let summaries = match stride::answers::sweep(context) {
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
