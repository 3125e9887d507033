//! The counter layouts as a [`Section`]: the article's padded-against-compact numbers beside
//! each machine's, speed and memory against the compact array, the extrapolation to 100 000
//! counters, the chart, and the sentences the data supports.

use serde::Deserialize;

use super::chart::{counters_chart, layout_x, series_from_summaries};
use super::{
    finding, format_bytes, format_count, headline, shard_finding, summarize, summarize_shards, Layout, LayoutSummary,
    Row, ShardSummary, EXPERIMENT, EXTRAPOLATED_COUNTERS,
};
use crate::chart::{IntervalPoint, Series};
use crate::format;
use crate::kit::reference::{printed_number, ReferenceFile};
use crate::kit::{Answer, Context, Effect, EffectValue, Plausible, Present, PresentError, ReferenceText};
use crate::measured::{config_notes, per_machine, points_per_machine, Measured};
use crate::reference_file;
use crate::run_format::Run;
use crate::run_format::RunsError;
use crate::transfers::{penalty_sentence, OneWay};
use crate::view::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};

pub const TITLE: &str = "Fixing a hot counter: layouts and their memory";
/// The figure's title (also the note's, when it cannot be drawn).
const FIGURE: &str = "counter layouts";
/// The article's goroutines each did 10 M increments (its table prints only the times).
const ARTICLE_INCREMENTS_PER_GOROUTINE: f64 = 10_000_000.0;

/// Its section over saved runs, with the article's reference numbers.
impl Present for super::CounterLayouts {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("prose.md");
    const REFERENCES: &'static [ReferenceText] = &[REFERENCE.file];

    const CLAIMS: &'static [&'static str] = &["A2", "A3", "A8", "A9", "A11", "C15"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        Ok(Some(section(&Measured::from_runs(runs), &reference()?)?))
    }

    const EFFECTS: &'static [Effect] = &[PADDED];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let summaries = run.rows::<super::Row>().map(super::summarize);
        let cache_padded = summaries
            .iter()
            .flatten()
            .find(|s| s.layout == super::Layout::CachePadded)
            .and_then(|s| s.faster_than_compact);
        vec![EffectValue::of(PADDED, cache_padded)]
    }
}

const PADDED: Effect = Effect {
    id: "padded",
    name: "cache-padded counters over compact",
    unit: "x",
    claim: Some("A8"),
    plausible: Plausible::RATIO,
};

