//! The articles' numbered claims, one row each: the article's figure, each machine's with
//! its interval, and a status computed from the run by the lab's one rule
//! ([`crate::judgement`]), each row linking to the section that measures it. The claims come
//! from `data/reference/claims.csv`; each is answered by the experiment whose descriptor
//! lists its id ([`crate::kit::Present::CLAIMS`]), from its own folder's `answers` (the
//! stride sweep's in `crate::stride::answers`, and so on).

mod listed;
mod settled;

use super::{Cell, Column, Finding, PresentError, Section, Table};
use crate::format;
use crate::reference::ClaimReference;
use crate::registry::Experiment;
use crate::runs::Run;

/// A room of machines gets each machine's tally, not a table two columns per machine wide.
const MAX_MACHINES_IN_TABLE: usize = 2;

/// The claims section's anchor and name.
pub const CLAIMS: &str = "claims";
pub const TITLE: &str = "The articles' claims, one by one";

pub use crate::judgement::Status;
use crate::judgement::{half_unit, legend, Judgement, Target};
pub use crate::kit::{effect, figure, ratio_text, summary_text, Answer, Context, Estimate, DIRECTION};
pub use listed::answered_by;
use listed::AnswerOf;
pub use settled::settled_answers;

/// The answer to claim `claim` on `run`: from the experiment that lists it, then held to the
/// article's setting (a machine with fewer CPUs than its threads never reproduces it).
pub fn answer(claim: &ClaimReference, run: &Run) -> Answer {
    let cpus = cpus_of(run);
    let context = Context { run, cpus, target: target_of(claim) };
    let id = claim.id.as_str();
    let answer = match answered_by(id) {
        Some(experiment) => experiment.visit(AnswerOf { id, context: &context }),
        None => Answer::unanswered(),
    };
    match claim.threads {
        Some(setting) => {
            let held = Judgement::new(answer.status, answer.why).at_setting(setting, cpus);
            Answer { estimate: answer.estimate, ..Answer::judged(answer.figure, held) }
        }
        None => answer,
    }
}

/// The claim's figure held to the digits the article printed it to ([`half_unit`]).
fn target_of(claim: &ClaimReference) -> Option<Target> {
    let (low, high) = claim.range()?;
    let printed = [&claim.low, &claim.high];
    let precision = printed.iter().filter_map(|text| half_unit(text.as_deref()?)).fold(0.0, f64::max);
    Some(Target::range(low, high).printed_to(precision))
}

/// The claims section over `runs`: one row per claim, a status column per machine.
pub fn section(runs: &[Run]) -> Result<Section, PresentError> {
    let claims = crate::reference::claims()?;
    let mut section = Section::new(CLAIMS, TITLE);
    section.article.push(format!(
        "The three articles make {} numbered claims: {} about false sharing (A), {} about the collector's ratio (B) \
         and {} about thread pools (C). Each row sets the article's figure beside this machine's and says how it \
         stands; the claim's id links to the section that measures it.",
        claims.len(),
        claims.iter().filter(|c| c.article == "A").count(),
        claims.iter().filter(|c| c.article == "B").count(),
        claims.iter().filter(|c| c.article == "C").count(),
    ));
    if runs.is_empty() {
        return Ok(section);
    }
    section.machines = runs.iter().map(Run::label).collect();
    let answers: Vec<Vec<Answer>> = runs.iter().map(|run| settled_answers(&claims, run)).collect();
    for (run, answers) in runs.iter().zip(&answers) {
        section.findings.push(Finding::about(&run.label(), tally(answers)));
    }
    if runs.len() > MAX_MACHINES_IN_TABLE {
        section.notes.push(Finding::general(format!(
            "The claim-by-claim table is shown for one or two machines; render one run (report --from RUN) for its \
             {} rows.",
            claims.len()
        )));
        return Ok(section);
    }
    section.tables.push(table(&claims, runs, &answers));
    section.notes.push(Finding::general(format!(
        "{} A claim is judged from the runtime the article used where the run holds its rows (Go for B, the \
         JVM for the locks), the Rust analogue shown beside it. The settled column is the share of resamples that \
         gave the row's status again.",
        legend()
    )));
    Ok(section)
}

/// The CPUs a run's process could use, which the claims' settings are held to.
fn cpus_of(run: &Run) -> u64 {
    run.manifest.machine.available_parallelism.max(1) as u64
}

/// The id of claim `id`'s row in the claims table ("claim-A1"), which the strip links to.
pub fn anchor(id: &str) -> String {
    format!("claim-{id}")
}

/// "Of the articles' 42 claims: 5 reproduced, 11 same direction, smaller, 2 unsettled, ...".
pub(crate) fn tally(answers: &[Answer]) -> String {
    let statuses: Vec<Status> = answers.iter().map(|answer| answer.status).collect();
    format!("Of the articles' {} claims: {}.", answers.len(), crate::judgement::tally(&statuses))
}

