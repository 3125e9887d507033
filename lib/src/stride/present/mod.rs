//! The stride sweep as a [`Section`]: the article's table beside each machine's medians,
//! the chart, the sentence the data supports, and what the cache-miss counters recorded.

mod layout;

pub use layout::{layout, layout_table, Layout};

use serde::Deserialize;

use super::chart::{series_from_summaries, stride_chart};
use super::{article_ns_per_add, fewer_threads_findings, finding, summarize, Row, StrideSummary, EXPERIMENT};
use crate::chart::{IntervalPoint, Series};
use crate::format;
use crate::kit::reference::ReferenceFile;
use crate::kit::{
    cache_miss_note, Answer, Context, Effect, EffectValue, Plausible, Present, PresentError, ReferenceText,
};
use crate::measured::{config_notes, findings_and_headlines, points_per_machine, Measured};
use crate::reference_file;
use crate::run_format::{Run, RunsError};
use crate::transfers::{penalty_sentence, OneWay, TransfersPerAdd};
use crate::view::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};

pub const TITLE: &str = "False sharing: the stride sweep";
/// The figure's title (also the note's, when it cannot be drawn).
const FIGURE: &str = "stride sweep";
const ARTICLE: &str = "article (Apple M3 Max, 8 threads)";

/// Article A's stride table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StrideReference {
    pub stride_bytes: u64,
    pub time_ms: f64,
    pub relative_to_fastest: f64,
}

/// Its file in `data/reference/`, compiled in.
pub const REFERENCE: ReferenceFile<StrideReference> = reference_file!("stride.csv");

/// The article's stride table's rows.
pub fn reference() -> Result<Vec<StrideReference>, RunsError> {
    REFERENCE.rows()
}

/// Its section over saved runs, with the article's reference numbers.
impl Present for super::StrideSweep {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("../prose.md");
    const REFERENCES: &'static [ReferenceText] = &[REFERENCE.file];

    const CLAIMS: &'static [&'static str] = &["A4", "A10"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        Ok(Some(section(&Measured::from_runs(runs), &reference()?)?))
    }

    const EFFECTS: &'static [Effect] = &[KNEE, PENALTY];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let knee = knee_of(run);
        let penalty = match knee {
            Some(super::Knee::At { penalty, .. }) => Some(penalty),
            _ => None,
        };
        let word = knee.map(|knee| match knee {
            super::Knee::At { stride_bytes, .. } => format::bytes(stride_bytes),
            super::Knee::NoPenalty { .. } => "no penalty".into(),
            super::Knee::TooFewTrials { .. } => "too few trials".into(),
        });
        vec![EffectValue::word(KNEE, word), EffectValue::of(PENALTY, penalty)]
    }
}

/// Where the stride penalty ends: the smallest stride within 10% of the fastest.
pub const KNEE: Effect = Effect::word("stride-knee", "knee");

const PENALTY: Effect = Effect {
    id: "stride",
    name: "stride penalty (smallest over best stride)",
    unit: "x",
    claim: Some("A4"),
    plausible: Plausible::RATIO,
};

/// Where the stride penalty ends in `run`, when it measured the sweep.
pub fn knee_of(run: &Run) -> Option<super::Knee> {
    run.rows::<Row>().map(summarize).as_deref().and_then(super::knee)
}

