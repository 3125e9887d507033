//! The articles' numbered claims, one row each: the article's figure, each machine's with
//! its interval, and a status computed from the run (reproduced, differs, not beyond the
//! noise, not measurable here and why, or not in this run), each row linking to the section
//! that measures it. The claims come from `data/reference/claims.csv`; what answers each is
//! looked up by its id in [`answer`], one function per claim in [`false_sharing`], [`gc`],
//! [`pool`], and [`locks`] for the lock claims another experiment answers.

mod false_sharing;
mod gc;
mod locks;
mod pool;

use serde::Serialize;

use super::{Cell, Column, Finding, PresentError, Section, Table};
use crate::format;
use crate::reference::ClaimReference;
use crate::registry::Experiment;
use crate::runs::Run;
use crate::stats::{Ratio, Summary};

/// A room of machines gets each machine's tally, not a table two columns per machine wide.
const MAX_MACHINES_IN_TABLE: usize = 2;

/// The claims section's anchor and name.
pub const CLAIMS: &str = "claims";
pub const TITLE: &str = "The articles' claims, one by one";

/// How a machine's figure stands against the article's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The effect shows as the article says (in its direction, or within its range).
    Reproduced,
    /// A clear effect the other way, or a figure clearly outside the article's range.
    Differs,
    /// The intervals overlap, or too few trials to claim anything.
    NotBeyondNoise,
    /// This machine cannot show it (too few cores, no counter), or it is not a number.
    NotMeasurable,
    /// The experiment that answers it did not run.
    NotInRun,
}

impl Status {
    pub const ALL: [Status; 5] =
        [Status::Reproduced, Status::Differs, Status::NotBeyondNoise, Status::NotMeasurable, Status::NotInRun];

    pub fn label(self) -> &'static str {
        match self {
            Status::Reproduced => "reproduced",
            Status::Differs => "differs",
            Status::NotBeyondNoise => "not beyond the noise",
            Status::NotMeasurable => "not measurable here",
            Status::NotInRun => "not in this run",
        }
    }
}

/// One claim as one machine answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// This machine's figure in words, with its interval; empty when there is none.
    pub figure: String,
    pub status: Status,
    /// Why, where the status needs it ("needs 8 cores, this machine has 2").
    pub why: String,
}

impl Answer {
    pub fn new(figure: impl Into<String>, status: Status, why: impl Into<String>) -> Self {
        Self { figure: figure.into(), status, why: why.into() }
    }

    /// Nothing to show: `status` and why.
    pub fn without_figure(status: Status, why: impl Into<String>) -> Self {
        Self::new(String::new(), status, why)
    }

    /// The experiment named `experiment` did not run.
    pub fn not_in_run(experiment: &str) -> Self {
        Self::without_figure(Status::NotInRun, format!("run `contention run {experiment}`"))
    }

    /// A figure this machine has too few CPUs to judge: shown, but not judged.
    pub fn needs_cores(figure: impl Into<String>, cores: usize, cpus: usize) -> Self {
        Self::new(figure, Status::NotMeasurable, format!("needs {cores} cores, this machine has {cpus}"))
    }

    /// The status with its why, as a table cell says it.
    pub fn status_text(&self) -> String {
        if self.why.is_empty() {
            self.status.label().to_string()
        } else {
            format!("{}: {}", self.status.label(), self.why)
        }
    }
}

/// What one claim's answer reads: one saved run and its machine's CPUs.
#[derive(Debug)]
pub struct Context<'a> {
    pub run: &'a Run,
    pub cpus: usize,
}

/// The answer to claim `claim` on `run`: looked up by the claim's id.
pub fn answer(claim: &ClaimReference, run: &Run) -> Answer {
    let context = Context { run, cpus: run.manifest.machine.logical_cpus };
    let range = claim.range();
    match claim.id.as_str() {
        "C15" => false_sharing::striped(&context),
        id if locks::CLAIMS.contains(&id) => locks::answer(id, &context),
        id if id.starts_with('A') => false_sharing::answer(id, &context),
        id if id.starts_with('B') => gc::answer(id, &context, range),
        id if id.starts_with('C') => pool::answer(id, &context, range),
        _ => Answer::without_figure(Status::NotMeasurable, "no measurement answers this claim yet"),
    }
}

/// A ratio's status: its interval wholly above 1 is the article's direction.
pub(crate) fn direction(ratio: &Ratio, enough_trials: bool) -> Status {
    if !enough_trials {
        Status::NotBeyondNoise
    } else if ratio.clearly_above_one() {
        Status::Reproduced
    } else if ratio.clearly_below_one() {
        Status::Differs
    } else {
        Status::NotBeyondNoise
    }
}

/// A ratio's answer: [`direction`]'s status, and why where it claims nothing or differs.
pub(crate) fn judged(figure: impl Into<String>, ratio: &Ratio, enough_trials: bool) -> Answer {
    let status = direction(ratio, enough_trials);
    let why = match status {
        Status::NotBeyondNoise if !enough_trials => "too few trials",
        Status::NotBeyondNoise => "the interval includes no difference",
        Status::Differs => "a clear effect the other way",
        _ => "",
    };
    Answer::new(figure, status, why)
}

