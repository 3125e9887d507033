//! The headline every report opens with: the machine's verdict in one line, per article a
//! figure of its headline against this machine's ([`figure`]), the strip of the 42 claims
//! ([`strip`]), the rules folded away, and a table of the same numbers: per article its
//! headline figure, this machine's counterpart with its interval, and its status. Each row is the claims
//! table's row of the same claim (A1, B6, C1), judged by the one rule
//! ([`crate::judgement`]), so the headline and the claims table cannot disagree. The
//! machine's caveat (its verdict) is said once, above the table.

mod figure;
mod strip;

use super::claims::{settled_answers, Answer};
use super::hooks::Headline;
use super::{Cell, Column, Finding, Present, PresentError, Section, Table, Visitor};
use crate::assess::{assess, MachineRun};
use crate::judgement::{legend, Status};
use crate::reference::ClaimReference;
use crate::view::Details;
use crate::registry::Experiment;
use crate::runs::Run;
use crate::verdict::Verdict;

/// The headline section's anchor (it is no experiment's).
pub const HEADLINE: &str = "headline";
pub const TITLE: &str = "The articles' headlines on this machine";

/// One article: its section's anchor and its experiment's headline row.
struct Article {
    anchor: &'static str,
    headline: Headline,
}

/// The articles' rows, in the registry's order: each experiment's [`Present::headline`].
fn articles() -> Result<Vec<Article>, PresentError> {
    let mut articles = Vec::new();
    for &experiment in Experiment::ALL {
        if let Some(headline) = experiment.visit(HeadlineOf)? {
            articles.push(Article { anchor: experiment.name(), headline });
        }
    }
    Ok(articles)
}

struct HeadlineOf;

impl Visitor for HeadlineOf {
    type Output = Result<Option<Headline>, PresentError>;
    fn visit<K: Present>(self) -> Self::Output {
        K::headline()
    }
}

/// The machine's verdict in one line, for the first screen; its reasons are in [`caveat`].
pub fn verdict_line(verdict: &Verdict) -> String {
    let fitness = verdict.fitness.as_str();
    match verdict.reasons.len() {
        0 => format!("This machine's verdict is {fitness}: nothing its checks look at stands in the way."),
        1 => format!("This machine's verdict is {fitness}: one of its checks can shrink or hide the articles' effects."),
        count => format!(
            "This machine's verdict is {fitness}: {count} of its checks can shrink or hide the articles' effects."
        ),
    }
}

/// The machine's caveat, once for the whole table: its verdict's reasons and what they mean.
pub fn caveat(verdict: &Verdict) -> String {
    if verdict.reasons.is_empty() {
        return format!(
            "This machine's verdict is {}: nothing its checks look at stands in the way, so a status below is the \
             machine's answer.",
            verdict.fitness.as_str()
        );
    }
    let labels: Vec<&str> = verdict.reasons.iter().map(|reason| reason.kind.label()).collect();
    format!(
        "This machine's verdict is {} ({}): that can shrink or hide the articles' effects, so a status short of \
         reproduced may be the machine's doing, not the article's. Each section says what it measured.",
        verdict.fitness.as_str(),
        labels.join("; ")
    )
}

/// One run's answers: every claim's, settled, in the claims table's order.
struct Answered<'a> {
    run: &'a Run,
    answers: Vec<Answer>,
}