/// The section for `machines` (one or several), beside the article's sweep.
pub fn section(machines: &[Measured<'_, Row>], article: &[StrideReference]) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    if machines.is_empty() {
        return Ok(section);
    }
    let summaries: Vec<Vec<StrideSummary>> = machines.iter().map(|m| summarize(m.rows)).collect();
    findings_and_headlines(
        &mut section,
        machines,
        &summaries,
        |s, verdict| finding(s, verdict),
        |s, one_way| transfers(s, one_way),
    );
    for machine in machines {
        let fewer = fewer_threads_findings(machine.rows);
        section.findings.extend(fewer.into_iter().map(|text| Finding::about(&machine.label, text)));
    }
    section.add_figure(figure(machines, &summaries, article));
    section.tables.push(table(machines, &summaries, article));
    section.notes.push(Finding::general(
        "Relative: median time over the fastest stride's median. Interval: a distribution-free interval for the \
         median (with 5 trials, the fastest to the slowest trial, about 94% coverage). Transfers per add: the extra \
         time per add over the fastest stride's, divided by the one-way core-to-core latency measured in the same \
         run (its interval from both intervals' ends). Each stride's trials are sized on their own, so strides \
         compare per add. Noisy values varied by more than 10% between trials.",
    ));
    section
        .notes
        .extend(machines.iter().zip(&summaries).map(|(m, s)| Finding::about(&m.label, cache_misses(m.rows, s))));
    section.notes.extend(config_notes(machines));
    Ok(section)
}

fn figure(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<StrideSummary>],
    article: &[StrideReference],
) -> Result<Figure, NotDrawn> {
    let mut series = vec![Series {
        label: ARTICLE.into(),
        points: article
            .iter()
            .map(|r| {
                let ns = article_ns_per_add(r.time_ms);
                IntervalPoint { x: r.stride_bytes as f64, median: ns, low: ns, high: ns }
            })
            .collect(),
    }];
    series.extend(machines.iter().zip(summaries).map(|(m, s)| {
        let threads = s.first().map_or(0, |s| s.threads);
        series_from_summaries(format!("{}, {threads} threads", m.label), s)
    }));
    let points = points_per_machine(machines, summaries, |s| {
        format!(
            "{} B: {} ns per add ({})",
            s.stride_bytes,
            format::number(s.ns_per_op.median),
            format::ratio(s.relative_to_fastest)
        )
    });
    let chart = stride_chart("Stride sweep: time per add", &series).map_err(|error| NotDrawn::new(FIGURE, error))?;
    Ok(Figure {
        id: "stride-chart",
        title: FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Median time per add (dots) with the median's interval (bars), both axes logarithmic: elapsed time \
                  over the adds each thread did, so runs of any size share the axis. The article's line is its \
                  published table (Apple M3 Max, 8 goroutines, 10 M adds each) converted the same way; it has no \
                  intervals."
            .into(),
        text: format!("Median time per add per stride. {}", points.join("; ")),
    })
}

