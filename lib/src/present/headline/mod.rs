//! The headline table every report opens with: one row per article, its headline figure,
//! this machine's counterpart with its interval, and its status. Each row is the claims
//! table's row of the same claim (A1, B6, C1), judged by the one rule
//! ([`crate::judgement`]), so the headline and the claims table cannot disagree. The
//! machine's caveat (its verdict) is said once, above the table.

use super::claims::{settled_answers, Answer};
use super::hooks::Headline;
use super::{Cell, Column, Finding, Present, PresentError, Section, Table, Visitor};
use crate::assess::{assess, MachineRun};
use crate::judgement::legend;
use crate::reference::ClaimReference;
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

/// The machine's caveat, once for the whole table.
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

/// The headline section over one or two runs (a room of three or more has its own table),
/// a row for each article whose experiment some run holds; `None` for no run, a room, or
/// runs that hold none of them.
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
    let mut section = Section::new(HEADLINE, TITLE);
    section.machines = runs.iter().map(Run::label).collect();
    for run in runs {
        section.findings.push(Finding::about(&run.label(), caveat(&assess(&MachineRun::from_run(run)).verdict)));
    }
    let mut columns = vec![Column::text("article"), Column::text("the article's headline")];
    for run in runs {
        columns.push(Column::text("this machine (interval)").in_group(&run.label()));
        columns.push(Column::text("status").in_group(&run.label()));
    }
    let claims = crate::reference::claims()?;
    let rows = articles
        .iter()
        .map(|article| {
            let mut row =
                vec![Cell::linked(article.headline.name, article.anchor), Cell::from(article.headline.figure.clone())];
            for run in runs {
                let answer = claims.iter().find(|c| c.id == article.headline.claim).map_or_else(
                    || Answer::without_figure(crate::judgement::Status::NotMeasurable, "the claim is missing"),
                    |claim: &ClaimReference| settled_answers(std::slice::from_ref(claim), run).remove(0),
                );
                row.push(if answer.figure.is_empty() { Cell::missing() } else { Cell::from(answer.figure.clone()) });
                row.push(Cell::from(answer.status_text()));
            }
            row
        })
        .collect();
    section.tables.push(Table {
        id: "headline",
        caption: "Each article's headline, and this machine's".into(),
        columns,
        rows,
    });
    section.notes.push(Finding::general(format!(
        "{} Each row is the claims table's row of the same claim (A1, B6, C1), held to the same settledness; the \
         article's name leads to its section.",
        legend()
    )));
    Ok(Some(section))
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
