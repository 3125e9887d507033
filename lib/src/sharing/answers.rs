//! The four-way control's answers to article A's claims: A1 (the headline's slowdown), A6
//! and A7 (the control's cases at the article's 2 threads).

use super::{false_sharing_over, Case, CaseSummary};
use crate::evidence;
use crate::format;
use crate::judgement::Status;
use crate::judgement::Target;
use crate::kit::{effect, ratio_text, Answer, Context};

/// The threads of the article's four-way control (claims A6 and A7).
const ARTICLE_CONTROL_THREADS: u64 = 2;

pub fn answer(id: &str, context: &Context) -> Answer {
    match id {
        "A1" | "A6" | "A7" => four_way(id, context),
        _ => Answer::unanswered(),
    }
}

/// A1 from the control's largest team (the article's headline ran 8 threads), A6 and A7
/// from its team at the article's 2 threads.
fn four_way(id: &str, context: &Context) -> Answer {
    let Some(rows) = context.run.rows::<super::Row>() else { return Answer::not_in_run(super::EXPERIMENT) };
    let teams = super::teams(rows);
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
    let cases = super::summarize_team(rows, team);
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

fn time_of(cases: &[CaseSummary], case: Case) -> Option<String> {
    let found = cases.iter().find(|summary| summary.case == case)?;
    Some(format!("{} {} ms", case.name(), format::number(found.elapsed_ms.median)))
}
