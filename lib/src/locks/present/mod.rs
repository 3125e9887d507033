//! The locks experiment as a [`Section`]: article C's five lock claims beside each machine's
//! figures (Rust's primitives, and the JVM's own where a JDK ran them), the charts, every
//! cell in a table, and the sentences the data supports. Renderers and notebooks find a
//! table by its caption ([`table`]) and a figure by its title ([`figure`]), never by
//! position.

mod tables;

pub use super::claim::{reference, REFERENCE};
use super::LocksReference;
use crate::kit::{Answer, Context, Effect, EffectValue, Plausible, Present, PresentError, ReferenceText};
use crate::measured::Measured;
use crate::view::{Figure, Finding, NotDrawn, Section};

use super::article_range;
use super::chart::{by_primitive_chart, by_threads_chart, series_by_primitive};
use super::{
    claims, java_answer, read_shares_of, summarize, summarize_java, Case, CellSummary, Claim, ClaimFinding, JavaCell,
    JavaRow, Primitive, Row, EXPERIMENT,
};
use crate::chart::{IntervalPoint, Series};
use crate::format;
use crate::run_format::Run;

pub const TITLE: &str = "Locks: what an acquisition costs, and when it sleeps";
/// Figure titles (a machine's label follows the per-machine ones).
const UNCONTENDED_FIGURE: &str = "locks: uncontended cost";
const CONTENDED_FIGURE: &str = "locks: contended acquisitions";
const READ_MOSTLY_FIGURE: &str = "locks: read-mostly";

/// One machine's rows summarised, its claims answered, and its JVM cells when it ran them.
pub(crate) struct Answered<'a> {
    pub label: &'a str,
    pub summaries: Vec<CellSummary>,
    pub claims: Vec<ClaimFinding>,
    pub java: Option<Vec<JavaCell>>,
}

/// The locks' section over saved runs, with the JVM's rows where they ran.
impl Present for super::LockCases {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("../prose.md");
    const REFERENCES: &'static [ReferenceText] = &[REFERENCE.file];

    const CLAIMS: &'static [&'static str] = &["C11", "C12", "C13", "C14", "C16"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        let java: Vec<Option<&[JavaRow]>> =
            runs.iter().filter(|run| run.rows::<Row>().is_some()).map(|run| run.runtime_rows::<JavaRow>()).collect();
        Ok(Some(section(&Measured::from_runs(runs), &reference()?, &java)?))
    }

    const EFFECTS: &'static [Effect] = &[OPTIMISTIC, LOCK_ACROSS_WAIT];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let reference = reference().unwrap_or_default();
        let found = run.rows::<Row>().map(|rows| claims(&summarize(rows), &reference, None)).unwrap_or_default();
        let claimed = |wanted: Claim| found.iter().find(|c| c.claim == wanted).and_then(|c| c.measured);
        vec![
            EffectValue::of(OPTIMISTIC, claimed(Claim::OptimisticReads)),
            EffectValue::of(LOCK_ACROSS_WAIT, claimed(Claim::LockAcrossWait)),
        ]
    }
}

const OPTIMISTIC: Effect = Effect {
    id: "optimistic-reads",
    name: "optimistic reads over RwLock reads",
    unit: "x",
    claim: Some("C14"),
    plausible: Plausible::RATIO,
};
const LOCK_ACROSS_WAIT: Effect = Effect {
    id: "lock-across-wait",
    name: "lock across a wait: work outside the lock over under it",
    unit: "x",
    claim: Some("C16"),
    plausible: Plausible::RATIO,
};

/// The section; `java[i]` holds the JVM rows of `machines[i]` (`None`: the JVM did not run).
pub fn section(
    machines: &[Measured<'_, Row>],
    article: &[LocksReference],
    java: &[Option<&[JavaRow]>],
) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    section.article = article_sentences(article);
    section.article_tables.push(tables::numbers(article));
    if machines.is_empty() {
        return Ok(section);
    }
    let answered: Vec<Answered> = machines
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let summaries = summarize(m.rows);
            let claims = claims(&summaries, article, m.verdict.as_ref());
            let java = java.get(i).copied().flatten().map(summarize_java);
            Answered { label: &m.label, summaries, claims, java }
        })
        .collect();
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    for machine in &answered {
        section.findings.extend(machine.claims.iter().map(|c| Finding::about(machine.label, c.sentence.clone())));
        if let Some(java) = &machine.java {
            section.findings.push(Finding::about(machine.label, java_sentence(java, article)));
        }
        section.headlines.push(Finding::about(machine.label, headline(&machine.claims)));
    }
    for figure in figures(&answered) {
        section.add_figure(figure);
    }
    section.tables.push(tables::claims(&answered, article));
    for machine in &answered {
        section.tables.push(tables::cells(machine));
        section.tables.extend(machine.java.as_ref().map(|java| tables::java(machine.label, java)));
    }
    section.notes.extend(notes());
    section.notes.extend(crate::measured::config_notes(machines));
    Ok(section)
}

