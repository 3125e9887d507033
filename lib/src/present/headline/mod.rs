//! The headline table every report opens with: one row per article, its headline figure,
//! this machine's counterpart with its interval, and its status. Each row is the claims
//! table's row of the same claim (A1, B6, C1), judged by the one rule
//! ([`crate::judgement`]), so the headline and the claims table cannot disagree. The
//! machine's caveat (its verdict) is said once, above the table.

use super::claims::{settled_answers, Answer};
use super::{Cell, Column, Finding, PresentError, Section, Table};
use crate::assess::{assess, MachineRun};
use crate::counters::format_count;
use crate::gc::GcRatio;
use crate::judgement::legend;
use crate::reference::ClaimReference;
use crate::runs::Run;
use crate::sharing::{
    ARTICLE_HEADLINE_PRINTED, ARTICLE_HEADLINE_SHARDED_MS, ARTICLE_HEADLINE_SINGLE_MS, ARTICLE_HEADLINE_THREADS,
};
use crate::verdict::Verdict;

/// The headline section's anchor (it is no experiment's).
pub const HEADLINE: &str = "headline";
pub const TITLE: &str = "The articles' headlines on this machine";

/// One article: its row's name and section, its figure in words, and the claim whose
/// answer is its row.
struct Article {
    name: &'static str,
    anchor: &'static str,
    figure: String,
    claim: &'static str,
}

/// The three headlines, their figures read from the reference data: A's 13.7x as printed
/// (2.264 s over 166 ms, claim A1), B's best GOGC over GOGC=100 at 48 goroutines (the
/// search, B6), C's incident p99 over the fix's (C1).
fn articles() -> Result<[Article; 3], PresentError> {
    let ratios = crate::reference::gc_ratios()?;
    let default = ratios.iter().find(|r| r.gogc == GcRatio::DEFAULT).map_or(f64::NAN, |r| r.signatures_per_sec);
    let best = ratios.iter().max_by(|a, b| a.signatures_per_sec.total_cmp(&b.signatures_per_sec));
    let best_per_s = best.map_or(f64::NAN, |b| b.signatures_per_sec);
    let pool = crate::reference::pool()?;
    let value = |key: &str| pool.iter().find(|r| r.key == key).map_or(f64::NAN, |r| r.value);
    let (incident_s, fix_ms) = (value("incident_p99"), value("fix_p99"));
    Ok([
        Article {
            name: "A. False sharing",
            anchor: crate::sharing::EXPERIMENT,
            figure: format!(
                "{ARTICLE_HEADLINE_THREADS} goroutines on {ARTICLE_HEADLINE_THREADS} adjacent shards took \
                 {ARTICLE_HEADLINE_PRINTED} as long as 1 thread ({:.3} s vs {ARTICLE_HEADLINE_SINGLE_MS:.0} ms)",
                ARTICLE_HEADLINE_SHARDED_MS / 1000.0
            ),
            claim: "A1",
        },
        Article {
            name: "B. The collector's ratio",
            anchor: crate::gc::EXPERIMENT,
            figure: format!(
                "48 goroutines: GOGC={} ran {:.2}x GOGC=100 ({} vs {} signatures/s)",
                best.map_or("?".into(), |b| b.gogc.to_string()),
                best_per_s / default,
                format_count(best_per_s.round() as u64),
                format_count(default.round() as u64)
            ),
            claim: "B6",
        },
        Article {
            name: "C. Thread-pool sizing",
            anchor: crate::pool::EXPERIMENT,
            figure: format!(
                "p99 at the incident's 320 threads {incident_s} s vs {fix_ms} ms at the fix's 64 ({:.1}x)",
                incident_s * 1e3 / fix_ms
            ),
            claim: "C1",
        },
    ])
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
            let mut row = vec![Cell::linked(article.name, article.anchor), Cell::from(article.figure.clone())];
            for run in runs {
                let answer = claims.iter().find(|c| c.id == article.claim).map_or_else(
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
        assert!(articles[0].figure.contains("13.7x") && articles[0].figure.contains("2.264 s vs 166 ms"));
        assert!(articles[1].figure.contains("GOGC=11300 ran 8.75x GOGC=100"), "{}", articles[1].figure);
        assert!(articles[2].figure.contains("2.3 s vs 210 ms"), "{}", articles[2].figure);
        let anchors: Vec<&str> = articles.iter().map(|a| a.anchor).collect();
        assert_eq!(anchors, ["sharing", "gc", "pool"]);
        let claims = crate::reference::claims().unwrap();
        assert!(articles.iter().all(|a| claims.iter().any(|c| c.id == a.claim)), "each row is a claim's");
    }
}