pub fn section(machines: &[Measured<'_, Row>], article: &[CountersReference]) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    section.article.push(article_sentence(article));
    if machines.is_empty() {
        return Ok(section);
    }
    let summaries: Vec<Vec<LayoutSummary>> = machines.iter().map(|m| summarize(m.rows)).collect();
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    section.findings = per_machine(machines, &summaries, |s, verdict| finding(s, verdict));
    // The summary's line leaves the machine's caveat to the headline table above it.
    section.headlines = per_machine(machines, &summaries, |s, _| headline(s, None));
    let sweeps: Vec<Vec<ShardSummary>> = machines.iter().map(|m| summarize_shards(m.rows)).collect();
    let transfers =
        machines.iter().zip(&summaries).filter_map(|(m, s)| Some(Finding::about(&m.label, transfers(s, m.one_way)?)));
    section.findings.extend(transfers.collect::<Vec<_>>());
    section
        .findings
        .extend(machines.iter().zip(&sweeps).filter_map(|(m, s)| Some(Finding::about(&m.label, shard_finding(s)?))));
    section.add_figure(figure(machines, &summaries, article));
    section.tables.push(table(machines, &summaries, article));
    if sweeps.iter().any(|sweep| !sweep.is_empty()) {
        section.tables.push(shard_table(machines, &sweeps));
    }
    section.notes.push(Finding::general(format!(
        "Each layout's trials are sized on their own (a Mutex and a local count differ a hundredfold in speed), so \
         layouts compare per add: elapsed time over the adds each thread did. Faster than compact: the compact \
         array's median time per add over the layout's, its interval in parentheses; an effect is claimed only when \
         the interval excludes 1. Bytes: what the layout's cells occupy (for local flush, the shared atomic and one \
         local count per thread). The {} counters column multiplies the bytes by {0} counters, one per connection, \
         as the article does. The article's times are for 10 M increments per goroutine. Noisy values varied by more \
         than 10% between trials.",
        format_count(EXTRAPOLATED_COUNTERS)
    )));
    section.notes.extend(config_notes(machines));
    Ok(section)
}

/// The compact array's penalty over cache-padded shards, in cache-line transfers per add.
fn transfers(summaries: &[LayoutSummary], one_way: Option<OneWay>) -> Option<String> {
    let find = |layout: Layout| summaries.iter().find(|s| s.layout == layout);
    let (compact, padded) = (find(Layout::Compact)?, find(Layout::CachePadded)?);
    if compact.cells < 2 {
        return None;
    }
    let pad = padded.bytes_used / padded.cells.max(1);
    let what = format!("the compact array, over shards padded to {pad} bytes,");
    penalty_sentence(&what, &compact.ns_per_increment, &padded.ns_per_increment, one_way)
}

fn figure(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<LayoutSummary>],
    article: &[CountersReference],
) -> Result<Figure, NotDrawn> {
    let mut series = vec![article_series(article)];
    series.extend(machines.iter().zip(summaries).map(|(m, s)| {
        let threads = s.first().map_or(0, |s| s.threads);
        series_from_summaries(format!("{}, {threads} threads", m.label), s)
    }));
    let points = points_per_machine(machines, summaries, |s| {
        format!("{}: {} ns", s.layout.short_label(), format::number(s.ns_per_increment.median))
    });
    let chart =
        counters_chart("Counter layouts: time per increment", &series).map_err(|error| NotDrawn::new(FIGURE, error))?;
    Ok(Figure {
        id: "layouts-chart",
        title: FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Median time per increment as each thread saw it, per layout (log scale; bars are the median's \
                  interval). The article's dots are its two layouts, 10 M increments per goroutine."
            .into(),
        text: format!("Median per increment. {}", points.join("; ")),
    })
}

/// The article's two layouts as nanoseconds per increment per goroutine.
fn article_series(article: &[CountersReference]) -> Series {
    Series {
        label: "article (Apple M3 Max, 8 goroutines)".into(),
        points: article
            .iter()
            .map(|r| {
                let ns = r.time_ms * 1e6 / ARTICLE_INCREMENTS_PER_GOROUTINE;
                IntervalPoint { x: layout_x(r.layout), median: ns, low: ns, high: ns }
            })
            .collect(),
    }
}

fn table(machines: &[Measured<'_, Row>], summaries: &[Vec<LayoutSummary>], article: &[CountersReference]) -> Table {
    let extrapolated = format!("{} counters", format_count(EXTRAPOLATED_COUNTERS));
    let mut columns = vec![
        Column::text("layout"),
        Column::text("what it is"),
        Column::number("time (ms)").in_group("article"),
        Column::number("ns per add").in_group("article"),
        Column::number("bytes").in_group("article"),
    ];
    for machine in machines {
        let labels =
            ["median (ns per add)", "interval (ns per add)", "bytes", "faster than compact", "memory vs compact"];
        columns.extend(labels.iter().map(|label| Column::number(*label).in_group(&machine.label)));
        columns.push(Column::number(extrapolated.clone()).in_group(&machine.label));
        columns.push(Column::number("evidence").in_group(&machine.label));
    }
    let rows = Layout::ALL
        .iter()
        .map(|&layout| {
            let published = article.iter().find(|r| r.layout == layout);
            let mut row = vec![
                Cell::from(layout.name()),
                Cell::from(layout.describe()),
                published.map_or_else(Cell::missing, |r| Cell::from(r.time_ms.to_string())),
                published.map_or_else(Cell::missing, |r| {
                    Cell::from(format::number(r.time_ms * 1e6 / ARTICLE_INCREMENTS_PER_GOROUTINE))
                }),
                published.map_or_else(Cell::missing, |r| Cell::from(r.bytes.to_string())),
            ];
            for machine in summaries {
                row.extend(cells(machine.iter().find(|s| s.layout == layout)));
            }
            row
        })
        .collect();
    Table { id: "times", caption: "Time and memory per layout".into(), columns, rows }
}

fn cells(summary: Option<&LayoutSummary>) -> Vec<Cell> {
    let Some(s) = summary else { return vec![Cell::missing(); 7] };
    vec![
        Cell::noisy(format::number(s.ns_per_increment.median), s.ns_per_increment.is_noisy()),
        Cell::from(format::interval(s.ns_per_increment.median_low, s.ns_per_increment.median_high)),
        Cell::from(s.bytes_used.to_string()),
        match (s.layout, s.faster_than_compact) {
            (Layout::Compact, _) => Cell::from("reference"),
            (_, ratio) => ratio.map_or_else(Cell::missing, |r| Cell::from(format::ratio_with_interval(&r))),
        },
        s.memory_vs_compact.map_or_else(Cell::missing, |m| Cell::from(format!("{}x", format::short_number(m)))),
        Cell::from(format_bytes(s.bytes_for_extrapolated_counters)),
        Cell::evidence(&s.evidence, &s.ns_per_increment),
    ]
}

/// The shard-count sweep: a row per shard count, per machine the compact and the padded
/// array's time per add and padding's speed-up at that count.
fn shard_table(machines: &[Measured<'_, Row>], sweeps: &[Vec<ShardSummary>]) -> Table {
    let mut counts: Vec<u64> = sweeps.iter().flatten().map(|s| s.shards).collect();
    counts.sort_unstable();
    counts.dedup();
    let mut columns = vec![Column::number("shards"), Column::text("article")];
    for machine in machines {
        let labels = ["compact (ns per add)", "padded (ns per add)", "padded faster by", "evidence"];
        columns.extend(labels.iter().map(|label| Column::number(*label).in_group(&machine.label)));
    }
    let rows = counts
        .iter()
        .map(|&shards| {
            let mut row = vec![Cell::from(shards.to_string()), Cell::from("no change (2 to 64 shards)")];
            for sweep in sweeps {
                let at = |layout: Layout| sweep.iter().find(|s| s.shards == shards && s.layout == layout);
                let per_add = |s: Option<&ShardSummary>| {
                    s.map_or_else(Cell::missing, |s| {
                        let text = format!(
                            "{} ({})",
                            format::number(s.ns_per_increment.median),
                            format::interval(s.ns_per_increment.median_low, s.ns_per_increment.median_high)
                        );
                        Cell::noisy(text, s.ns_per_increment.is_noisy())
                    })
                };
                let (compact, padded) = (at(Layout::Compact), at(Layout::CachePadded));
                row.push(per_add(compact));
                row.push(per_add(padded));
                row.push(
                    padded
                        .and_then(|p| p.padded_faster)
                        .map_or_else(Cell::missing, |r| Cell::from(format::ratio_with_interval(&r))),
                );
                let evidence = [compact, padded].into_iter().flatten().min_by_key(|s| s.evidence.trials);
                row.push(evidence.map_or_else(Cell::missing, |s| Cell::evidence(&s.evidence, &s.ns_per_increment)));
            }
            row
        })
        .collect();
    Table {
        id: "shard-sweep",
        caption: "Shard-count sweep: the same threads, more shards (median time per add, its interval)".into(),
        columns,
        rows,
    }
}

/// What each layout is, in words, with its cell count (for the prose beside the table).
pub fn layouts_table(summaries: &[LayoutSummary]) -> Table {
    let rows = summaries
        .iter()
        .map(|s| {
            vec![Cell::from(s.layout.short_label()), Cell::from(s.layout.describe()), Cell::from(s.cells.to_string())]
        })
        .collect();
    Table {
        id: "layouts",
        caption: "The layouts".into(),
        columns: vec![Column::text("layout"), Column::text("what it is"), Column::number("cells")],
        rows,
    }
}

/// "The article: compact ... 2327 ms; padded ... 46 ms: 50.95x faster for 16x the memory ..."
fn article_sentence(article: &[CountersReference]) -> String {
    let compact = article.iter().find(|r| r.layout == Layout::Compact);
    let padded = article.iter().find(|r| r.layout == Layout::CachePadded);
    let (Some(compact), Some(padded)) = (compact, padded) else {
        return "The article's padded-against-compact numbers are missing from data/reference/counters.csv.".into();
    };
    let printed = |value: &Option<String>| value.clone().unwrap_or_else(|| format::NOT_AVAILABLE.into());
    format!(
        "The article ({} goroutines, one shard each): the compact array ({} bytes) took {} ms; shards padded to {} \
         bytes ({} bytes) took {} ms: {}x faster for {}x the memory ({} extra bytes). For {} such counters, one per \
         connection: {} MB against {} MB.",
        compact.shards,
        compact.bytes,
        compact.time_ms,
        padded.bytes_per_shard,
        padded.bytes,
        padded.time_ms,
        printed(&padded.faster_than_compact),
        printed(&padded.memory_vs_compact),
        printed(&padded.extra_bytes),
        format_count(EXTRAPOLATED_COUNTERS),
        printed(&padded.memory_at_100000_counters_mb),
        printed(&compact.memory_at_100000_counters_mb),
    )
}

/// Article A's padded-against-compact shards. Empty cells: the article printed nothing.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CountersReference {
    pub layout: crate::counters::Layout,
    pub shards: u64,
    pub bytes_per_shard: u64,
    pub bytes: u64,
    pub time_ms: f64,
    #[serde(deserialize_with = "printed_number")]
    pub faster_than_compact: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub memory_vs_compact: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub extra_bytes: Option<String>,
    #[serde(deserialize_with = "printed_number")]
    pub memory_at_100000_counters_mb: Option<String>,
}

/// Its file in `data/reference/`, compiled in.
pub const REFERENCE: ReferenceFile<CountersReference> = reference_file!("counters.csv");

/// The article's shards table's rows.
pub fn reference() -> Result<Vec<CountersReference>, RunsError> {
    REFERENCE.rows()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Row> {
        let layouts =
            [(Layout::Compact, 2, 16, 40.0), (Layout::CachePadded, 2, 256, 10.0), (Layout::Mutex, 1, 64, 90.0)];
        let mut rows = Vec::new();
        for (layout, cells, bytes_used, ms) in layouts {
            for trial in 0..3u64 {
                let elapsed_ms = ms + trial as f64;
                rows.push(Row {
                    layout,
                    threads: 2,
                    trial,
                    trials_planned: 3,
                    total_increments: 2_000,
                    increments_per_thread: 1_000,
                    cells,
                    bytes_used,
                    increments_per_write: 1,
                    elapsed_ns: (elapsed_ms * 1e6) as u64,
                    ns_per_increment: elapsed_ms * 1e6 / 1_000.0,
                    pinned: true,
                    cpus: "0,1".into(),
                    part: crate::counters::Part::Layouts,
                });
            }
        }
        rows
    }

    #[test]
    fn speed_and_memory_sit_beside_the_article() {
        let rows = rows();
        let section = section(&[Measured::new("vm", &rows)], &reference().unwrap()).unwrap();
        let table = &section.tables[0];
        assert_eq!(table.rows.len(), Layout::ALL.len(), "every layout, measured or not");
        assert!(table.columns[10].label.contains("100 000 counters"));
        assert_eq!(table.columns[11].label, "evidence");
        let padded = table.rows.iter().find(|row| row[0].text == Layout::CachePadded.name()).unwrap();
        // compact 41 ms over padded 11 ms; 256 bytes is 16x compact's 16.
        assert_eq!(padded[2].text, "46");
        assert_eq!(padded[8].text, "3.73x (3.33x–4.20x)");
        assert_eq!(padded[9].text, "16x");
        assert_eq!(padded[11].text, "3 trials, interval covers 75%, too few for a claim; outliers none");
        let unmeasured = table.rows.iter().find(|row| row[0].text == Layout::LocalFlush.name()).unwrap();
        assert!(unmeasured[4..].iter().all(|cell| cell.text == "n/a"));
        assert!(section.figures[0].text.contains("CachePadded: 11000 ns"), "{}", section.figures[0].text);
        assert_eq!(section.summary(), headline(&summarize(&rows), None));
        assert_eq!(layouts_table(&summarize(&rows)).rows.len(), 3);
    }
}
