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
use super::{Cell, Column, Finding, Present, PresentError, Section, Table};
use crate::judgement::{legend, Status};
use crate::kit::HeadlineRow;
use crate::machine_check::assess::verdict_of;
use crate::reference::ClaimReference;
use crate::registry::{Experiment, Visitor};
use crate::runs::Run;
use crate::verdict::Verdict;
use crate::view::{Details, Strip};

/// The headline section's anchor (it is no experiment's).
pub const HEADLINE: &str = "headline";
pub const TITLE: &str = "The articles' headlines on this machine";

/// One article: its section's anchor and its experiment's headline row.
struct Article {
    anchor: &'static str,
    headline: HeadlineRow,
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
    type Output = Result<Option<HeadlineRow>, PresentError>;
    fn visit<K: Present>(self) -> Self::Output {
        K::headline()
    }
}

/// The machine's verdict in one line, for the first screen; its reasons are in [`caveat`].
pub fn verdict_line(verdict: &Verdict) -> String {
    let fitness = verdict.fitness.as_str();
    match verdict.reasons.len() {
        0 => format!("This machine's verdict is {fitness}: nothing its checks look at stands in the way."),
        1 => {
            format!("This machine's verdict is {fitness}: one of its checks can shrink or hide the articles' effects.")
        }
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
        let verdict = verdict_of(run);
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
    let rules = vec![
        legend(),
        "Each headline is the claims table's row of the same claim (A1, B6, C1), held to the same settledness; the \
         article's name leads to its section, the status to the claim's row."
            .to_string(),
    ];
    section.details.push(Details { summary: "What each status means".into(), paragraphs: rules });
    Ok(Some(section))
}

/// The strip of `run`'s claims alone, as its report's headline shows it (a class page's seat).
pub fn claims_strip(run: &Run) -> Result<Strip, PresentError> {
    let claims = crate::reference::claims()?;
    let articles: Vec<Article> = articles()?;
    Ok(strip::claims_strip(&claims, &settled_answers(&claims, run), &articles))
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

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");

    #[test]
    fn the_strip_has_a_linked_tile_per_claim_and_the_claims_sections_tally() {
        let run = Run::load(FIXTURE).unwrap();
        let runs = std::slice::from_ref(&run);
        let headline = headline_section(runs).unwrap().unwrap();
        let claims_section = crate::present::claims::section(runs).unwrap();
        let strip = headline.strip.as_ref().expect("one run has a strip");
        assert_eq!(strip.tally, claims_section.findings[0].text, "the strip's counts are the claims section's");
        let rows = &claims_section.table("claims").unwrap().rows;
        let tiles: Vec<&crate::view::Tile> = strip.groups.iter().flat_map(|group| &group.tiles).collect();
        assert_eq!(tiles.len(), rows.len(), "one tile per claim");
        for (tile, row) in tiles.iter().zip(rows) {
            assert_eq!(row[0].text, tile.id);
            assert_eq!(
                Some(tile.link.trim_start_matches('#')),
                row[0].anchor.as_deref(),
                "{} links to its row",
                tile.id
            );
            assert!(row[5].text.starts_with(&tile.status), "{}: {} / {}", tile.id, tile.status, row[5].text);
        }
        let labels: Vec<&str> = strip.groups.iter().map(|group| group.label.as_str()).collect();
        assert_eq!(labels, ["A. False sharing", "B. The collector's ratio", "C. Thread-pool sizing"]);
        for (line, group) in strip.lines().iter().zip(&strip.groups) {
            let letters: String = group.tiles.iter().map(|tile| tile.letter).collect();
            assert!(line.starts_with(&group.label) && line.ends_with(&letters), "{line}");
        }
        assert!(crate::present::text::section(&headline).contains(&strip.lines()[2]), "the terminal prints it");
    }

    #[test]
    fn the_first_screen_has_a_figure_per_article_a_one_line_verdict_and_the_rules_folded() {
        let run = Run::load(FIXTURE).unwrap();
        let headline = headline_section(std::slice::from_ref(&run)).unwrap().unwrap();
        let ids: Vec<&str> = headline.figures.iter().map(|figure| figure.id).collect();
        assert_eq!(ids, ["A1", "B6", "C1"]);
        assert!(headline.figures.iter().all(|figure| figure.svg.contains("<circle")), "each with the machine's dot");
        assert_eq!(headline.findings.len(), 1);
        assert!(headline.findings[0].text.len() < 110, "one line: {}", headline.findings[0].text);
        let rules: Vec<&str> = headline.details.iter().flat_map(|d| &d.paragraphs).map(String::as_str).collect();
        assert!(rules.contains(&legend().as_str()), "the legend is one click away");
        assert!(rules.iter().any(|rule| rule.contains("(fewer CPUs than the experiments' threads")), "{rules:?}");
        let table = headline.table("headline").unwrap();
        for row in &table.rows {
            assert!(
                row[2].text.contains(" threads: ") && row[2].text.ends_with(')'),
                "a figure and its interval: {}",
                row[2].text
            );
            assert!(row[2].text.len() < 60, "not a sentence: {}", row[2].text);
            assert!(row[3].link.as_deref().is_some_and(|link| link.starts_with("#claim-")), "{:?}", row[3]);
        }
        assert!(table.rows[1][2].text.starts_with("Go, "), "B is judged from Go: {}", table.rows[1][2].text);
    }
}