/// An interval's status against the article's range: reaching into it reproduces it.
pub(crate) fn within((low, high): (f64, f64), (article_low, article_high): (f64, f64)) -> (Status, &'static str) {
    if high < article_low {
        (Status::Differs, "below the article's")
    } else if low > article_high {
        (Status::Differs, "above the article's")
    } else {
        (Status::Reproduced, "")
    }
}

/// "3.87x (3.52x–4.10x)".
pub(crate) fn ratio_text(ratio: &Ratio) -> String {
    format::ratio_with_interval(ratio)
}

/// "12.5 (11.0–13.1)" with `unit` after the median.
pub(crate) fn summary_text(summary: &Summary, unit: &str) -> String {
    format!("{}{unit} ({})", format::number(summary.median), format::interval(summary.median_low, summary.median_high))
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
    let answers: Vec<Vec<Answer>> =
        runs.iter().map(|run| claims.iter().map(|claim| answer(claim, run)).collect()).collect();
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
    section.notes.push(Finding::general(
        "Reproduced: the effect shows in the article's direction, beyond the noise (a ratio's interval wholly on \
         the article's side of 1), or the figure's interval reaches the article's range. Differs: a clear effect \
         the other way, or a figure clearly outside the range. Not beyond the noise: the intervals overlap, or too \
         few trials. Figures from a small machine are shown even where the claim needs more cores than it has.",
    ));
    Ok(section)
}

/// "Of 42 claims: 20 reproduced, 3 differ, ...".
fn tally(answers: &[Answer]) -> String {
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|&status| (status, answers.iter().filter(|answer| answer.status == status).count()))
        .filter(|&(_, count)| count > 0)
        .map(|(status, count)| match status {
            Status::Differs => format!("{count} differ"),
            _ => format!("{count} {}", status.label()),
        })
        .collect();
    format!("Of the articles' {} claims: {}.", answers.len(), counts.join(", "))
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
        columns.extend([Column::text("this machine").in_group(&label), Column::text("status").in_group(&label)]);
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
                linked(&claim.id),
                Cell::from(claim.text.clone()),
                if claim.figure.is_empty() { Cell::missing() } else { Cell::from(claim.figure.clone()) },
                linked(&claim.experiment),
            ];
            for answers in answers {
                let answer = &answers[index];
                let figure = if answer.figure.is_empty() { Cell::missing() } else { Cell::from(answer.figure.clone()) };
                row.extend([figure, Cell::from(answer.status_text())]);
            }
            row
        })
        .collect();
    Table { id: "claims", caption: "Every numbered claim of the three articles".into(), columns, rows }
}

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
        assert_eq!(table.columns.len(), 6, "four about the claim, two for the one machine");
        for row in &table.rows {
            let status = &row[5].text;
            assert!(Status::ALL.iter().any(|s| status.starts_with(s.label())), "{status}");
            let experiment = &row[3].text;
            let linked = Experiment::from_name(experiment).is_some();
            assert_eq!(row[0].link.is_some(), linked, "{}", row[0].text);
            if linked {
                assert_eq!(row[0].link.as_deref(), Some(format!("#{experiment}").as_str()));
            }
        }
        let c11 = table.rows.iter().find(|row| row[0].text == "C11").unwrap();
        assert!(c11[5].text.contains("C11: one uncontended acquire"), "answered by the locks rows: {}", c11[5].text);
        assert!(section.findings[0].text.starts_with("Of the articles' 42 claims: "), "{:?}", section.findings);
        let room = super::section(&[run.clone(), run.clone(), run]).unwrap();
        assert!(room.table("claims").is_none() && room.findings.len() == 3, "a room gets each machine's tally");
    }

    #[test]
    fn statuses_follow_the_intervals() {
        let ratio = |low, high| Ratio { value: (low + high) / 2.0, low, high };
        assert_eq!(direction(&ratio(1.2, 1.5), true), Status::Reproduced);
        assert_eq!(direction(&ratio(0.5, 0.8), true), Status::Differs);
        assert_eq!(direction(&ratio(0.9, 1.2), true), Status::NotBeyondNoise);
        assert_eq!(direction(&ratio(1.2, 1.5), false), Status::NotBeyondNoise, "too few trials claim nothing");
        assert_eq!(within((85.0, 95.0), (80.0, 120.0)).0, Status::Reproduced);
        assert_eq!(within((10.0, 20.0), (80.0, 120.0)), (Status::Differs, "below the article's"));
        assert_eq!(within((400.0, 500.0), (300.0, f64::INFINITY)).0, Status::Reproduced);
        let answer = Answer::needs_cores("1.2x", 8, 2);
        assert_eq!(answer.status_text(), "not measurable here: needs 8 cores, this machine has 2");
    }
}
