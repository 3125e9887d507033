//! The four-way control as a [`Section`]: the article's table beside each machine's medians,
//! the three ratios the control is read by, the chart, and the sentences the data supports.

use serde::Deserialize;

use super::chart::{case_x, series_from_summaries, sharing_chart};
use super::{false_sharing_over, finding, summarize, summarize_team, teams, Case, CaseSummary, Row, EXPERIMENT};
use crate::chart::{IntervalPoint, Series};
use crate::counters::format_count;
use crate::format;
use crate::kit::reference::{printed_number, ReferenceFile};
use crate::kit::{
    cache_miss_note, Answer, Context, Effect, EffectValue, HeadlineRow, Plausible, Present, PresentError, ReferenceText,
};
use crate::measured::{config_notes, findings_and_headlines, points_per_machine, Measured};
use crate::reference_file;
use crate::run_format::Run;
use crate::run_format::RunsError;
use crate::transfers::{penalty_sentence, OneWay};
use crate::view::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};

pub const TITLE: &str = "False sharing: the four-way control";
/// The figure's title (also the note's, when it cannot be drawn).
const FIGURE: &str = "four-way control";

/// The ratios the control is read by: false sharing's time over each other case's.
const RATIOS: [(Case, &str); 3] = [
    (Case::NoSharing, "false / no sharing"),
    (Case::TrueSharing, "false / true sharing"),
    (Case::Single, "false sharing / single thread"),
];

/// Its section over saved runs, with the article's reference numbers.
impl Present for super::FourWay {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("prose.md");
    const REFERENCES: &'static [ReferenceText] = &[REFERENCE.file];

    const CLAIMS: &'static [&'static str] = &["A1", "A6", "A7"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        Ok(Some(section(&Measured::from_runs(runs), &reference()?)?))
    }

    /// A's 13.7x as printed (2.264 s over 166 ms, claim A1).
    fn headline() -> Result<Option<HeadlineRow>, PresentError> {
        use super::{
            ARTICLE_HEADLINE_PRINTED, ARTICLE_HEADLINE_SHARDED_MS, ARTICLE_HEADLINE_SINGLE_MS, ARTICLE_HEADLINE_THREADS,
        };
        Ok(Some(HeadlineRow {
            name: "A. False sharing",
            figure: format!(
                "{ARTICLE_HEADLINE_THREADS} goroutines on {ARTICLE_HEADLINE_THREADS} adjacent shards took \
                 {ARTICLE_HEADLINE_PRINTED} as long as 1 thread ({:.3} s vs {ARTICLE_HEADLINE_SINGLE_MS:.0} ms)",
                ARTICLE_HEADLINE_SHARDED_MS / 1000.0
            ),
            setting: format!("{ARTICLE_HEADLINE_THREADS} goroutines"),
            claim: "A1",
        }))
    }

    const EFFECTS: &'static [Effect] = &[FALSE_SHARING, FALSE_OVER_TRUE];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let sharing = run.rows::<Row>().map(summarize);
        let over = |case: Case| sharing.as_deref().and_then(|s| false_sharing_over(s, case));
        vec![
            EffectValue::of(FALSE_SHARING, over(Case::NoSharing)),
            EffectValue::of(FALSE_OVER_TRUE, over(Case::TrueSharing)),
        ]
    }
}

const FALSE_SHARING: Effect = Effect {
    id: "false-sharing",
    name: "false sharing over no sharing",
    unit: "x",
    claim: Some("A7"),
    plausible: Plausible::RATIO,
};
/// Notebook 02's question: two threads on one line's different words against the same word
/// (the article's 0.94x, A7's second figure, which the claim's range does not hold).
const FALSE_OVER_TRUE: Effect = Effect {
    id: "false-over-true",
    name: "false sharing over true sharing",
    unit: "x",
    claim: None,
    plausible: Plausible::RATIO,
};