/// The headline section over one or two runs (a room of three or more has its own table),
/// a row and a figure for each article whose experiment some run holds, and for one run
/// the strip of its claims; `None` for no run, a room, or runs that hold none of them.
pub fn headline_section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
    if runs.is_empty() || runs.len() > 2 {
        return Ok(None);
    }
    let measured =
        |article: &Article| runs.iter().any(|run| run.manifest.experiments.iter().any(|e| e.name == article.anchor));
    let articles: Vec<Article> = articles()?.into_iter().filter(measured).collect();
    if articles.is_empty() {
        return Ok(None);
    }
    let claims = crate::reference::claims()?;
    let answered: Vec<Answered> =
        runs.iter().map(|run| Answered { run, answers: settled_answers(&claims, run) }).collect();
    let mut section = Section::new(HEADLINE, TITLE);
    section.machines = runs.iter().map(Run::label).collect();
    let mut reasons = Vec::new();
    for run in runs {
        let verdict = assess(&MachineRun::from_run(run)).verdict;
        section.findings.push(Finding::about(&run.label(), verdict_line(&verdict)));
        reasons.push(if runs.len() > 1 { format!("{}: {}", run.label(), caveat(&verdict)) } else { caveat(&verdict) });
    }
    let comparing = runs.len() > 1;
    for one in &answered {
        for article in &articles {
            let answer = headline_answer(&claims, &one.answers, article.headline.claim);
            let machine = comparing.then(|| one.run.label());
            section.add_figure(figure::headline_figure(&article.headline, &claims, answer, machine.as_deref()));
        }
    }
    if let [one] = answered.as_slice() {
        section.strip = Some(strip::claims_strip(&claims, &one.answers, &articles));
    }
    section.tables.push(table(&articles, &claims, &answered));
    section.details.push(Details { summary: "Why this verdict".into(), paragraphs: reasons });
    let mut rules = vec![
        legend(),
        "Each headline is the claims table's row of the same claim (A1, B6, C1), held to the same settledness; the \
         article's name leads to its section, the status to the claim's row."
            .to_string(),
    ];
    rules.extend(section.strip.as_ref().map(|strip| format!("The strip's letters: {}.", strip.key_text())));
    section.details.push(Details { summary: "What each status means".into(), paragraphs: rules });
    Ok(Some(section))
}

/// The answer to `claim` among `answers` (in the claims' order).
fn headline_answer<'a>(claims: &[ClaimReference], answers: &'a [Answer], claim: &str) -> Option<&'a Answer> {
    claims.iter().position(|c| c.id == claim).and_then(|index| answers.get(index))
}

/// The table below the figures: per article, its figure and setting, and each machine's
/// figure with its interval and setting, and its status linking to the claim's row.
fn table(articles: &[Article], claims: &[ClaimReference], answered: &[Answered]) -> Table {
    let mut columns = vec![Column::text("article"), Column::text("the article's headline")];
    for one in answered {
        columns.push(Column::text("this machine (interval)").in_group(&one.run.label()));
        columns.push(Column::text("status").in_group(&one.run.label()));
    }
    let rows = articles
        .iter()
        .map(|article| {
            let headline = &article.headline;
            let printed = claims.iter().find(|c| c.id == headline.claim).and_then(|c| c.low.clone());
            let figure = printed.map_or_else(Cell::missing, |low| Cell::from(format!("{}: {low}x", headline.setting)));
            let mut row = vec![Cell::linked(headline.name, article.anchor), figure];
            for one in answered {
                let answer = headline_answer(claims, &one.answers, headline.claim);
                let estimate = answer.and_then(|answer| answer.estimate.as_ref());
                row.push(estimate.map_or_else(Cell::missing, |estimate| Cell::from(estimate.text())));
                let status = answer.map_or(Status::NotMeasurable, |answer| answer.status);
                row.push(Cell::linked(status.label(), &crate::present::claims::anchor(headline.claim)));
            }
            row
        })
        .collect();
    Table { id: "headline", caption: "Each article's headline, and this machine's".into(), columns, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_figures_read_from_the_reference_data() {
        let articles = articles().unwrap();
        assert!(
            articles[0].headline.figure.contains("13.7x") && articles[0].headline.figure.contains("2.264 s vs 166 ms")
        );
        assert!(
            articles[1].headline.figure.contains("GOGC=11300 ran 8.75x GOGC=100"),
            "{}",
            articles[1].headline.figure
        );
        assert!(articles[2].headline.figure.contains("2.3 s vs 210 ms"), "{}", articles[2].headline.figure);
        let anchors: Vec<&str> = articles.iter().map(|a| a.anchor).collect();
        assert_eq!(anchors, ["sharing", "gc", "pool"]);
        let claims = crate::reference::claims().unwrap();
        assert!(articles.iter().all(|a| claims.iter().any(|c| c.id == a.headline.claim)), "each row is a claim's");
    }
}