fn table(claims: &[ClaimReference], runs: &[Run], answers: &[Vec<Answer>]) -> Table {
    let mut columns = vec![
        Column::text("claim"),
        Column::text("what the article says"),
        Column::text("article's figure"),
        Column::text("measured by"),
    ];
    for run in runs {
        let label = run.label();
        columns.extend([
            Column::text("this machine").in_group(&label),
            Column::text("status").in_group(&label),
            Column::number("settled").in_group(&label),
        ]);
    }
    let rows = claims
        .iter()
        .enumerate()
        .map(|(index, claim)| {
            let section = Experiment::from_name(&claim.experiment).map(Experiment::name);
            let linked = |text: &str| match section {
                Some(anchor) => Cell::linked(text, anchor),
                None => Cell::from(text),
            };
            let mut row = vec![
                linked(&claim.id).anchored(anchor(&claim.id)),
                Cell::from(claim.text.clone()),
                if claim.figure.is_empty() { Cell::missing() } else { Cell::from(claim.figure.clone()) },
                linked(&claim.experiment),
            ];
            for answers in answers {
                let answer = &answers[index];
                let figure = if answer.figure.is_empty() { Cell::missing() } else { Cell::from(answer.figure.clone()) };
                let settled = answer.settled.map_or_else(Cell::missing, |share| Cell::from(format::percent(share)));
                row.extend([figure, Cell::from(answer.status_text()), settled]);
            }
            row
        })
        .collect();
    Table { id: "claims", caption: "Every numbered claim of the three articles".into(), columns, rows }
}

#[cfg(test)]
mod reachable;

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");

    #[test]
    fn every_claim_has_a_row_a_status_and_a_link_to_its_section() {
        let run = Run::load(FIXTURE).unwrap();
        let section = section(std::slice::from_ref(&run)).unwrap();
        let table = section.table("claims").unwrap();
        assert_eq!(table.rows.len(), 42);
        assert_eq!(table.columns.len(), 7, "four about the claim, three for the one machine");
        for row in &table.rows {
            let status = &row[5].text;
            let known = Status::ALL.iter().any(|s| status.starts_with(&s.label()));
            assert!(known || status.starts_with("needs "), "{status}");
            let experiment = &row[3].text;
            let linked = Experiment::from_name(experiment).is_some();
            assert_eq!(row[0].link.is_some(), linked, "{}", row[0].text);
            if linked {
                assert_eq!(row[0].link.as_deref(), Some(format!("#{experiment}").as_str()));
            }
        }
        let c11 = table.rows.iter().find(|row| row[0].text == "C11").unwrap();
        assert!(c11[5].text.contains("judged from the JVM's rows"), "the JVM ran beside: {}", c11[5].text);
        assert!(section.findings[0].text.starts_with("Of the articles' 42 claims: "), "{:?}", section.findings);
        let room = super::section(&[run.clone(), run.clone(), run]).unwrap();
        assert!(room.table("claims").is_none() && room.findings.len() == 3, "a room gets each machine's tally");
    }

    #[test]
    fn the_tally_counts_unsettled_claims_apart_from_the_statuses_they_split_between() {
        let answers = [
            Answer::new("", Status::Smaller, ""),
            Answer::new("", Status::Unsettled, "reproduced 55%, same direction, smaller 45%"),
            Answer::new("", Status::SetUp, ""),
            Answer::new("", Status::Reproduced, ""),
        ];
        assert_eq!(
            tally(&answers),
            "Of the articles' 4 claims: 1 reproduced, 1 same direction, smaller, 1 unsettled, 1 set up, not measured."
        );
    }

    #[test]
    fn each_measured_status_carries_its_settled_share_and_the_unsettled_name_theirs() {
        let run = Run::load(FIXTURE).unwrap();
        let claims = crate::reference::claims().unwrap();
        let started = std::time::Instant::now();
        let answers = settled_answers(&claims, &run);
        let took = started.elapsed();
        assert_eq!(answers, settled_answers(&claims, &run), "the bootstrap is seeded");
        for (claim, answer) in claims.iter().zip(&answers) {
            let resampled = answer.status.is_measured() || answer.status == Status::Unsettled;
            assert_eq!(answer.settled.is_some(), resampled, "{}: {answer:?}", claim.id);
            match answer.settled {
                Some(share) if share < crate::judgement::MIN_SETTLED_SHARE => {
                    assert_eq!(answer.status, Status::Unsettled, "{}", claim.id);
                    assert!(answer.why.contains('%'), "{}: {}", claim.id, answer.why);
                }
                Some(share) => assert!(answer.status.is_measured() && share <= 1.0, "{}", claim.id),
                None => {}
            }
        }
        // Not a speed claim: a bound far above the budget (well under a second on an idle
        // laptop), so that a resample that went quadratic would be seen.
        assert!(took.as_secs() < 20, "the 42 claims took {took:?} to settle");
    }
}