pub fn section(machines: &[Measured<'_, Row>], article: &[SharingReference]) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    section.article.push(article_sentence(article));
    if machines.is_empty() {
        return Ok(section);
    }
    let summaries: Vec<Vec<CaseSummary>> = machines.iter().map(|m| summarize(m.rows)).collect();
    findings_and_headlines(
        &mut section,
        machines,
        &summaries,
        |s, verdict| finding(s, verdict),
        |s, one_way| transfers(s, one_way),
    );
    section.findings.extend(machines.iter().filter_map(headline_team));
    section.add_figure(figure(machines, &summaries, article));
    section.tables.push(cases_table(machines, &summaries, article));
    section.tables.push(ratios_table(machines, &summaries, article));
    section.notes.push(Finding::general(
        "A ratio's interval runs from the low end of one median's interval over the high end of the other's to the \
         reverse; an effect is claimed only when it excludes 1. The article's ratios are as printed (computed from \
         unrounded times). Noisy values varied by more than 10% between trials.",
    ));
    section.notes.extend(machines.iter().map(|m| Finding::about(&m.label, cache_misses(m.rows))));
    section.notes.extend(config_notes(machines));
    Ok(section)
}

/// What the second team (the article's headline ran 8 threads) showed, where the run has one.
fn headline_team(machine: &Measured<'_, Row>) -> Option<Finding> {
    let teams = teams(machine.rows);
    let (&largest, [_, ..]) = teams.split_last()? else { return None };
    let summaries = summarize_team(machine.rows, Some(largest));
    Some(Finding::about(&machine.label, format!("With {largest} threads: {}", finding(&summaries, None))))
}

/// False sharing's penalty over no sharing (the same threads, the same atomics), in
/// cache-line transfers per add.
fn transfers(summaries: &[CaseSummary], one_way: Option<OneWay>) -> Option<String> {
    let find = |case: Case| summaries.iter().find(|s| s.case == case);
    let (false_sharing, no_sharing) = (find(Case::FalseSharing)?, find(Case::NoSharing)?);
    if false_sharing.threads < 2 {
        return None;
    }
    let what = format!(
        "counters {} bytes apart, over {} bytes apart,",
        super::FALSE_SHARING_DISTANCE_BYTES,
        no_sharing.distance_bytes
    );
    penalty_sentence(&what, &false_sharing.ns_per_increment, &no_sharing.ns_per_increment, one_way)
}

fn figure(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<CaseSummary>],
    article: &[SharingReference],
) -> Result<Figure, NotDrawn> {
    let mut series = vec![article_series(article)];
    series.extend(machines.iter().zip(summaries).map(|(m, s)| {
        let threads = s.iter().map(|s| s.threads).max().unwrap_or(0);
        series_from_summaries(format!("{}, {threads} threads", m.label), s)
    }));
    let points = points_per_machine(machines, summaries, |s| {
        format!("{}: {} ns", s.case.name(), format::number(s.ns_per_increment.median))
    });
    let chart =
        sharing_chart("Four-way control: time per increment", &series).map_err(|error| NotDrawn::new(FIGURE, error))?;
    Ok(Figure {
        id: "cases-chart",
        title: FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Median time per increment as each thread saw it (dots: trial time over the increments one thread \
                  did) with the median's interval (bars), logarithmic. Per increment, so runs of any size and the \
                  article's table share one axis; the article's dots have no intervals."
            .into(),
        text: format!("Median per increment. {}", points.join("; ")),
    })
}

/// The article's table as nanoseconds per increment per goroutine (time over the
/// increments each goroutine did), so it shares the chart's axis with any run's size.
fn article_series(article: &[SharingReference]) -> Series {
    Series {
        label: format!("article (Apple M3 Max, {} goroutines)", article.iter().map(|r| r.threads).max().unwrap_or(0)),
        points: article
            .iter()
            .map(|r| {
                let ns = r.time_ms * 1e6 / r.increments_per_thread as f64;
                IntervalPoint { x: case_x(r.case), median: ns, low: ns, high: ns }
            })
            .collect(),
    }
}

