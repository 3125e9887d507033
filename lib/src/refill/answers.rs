//! The cache refill's answer to article C's C8: the cost per line after a switch that sent
//! the working set back to memory, against the article's 80 to 120 ns.

use super::{article_case, Standing};
use crate::format;
use crate::judgement::{Judgement, Status, Target};
use crate::kit::{Answer, Context};

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "C8" => refill(context, context.target_or(Target::range(80.0, 120.0))),
        _ => Answer::unanswered(),
    }
}

/// C8: the cost per line after a switch that sent the set back to memory.
fn refill(context: &Context, range: Target) -> Answer {
    let Some(rows) = context.run.rows::<super::Row>() else {
        return Answer::not_in_run(super::EXPERIMENT);
    };
    let cases = super::summarize(rows);
    let Some(case) = article_case(&cases) else { return Answer::not_in_run(super::EXPERIMENT) };
    let after = &case.switched_ns_per_line;
    let figure = format!(
        "{} ns per line ({}) after the other thread wrote {} ({} ns warm)",
        format::number(after.median),
        format::interval(after.median_low, after.median_high),
        format::bytes(case.evict_bytes),
        format::number(case.warm_ns_per_line.median)
    );
    let judged = match Standing::of(after, (range.low, range.high)) {
        Standing::Within => Judgement::new(Status::Reproduced, ""),
        Standing::Below => Judgement::new(Status::Differs, "below the article's"),
        Standing::Above => Judgement::new(Status::Differs, "above the article's"),
        Standing::TooFewTrials => Judgement::too_few_trials(),
    };
    Answer::judged(figure, judged)
}
