//! The stride sweep's answers to article A's claims: A4 (the 8-byte stride against the
//! fastest) and A10 (the adjacent line: paying at 8 threads, clean at 2).

use super::StrideSummary;
use crate::evidence;
use crate::judgement::Status;
use crate::judgement::{Judgement, Target};
use crate::kit::{effect, ratio_text, Answer, Context, NO_CHANGE_BOUND};
use crate::stats::Ratio;

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "A4" => smallest_stride(context),
        "A10" => adjacent_line(context),
        _ => Answer::unanswered(),
    }
}

/// The stride sweep's summaries and its fastest stride, or why there are none.
pub fn sweep(context: &Context) -> Result<Vec<StrideSummary>, Answer> {
    let Some(rows) = context.run.rows::<super::Row>() else { return Err(Answer::not_in_run(super::EXPERIMENT)) };
    Ok(super::summarize(rows))
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
    let Some(rows) = context.run.rows::<super::Row>() else { return Answer::not_in_run(super::EXPERIMENT) };
    let teams = super::teams(rows);
    let clean_team = teams.iter().copied().find(|&threads| threads <= super::ARTICLE_CLEAN_THREADS as u64);
    let paying_team = teams.last().copied().filter(|&threads| threads > super::ARTICLE_CLEAN_THREADS as u64);
    let half = |threads: u64| {
        let summaries = super::summarize_team(rows, threads);
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