/// One row per stride (the article's and every machine's): the article's time and relative
/// time, then each machine's median, interval, relative time and nanoseconds per add.
fn table(machines: &[Measured<'_, Row>], summaries: &[Vec<StrideSummary>], article: &[StrideReference]) -> Table {
    let mut strides: Vec<u64> = article.iter().map(|r| r.stride_bytes).collect();
    strides.extend(summaries.iter().flatten().map(|s| s.stride_bytes));
    strides.sort_unstable();
    strides.dedup();
    let mut columns = vec![
        Column::number("stride (bytes)"),
        Column::number("ns per add").in_group("article"),
        Column::number("relative").in_group("article"),
    ];
    for machine in machines {
        for label in ["median (ns per add)", "interval (ns per add)", "relative", "transfers per add", "evidence"] {
            columns.push(Column::number(label).in_group(&machine.label));
        }
    }
    let rows = strides
        .iter()
        .map(|&stride| {
            let published = article.iter().find(|r| r.stride_bytes == stride);
            let mut row = vec![
                Cell::from(stride.to_string()),
                published.map_or_else(Cell::missing, |r| Cell::from(format::number(article_ns_per_add(r.time_ms)))),
                published.map_or_else(Cell::missing, |r| Cell::from(format::ratio(r.relative_to_fastest))),
            ];
            for (machine, summaries) in machines.iter().zip(summaries) {
                row.extend(cells(summaries, summaries.iter().find(|s| s.stride_bytes == stride), machine.one_way));
            }
            row
        })
        .collect();
    Table { id: "times", caption: "Time per add by stride".into(), columns, rows }
}

fn cells(summaries: &[StrideSummary], summary: Option<&StrideSummary>, one_way: Option<OneWay>) -> [Cell; 5] {
    let Some(s) = summary else {
        return [Cell::missing(), Cell::missing(), Cell::missing(), Cell::missing(), Cell::missing()];
    };
    let fastest = fastest(summaries);
    let transfers = match (fastest, one_way) {
        (Some(fastest), _) if fastest.stride_bytes == s.stride_bytes => Cell::from("reference"),
        (Some(fastest), Some(one_way)) => {
            Cell::from(TransfersPerAdd::of(&s.ns_per_op, &fastest.ns_per_op, one_way).cell_text())
        }
        _ => Cell::missing(),
    };
    [
        Cell::noisy(format::number(s.ns_per_op.median), s.ns_per_op.is_noisy()),
        Cell::from(format::interval(s.ns_per_op.median_low, s.ns_per_op.median_high)),
        Cell::from(format::ratio(s.relative_to_fastest)),
        transfers,
        Cell::evidence(&s.evidence, &s.ns_per_op),
    ]
}

/// The stride with the lowest median time per add.
fn fastest(summaries: &[StrideSummary]) -> Option<&StrideSummary> {
    summaries.iter().min_by(|a, b| a.ns_per_op.median.total_cmp(&b.ns_per_op.median))
}

/// The smallest stride's penalty over the fastest stride's, in cache-line transfers per add.
fn transfers(summaries: &[StrideSummary], one_way: Option<OneWay>) -> Option<String> {
    let (smallest, fastest) = (summaries.first()?, fastest(summaries)?);
    if smallest.stride_bytes == fastest.stride_bytes {
        return None;
    }
    let what = format!(
        "counters {} bytes apart, over the fastest stride ({} bytes),",
        smallest.stride_bytes, fastest.stride_bytes
    );
    penalty_sentence(&what, &smallest.ns_per_op, &fastest.ns_per_op, one_way)
}

fn cache_misses(rows: &[Row], summaries: &[StrideSummary]) -> String {
    let groups = crate::group::by_key(rows, |row| row.stride_bytes);
    cache_miss_note(
        summaries
            .iter()
            .map(|s| {
                let group = groups.binary_search_by_key(&s.stride_bytes, |(stride, _)| *stride).map(|at| &groups[at].1);
                let readings = group.into_iter().flatten().map(|row| row.cache_misses);
                (format!("{} B", s.stride_bytes), readings.collect())
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::CounterReading;

    fn rows() -> Vec<Row> {
        [(8, [40.0, 42.0, 41.0]), (64, [10.0, 11.0, 10.5])]
            .iter()
            .flat_map(|&(stride, times)| {
                times.into_iter().enumerate().map(move |(trial, ms)| Row {
                    stride_bytes: stride,
                    threads: 2,
                    trial: trial as u64,
                    trials_planned: 3,
                    iters_per_thread: 1000,
                    elapsed_ns: (ms * 1e6) as u64,
                    ns_per_op: ms * 1e6 / 1000.0,
                    pinned: true,
                    cpus: "0,1".into(),
                    cache_misses: CounterReading::Unavailable,
                    snoop_hit_modified: CounterReading::Unavailable,
                })
            })
            .collect()
    }

    fn article() -> Vec<StrideReference> {
        vec![
            StrideReference { stride_bytes: 8, time_ms: 2407.0, relative_to_fastest: 122.46 },
            StrideReference { stride_bytes: 128, time_ms: 20.0, relative_to_fastest: 1.0 },
        ]
    }

    #[test]
    fn one_row_per_stride_with_the_article_beside_each_machine() {
        let rows = rows();
        let section = section(&[Measured::new("laptop", &rows)], &article()).unwrap();
        let table = &section.tables[0];
        assert_eq!(table.rows.len(), 3, "8, 64 and the article's 128");
        let texts = |row: &Vec<Cell>| row.iter().map(|c| c.text.clone()).collect::<Vec<_>>();
        // 40-42 ms over 1000 adds is 40000-42000 ns per add; the article's 2407 ms over 10 M adds is 241 ns.
        assert_eq!(
            texts(&table.rows[0]),
            [
                "8",
                "241",
                "122.46x",
                "41000",
                "40000–42000",
                "3.90x",
                "n/a",
                "3 trials, interval covers 75%, too few for a claim; outliers none"
            ]
        );
        // The article has no 64-byte row, and the machine no 128-byte one: shown as missing, not invented.
        assert_eq!(texts(&table.rows[1])[1..3], ["n/a", "n/a"]);
        assert_eq!(texts(&table.rows[2])[3..], ["n/a", "n/a", "n/a", "n/a", "n/a"]);
        assert_eq!(section.findings.len(), 1, "too few trials: no transfers sentence");
        assert!(section.notes.iter().any(|n| n.text.starts_with("Cache misses per trial: unavailable")));
    }

    #[test]
    fn several_machines_get_a_series_and_columns_each() {
        let rows = rows();
        let machines = [Measured::new("laptop", &rows[..]), Measured::new("server", &rows[..3])];
        let section = section(&machines, &article()).unwrap();
        assert_eq!(section.tables[0].columns.len(), 3 + 2 * 5);
        let text = &section.figures[0].text;
        assert!(text.contains("laptop: 8 B: 41000 ns per add (3.90x), 64 B: 10500 ns per add (1.00x)"), "{text}");
        assert!(text.ends_with("server: 8 B: 41000 ns per add (1.00x)"), "{text}");
        assert!(section.figures[0].svg.starts_with("<svg"));
        assert!(section.summary().starts_with("laptop: "));
    }

    #[test]
    fn the_penalty_is_counted_in_the_runs_own_transfers() {
        let rows: Vec<Row> =
            rows().into_iter().flat_map(|row| [row.clone(), Row { trial: row.trial + 3, ..row }]).collect();
        let one_way = OneWay { ns: 100.0, low_ns: 90.0, high_ns: 110.0, pairs: 1 };
        let with = [Measured::new("vm", &rows[..]).with_one_way(Some(one_way))];
        let section = section(&with, &article()).unwrap();
        let transfers = section.findings.iter().find(|f| f.text.starts_with("In cache-line transfers")).unwrap();
        assert!(transfers.text.contains("that is 305.00 transfers per add"), "{}", transfers.text);
        let row_8 = &section.tables[0].rows[0];
        assert!(row_8[6].text.starts_with("305.00 ("), "{:?}", row_8[6]);
        assert_eq!(section.tables[0].rows[1][6].text, "reference");
        let without = section_of(&[Measured::new("vm", &rows[..])]);
        assert!(without.findings.iter().any(|f| f.text == crate::transfers::NO_ONE_WAY));
    }

    fn section_of(machines: &[Measured<'_, Row>]) -> Section {
        section(machines, &article()).unwrap()
    }

    #[test]
    fn nothing_measured_is_an_empty_section() {
        let section = section(&[], &article()).unwrap();
        assert!(!section.measured() && section.tables.is_empty());
    }

    #[test]
    fn layout_counts_lines_and_writers_per_line() {
        assert_eq!(
            layout(8, 8, 64),
            Layout { stride_bytes: 8, span_bytes: 64, lines_touched: 1, most_counters_per_line: 8 }
        );
        assert_eq!(layout(8, 32, 64).lines_touched, 4);
        assert_eq!(layout(8, 32, 64).most_counters_per_line, 2);
        assert_eq!(layout(8, 64, 128).most_counters_per_line, 2);
        assert_eq!(layout(8, 128, 64).most_counters_per_line, 1);
        assert_eq!(layout_table(8, &[8, 64], 64).rows.len(), 2);
    }
}