/// One sentence per claim as the article printed it.
fn article_sentences(article: &[LocksReference]) -> Vec<String> {
    let mut sentences =
        vec!["Article C (a Java service, JDK 15 or later) makes five claims about locks; the lab measures Rust's \
         primitives on this machine and, where a JDK is installed, the JVM's own beside them."
            .to_string()];
    sentences.extend(Claim::ALL.iter().map(|&claim| match article_range(article, claim) {
        Some(range) => format!("{} ({}): {}.", claim.id(), claim.what(), range.printed),
        None => format!("{}: missing from data/reference/locks.csv.", claim.id()),
    }));
    sentences
}

/// The two ratios a summary and a comparison of machines carry: optimistic reads over the
/// RwLock (C14), and throughput lost to the lock across a wait (C16).
fn headline(claims: &[ClaimFinding]) -> String {
    let line = |claim: Claim, what: &str| {
        let found = claims.iter().find(|c| c.claim == claim)?;
        let measured = found.measured.as_ref()?;
        Some(format!("{what} {} ({})", format::ratio_with_interval(measured), found.status.label()))
    };
    let parts: Vec<String> = [
        line(Claim::OptimisticReads, "optimistic reads over std RwLock's:"),
        line(Claim::LockAcrossWait, "requests outside the lock over under it:"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        return "Neither the read-mostly nor the lock-across-wait ratio has enough trials to state.".into();
    }
    format!("Locks: {}.", parts.join("; "))
}

/// What the JVM measured for each claim, in one sentence.
fn java_sentence(java: &[JavaCell], article: &[LocksReference]) -> String {
    let version = java.first().map_or("the JVM", |cell| cell.java_version.as_str());
    let answers: Vec<String> = Claim::ALL
        .iter()
        .filter_map(|&claim| {
            let (figure, words) = java_answer(java, claim)?;
            let status = article_range(article, claim).map(|range| tables::java_status(claim, &figure, &range));
            Some(format!("{} {words}{}", claim.id(), status.map_or(String::new(), |s| format!(", {}", s.label()))))
        })
        .collect();
    format!("The JVM here ({version}) with the article's own primitives: {}.", answers.join("; "))
}

fn figures(answered: &[Answered]) -> Vec<Result<Figure, NotDrawn>> {
    let mut figures = Vec::new();
    let uncontended = Case::Uncontended.primitives();
    let series: Vec<Series> = answered
        .iter()
        .map(|m| {
            let cells: Vec<&CellSummary> = m.summaries.iter().filter(|s| s.case == Case::Uncontended).collect();
            series_by_primitive(m.label, &cells, uncontended, |s| &s.ns_per_op)
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    if !series.is_empty() {
        let names: Vec<&str> = uncontended.iter().map(|p| p.label()).collect();
        let chart =
            by_primitive_chart("Uncontended: one acquire and release", &names, "ns per operation (log)", &series)
                .map_err(|error| NotDrawn::new(UNCONTENDED_FIGURE, error));
        figures.push(chart.map(|chart| {
            Figure {
                id: "uncontended-chart",
                title: UNCONTENDED_FIGURE.into(),
                svg: chart.svg,
                legend: chart.legend,
                caption: "Nanoseconds per acquire and release on one pinned thread (median of the trials, bars: its \
                      interval), log scale. The article's uncontended synchronized: 20-30 ns."
                    .into(),
                text: points_text(
                    answered,
                    |s| s.case == Case::Uncontended,
                    |s| format!("{} ns", format::number(s.ns_per_op.median)),
                ),
            }
        }));
    }
    for machine in answered {
        figures.extend(contended_figure(machine));
        figures.extend(read_mostly_figure(machine));
    }
    figures
}

/// "label: std Mutex, 1 thread 11.2 ns, ..." for the chart's text stand-in.
fn points_text(
    answered: &[Answered],
    keep: impl Fn(&CellSummary) -> bool,
    value: impl Fn(&CellSummary) -> String,
) -> String {
    let per_machine: Vec<String> = answered
        .iter()
        .map(|m| {
            let points: Vec<String> =
                m.summaries.iter().filter(|s| keep(s)).map(|s| format!("{} {}", s.label(), value(s))).collect();
            format!("{}: {}", m.label, points.join(", "))
        })
        .collect();
    per_machine.join("; ")
}

/// One series per primitive of `case` against threads (read share `share` for read-mostly).
fn threads_series(
    summaries: &[CellSummary],
    case: Case,
    share: f64,
    value: fn(&CellSummary) -> &crate::stats::Summary,
) -> Vec<Series> {
    case.primitives()
        .iter()
        .map(|&primitive: &Primitive| Series {
            label: primitive.label().to_string(),
            points: summaries
                .iter()
                .filter(|s| {
                    s.case == case && s.primitive == primitive && (case != Case::ReadMostly || s.read_share == share)
                })
                .map(|s| IntervalPoint::median_of(s.threads as f64, value(s)))
                .collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect()
}

fn contended_figure(machine: &Answered) -> Option<Result<Figure, NotDrawn>> {
    let series = threads_series(&machine.summaries, Case::Contended, 0.0, |s| &s.ns_per_op);
    if series.is_empty() {
        return None;
    }
    let title = format!("{CONTENDED_FIGURE}, {}", machine.label);
    let chart =
        by_threads_chart(&format!("Contended: one lock, {}", machine.label), "ns per acquisition (log)", &series);
    let chart = match chart {
        Ok(chart) => chart,
        Err(error) => return Some(Err(NotDrawn::new(title, error))),
    };
    Some(Ok(Figure {
        id: "contended-chart",
        title,
        svg: chart.svg,
        legend: chart.legend,
        caption:
            "Nanoseconds of the team's wall time per acquisition, all threads taking one lock until a fixed total \
                  is done (median, bars: interval). The article: a contended lock's trip to the kernel costs 1-2 us."
                .into(),
        text: points_text(
            std::slice::from_ref(machine),
            |s| s.case == Case::Contended,
            |s| format!("{} ns", format::number(s.ns_per_op.median)),
        ),
    }))
}

fn read_mostly_figure(machine: &Answered) -> Option<Result<Figure, NotDrawn>> {
    let shares = read_shares_of(&machine.summaries);
    let distance = |share: &f64| (share - 0.99).abs();
    let share = shares.into_iter().min_by(|a, b| distance(a).total_cmp(&distance(b)))?;
    let series = threads_series(&machine.summaries, Case::ReadMostly, share, |s| &s.reads_per_sec);
    let percent = format::percent(share);
    let title = format!("{READ_MOSTLY_FIGURE}, {}", machine.label);
    let chart = by_threads_chart(
        &format!("Reads per second at {percent} reads, {}", machine.label),
        "reads per second (log)",
        &series,
    );
    let chart = match chart {
        // A share of no reads (0) leaves nothing for a chart of reads per second.
        Err(_) if share == 0.0 => return Some(Err(NotDrawn::because(title, "no reads to chart at read share 0"))),
        Err(error) => return Some(Err(NotDrawn::new(title, error))),
        Ok(chart) => chart,
    };
    Some(Ok(Figure {
        id: "read-mostly-chart",
        title,
        svg: chart.svg,
        legend: chart.legend,
        caption: format!(
            "Reads per second of the whole team at {percent} reads, against threads (median, bars: interval). An \
             RwLock reader writes the reader count, so more readers pass its line between cores; the seqlock's \
             readers write nothing. The article: StampedLock's optimistic reads 3-7x ReentrantReadWriteLock."
        ),
        text: points_text(
            std::slice::from_ref(machine),
            |s| s.case == Case::ReadMostly && s.read_share == share,
            |s| format!("{} reads/s", format::number(s.reads_per_sec.median)),
        ),
    }))
}

/// What the tables' words mean and where the Rust pairs differ from the article's.
fn notes() -> Vec<Finding> {
    [
        "ns per op is the team's wall time over all its operations: for one thread the cost of one; for threads \
         sharing one lock, the time per hand-off. Sleeps per op: the workers' voluntary context switches \
         (getrusage, per thread) over the operations, each a wait in the kernel; in the lock-across-wait case they \
         include the remote call's own wait. Busiest thread: the largest share of a trial's operations one thread \
         did (an even split is 1 / threads). Blocked: the share of the workers' time spent in the map's calls less \
         the remote call. x values are ratios of medians with a conservative interval; an effect is claimed only \
         when that interval excludes 1.",
        "C12's figure is an estimate: the contended std Mutex's extra time per acquisition over the uncontended one, \
         divided by its sleeps per acquisition: the price of one trip to the kernel (a futex wait and the wake-up \
         that ends it). Where the lock spun instead of sleeping there is nothing to divide, and it says so.",
        "C13's pair differs from the article's: the JVM's synchronized and a non-fair ReentrantLock both barge, and \
         an uncontended ReentrantLock costs one CAS and a volatile store; the article puts its 15% down to AQS's \
         queue, an explanation it did not measure. parking_lot offers one lock released two ways, barging (with a \
         fair hand-off forced about every 0.5 ms) or handed to the oldest waiter (unlock_fair, like a fair \
         ReentrantLock), so the Rust figure is the price of fairness; the JVM's own pair is beside it where a JDK \
         ran.",
        "C16: dashmap's entry() takes its shard's write lock even for a key already there, and a shard holds many \
         keys; ConcurrentHashMap.computeIfAbsent locks one bin and answers a hit at a bin's head without locking. \
         The Rust case therefore blocks more requests per remote call than the JVM's.",
        "The JVM's threads are not pinned (the standard library cannot); each JVM case warms up until the JIT has \
         compiled it, and its guard against the JIT removing or hoisting the work is in the JVM table.",
    ]
    .into_iter()
    .map(Finding::general)
    .collect()
}