fn cases_table(machines: &[Measured<'_, Row>], summaries: &[Vec<CaseSummary>], article: &[SharingReference]) -> Table {
    let mut columns =
        vec![Column::text("case"), Column::text("what it does"), Column::number("time (ms)").in_group("article")];
    for machine in machines {
        for label in ["threads", "median (ms)", "interval (ms)", "ns per add", "evidence"] {
            columns.push(Column::number(label).in_group(&machine.label));
        }
    }
    let rows = Case::ALL
        .iter()
        .map(|&case| {
            let mut row = vec![
                Cell::from(case.name()),
                Cell::from(describe(case, summaries)),
                article
                    .iter()
                    .find(|r| r.case == case)
                    .map_or_else(Cell::missing, |r| Cell::from(r.time_ms.to_string())),
            ];
            for machine in summaries {
                row.extend(case_cells(machine.iter().find(|s| s.case == case)));
            }
            row
        })
        .collect();
    Table { id: "times", caption: "Time per case".into(), columns, rows }
}

/// The case in words; for no sharing, with the padding each machine used.
fn describe(case: Case, summaries: &[Vec<CaseSummary>]) -> String {
    if case != Case::NoSharing {
        return case.describe().into();
    }
    let mut paddings: Vec<String> = summaries
        .iter()
        .flatten()
        .filter(|s| s.case == Case::NoSharing)
        .map(|s| s.distance_bytes.to_string())
        .collect();
    paddings.dedup();
    format!("each thread its own counter, {} bytes apart", paddings.join(" / "))
}

fn case_cells(summary: Option<&CaseSummary>) -> [Cell; 5] {
    match summary {
        None => std::array::from_fn(|_| Cell::missing()),
        Some(s) => [
            Cell::from(s.threads.to_string()),
            Cell::noisy(format::number(s.elapsed_ms.median), s.elapsed_ms.is_noisy()),
            Cell::from(format::interval(s.elapsed_ms.median_low, s.elapsed_ms.median_high)),
            Cell::from(format::number(s.ns_per_increment.median)),
            Cell::evidence(&s.evidence, &s.elapsed_ms),
        ],
    }
}

/// The three ratios: the article's as printed, each machine's with its interval.
fn ratios_table(machines: &[Measured<'_, Row>], summaries: &[Vec<CaseSummary>], article: &[SharingReference]) -> Table {
    let mut columns = vec![Column::text("ratio of times"), Column::number("article")];
    columns.extend(machines.iter().map(|m| Column::number(m.label.clone())));
    let rows = RATIOS
        .iter()
        .map(|&(case, label)| {
            let printed = article.iter().find(|r| r.case == case).and_then(|r| r.false_sharing_over_this.clone());
            let mut row = vec![Cell::from(label), printed.map_or_else(Cell::missing, |ratio| Cell::from(ratio + "x"))];
            row.extend(summaries.iter().map(|s| {
                false_sharing_over(s, case).map_or_else(Cell::missing, |r| Cell::from(format::ratio_with_interval(&r)))
            }));
            row
        })
        .collect();
    Table { id: "ratios", caption: "Ratios of times".into(), columns, rows }
}

/// "The article (a fixed total of 20 000 000 increments ...): single thread 35 ms, ...;
/// false / no sharing 3.87x, ..."
fn article_sentence(article: &[SharingReference]) -> String {
    let row = |case: Case| article.iter().find(|r| r.case == case);
    let time = |case: Case| row(case).map_or(format::NOT_AVAILABLE.into(), |r| format!("{} ms", r.time_ms));
    let printed = |case: Case| {
        row(case).and_then(|r| r.false_sharing_over_this.clone()).map_or(format::NOT_AVAILABLE.into(), |x| x + "x")
    };
    let (threads, per_thread) = row(Case::FalseSharing).map_or((0, 0), |r| (r.threads, r.increments_per_thread));
    format!(
        "The article (a fixed total of {} increments: one goroutine doing all of them, or {threads} doing {} each): \
         single thread {}, true sharing {}, false sharing {}, no sharing {}; false / no sharing {}, false / true \
         sharing {}, false sharing / single thread {}.",
        format_count(threads * per_thread),
        format_count(per_thread),
        time(Case::Single),
        time(Case::TrueSharing),
        time(Case::FalseSharing),
        time(Case::NoSharing),
        printed(Case::NoSharing),
        printed(Case::TrueSharing),
        printed(Case::Single),
    )
}

fn cache_misses(rows: &[Row]) -> String {
    let groups = Case::ALL
        .iter()
        .filter(|&&case| rows.iter().any(|row| row.case == case))
        .map(|&case| {
            let readings = rows.iter().filter(|row| row.case == case).map(|row| row.cache_misses).collect();
            (case.name().to_string(), readings)
        })
        .collect();
    cache_miss_note(groups)
}

/// Article A's four-way control.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SharingReference {
    pub case: Case,
    pub threads: u64,
    pub increments_per_thread: u64,
    pub time_ms: f64,
    /// The printed ratio of false sharing's time to this case's ("2.00"); none on its own row.
    #[serde(deserialize_with = "printed_number")]
    pub false_sharing_over_this: Option<String>,
}

/// Its file in `data/reference/`, compiled in.
pub const REFERENCE: ReferenceFile<SharingReference> = reference_file!("sharing.csv");

/// The article's four-way table's rows.
pub fn reference() -> Result<Vec<SharingReference>, RunsError> {
    REFERENCE.rows()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::CounterReading;

    fn rows() -> Vec<Row> {
        let cases = [(Case::Single, 1, 0, 30.0), (Case::TrueSharing, 2, 0, 70.0), (Case::FalseSharing, 2, 8, 68.0)];
        let mut rows: Vec<Row> = Vec::new();
        for (case, threads, distance_bytes, ms) in cases.into_iter().chain([(Case::NoSharing, 2, 128, 15.0)]) {
            for trial in 0..3u64 {
                let elapsed_ms = ms + trial as f64;
                rows.push(Row {
                    case,
                    threads,
                    trial,
                    trials_planned: 3,
                    total_increments: 2_000,
                    increments_per_thread: 2_000 / threads,
                    distance_bytes,
                    elapsed_ns: (elapsed_ms * 1e6) as u64,
                    ns_per_increment: elapsed_ms * 1e6 / (2_000 / threads) as f64,
                    pinned: true,
                    cpus: "0,1".into(),
                    cache_misses: CounterReading::Unavailable,
                    snoop_hit_modified: CounterReading::Unavailable,
                });
            }
        }
        rows
    }

    #[test]
    fn cases_and_ratios_sit_beside_the_article() {
        let mut rows = rows();
        // No sharing planned 5 trials and got 3: the budget cut shows beside the case.
        rows.iter_mut().filter(|row| row.case == Case::NoSharing).for_each(|row| row.trials_planned = 5);
        let article = reference().unwrap();
        let section = section(&[Measured::new("vm", &rows)], &article).unwrap();
        let cases = &section.tables[0];
        assert_eq!(cases.rows.len(), 4);
        assert_eq!(cases.rows[3][1].text, "each thread its own counter, 128 bytes apart");
        assert_eq!(cases.columns[7].label, "evidence");
        assert_eq!(cases.rows[0][7].text, "3 trials, interval covers 75%, too few for a claim; outliers none");
        assert_eq!(
            cases.rows[3][7].text,
            "3 of 5 trials (time budget spent), interval covers 75%, too few for a claim; outliers none"
        );
        let ratios = &section.tables[1];
        assert_eq!(ratios.rows[0][1].text, "3.87x", "the article's ratio as printed");
        assert!(ratios.rows[0][2].text.starts_with("4.31x ("), "{:?}", ratios.rows[0][2]);
        assert!(section.article[0].contains("false / no sharing 3.87x"), "{}", section.article[0]);
        assert!(section.figures[0].text.contains("vm: single: "), "{}", section.figures[0].text);
    }

    #[test]
    fn nothing_measured_still_states_the_article() {
        let section = section(&[], &reference().unwrap()).unwrap();
        assert!(!section.measured() && section.article.len() == 1);
    }
}
