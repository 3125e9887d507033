//! The GC sweep as a [`Section`]: the article's two tables beside each machine's medians, a
//! threads chart per machine and one ratio chart, every cell with its derived values (see
//! [`cells`]), and the sentences the data supports.

mod cells;
mod go;
mod search;

use serde::Deserialize;

use crate::kit::reference::ReferenceFile;
use crate::kit::{Answer, Context, Effect, EffectValue, HeadlineRow, Plausible, Present, PresentError, ReferenceText};
use crate::measured::Measured;
use crate::reference_file;
use crate::run_format::RunsError;
use crate::view::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};

use super::chart::ratio::throughput_by_ratio_chart;
use super::chart::threads::throughput_by_threads_chart;
use super::chart::{series_by_ratio, series_by_threads, RatioPoint, RatioSeries};
use super::compare::like_for_like_threads;
use super::summary::{cell, most_threads};
use super::{finding, summarize, summarize_go, CellSummary, GcRatio, GoCell, GoRow, Row, Workload, EXPERIMENT};
use crate::chart::{IntervalPoint, Series};
use crate::format;
use crate::run_format::Run;

pub const TITLE: &str = "Garbage collection: ratio against threads";
/// The ratio figure's title (also its note's, when it cannot be drawn).
const RATIO_FIGURE: &str = "gc throughput by ratio";

/// The article's two tables: signatures per second by goroutines, and by GOGC.
#[derive(Debug, Clone, Copy)]
pub struct GcArticle<'a> {
    pub threads: &'a [GcThreadsReference],
    pub ratios: &'a [GcRatioReference],
}

/// Its section over saved runs, with the article's reference numbers.
impl Present for super::GcSweep {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("../prose.md");
    const REFERENCES: &'static [ReferenceText] = &[THREADS_REFERENCE.file, RATIOS_REFERENCE.file];

    const CLAIMS: &'static [&'static str] = &["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B9"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        let (threads, ratios) = (threads_reference()?, ratios_reference()?);
        let machines = Measured::from_runs(runs);
        let go: Vec<Option<&[GoRow]>> =
            runs.iter().filter(|run| run.rows::<Row>().is_some()).map(|run| run.runtime_rows::<GoRow>()).collect();
        Ok(Some(section_with_go(&machines, &go, GcArticle { threads: &threads, ratios: &ratios })?))
    }

    /// B's best GOGC over GOGC=100 at 48 goroutines (the search, claim B6), from the reference data.
    fn headline() -> Result<Option<HeadlineRow>, PresentError> {
        let ratios = ratios_reference()?;
        let default = ratios.iter().find(|r| r.gogc == GcRatio::DEFAULT).map_or(f64::NAN, |r| r.signatures_per_sec);
        let best = ratios.iter().max_by(|a, b| a.signatures_per_sec.total_cmp(&b.signatures_per_sec));
        let best_per_s = best.map_or(f64::NAN, |b| b.signatures_per_sec);
        Ok(Some(HeadlineRow {
            name: "B. The collector's ratio",
            figure: format!(
                "48 goroutines: GOGC={} ran {:.2}x GOGC=100 ({} vs {} signatures/s)",
                best.map_or("?".into(), |b| b.gogc.to_string()),
                best_per_s / default,
                crate::counters::format_count(best_per_s.round() as u64),
                crate::counters::format_count(default.round() as u64)
            ),
            setting: "Go, 48 goroutines".into(),
            claim: "B6",
        }))
    }

    const EFFECTS: &'static [Effect] = &[BEST_RATIO];

    fn effect_values(run: &Run) -> Vec<EffectValue> {
        let best = run.rows::<Row>().map(summarize).map(|cells| super::summary::best_ratio_per_threads(&cells));
        let at_most_threads = best.and_then(|best| best.into_iter().max_by_key(|b| b.threads));
        vec![EffectValue {
            lead: at_most_threads.as_ref().map(|best| best.ratio.to_string()),
            ..EffectValue::of(BEST_RATIO, at_most_threads.as_ref().and_then(|best| best.over_default))
        }]
    }
}

const BEST_RATIO: Effect = Effect {
    id: "gc-ratio",
    name: "GC best ratio over ratio 100",
    unit: "x",
    claim: Some("B6"),
    plausible: Plausible::RATIO,
};

/// The section without real Go beside the model (it says how to add it).
pub fn section(machines: &[Measured<'_, Row>], article: GcArticle<'_>) -> Result<Section, PresentError> {
    section_with_go(machines, &[], article)
}

/// The section with each machine's Go rows (`go[i]` for `machines[i]`; missing: not run).
pub fn section_with_go(
    machines: &[Measured<'_, Row>],
    go: &[Option<&[GoRow]>],
    article: GcArticle<'_>,
) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    if machines.is_empty() {
        return Ok(section);
    }
    let summaries: Vec<Vec<CellSummary>> = machines.iter().map(|m| summarize(m.rows)).collect();
    let go_cells: Vec<Option<Vec<GoCell>>> =
        (0..machines.len()).map(|i| go.get(i).copied().flatten().map(summarize_go)).collect();
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    for ((machine, cells), go) in machines.iter().zip(&summaries).zip(&go_cells) {
        let beside_go = go::sentence(cells, go.as_deref(), machine.logical_cpus);
        section
            .findings
            .push(Finding::about(&machine.label, format!("{} {beside_go}", finding(cells, machine.verdict.as_ref()))));
        // The summary's line leaves the machine's caveat to the headline table above it.
        section.headlines.push(Finding::about(&machine.label, format!("{} {beside_go}", finding(cells, None))));
        section.add_figure(threads_figure(machine, cells, go.as_deref(), article.threads));
    }
    section.add_figure(ratio_figure(machines, &summaries, article.ratios));
    section.tables.push(threads_table(machines, &summaries, article.threads));
    section.tables.push(ratio_table(machines, &summaries, article.ratios));
    for ((machine, cells), go) in machines.iter().zip(&summaries).zip(&go_cells) {
        let threads = compared_threads(machine, cells);
        let sentences =
            [search::cpu_share_sentence(threads, cells, go.as_deref()), search::search_sentence(cells, go.as_deref())];
        section.findings.extend(sentences.into_iter().flatten().map(|text| Finding::about(&machine.label, text)));
        let recorded =
            cells.iter().any(|c| c.cpu_share.is_some()) || go.iter().flatten().any(|c| c.cpu_share.is_some());
        if recorded {
            section.tables.push(search::cpu_share_table(&machine.label, threads, cells, go.as_deref()));
        }
        section.tables.push(search::best_ratio_table(&machine.label, cells, go.as_deref(), article.ratios));
        section.tables.push(cells::every_cell(machine, cells));
        section.notes.push(Finding::about(&machine.label, cells::best_ratios(cells)));
    }
    section.notes.push(Finding::general(
        "* more threads than logical CPUs. x values are ratios of medians with a conservative interval (ratio of the \
         interval ends); an effect is claimed only when that interval excludes 1. Pause share: time the world was \
         stopped over the trial's wall time. Stopping: the part of the pause spent waiting for workers to reach a \
         safepoint. Peak heap: the live graph plus every span the heap held. CPU used: the process's CPU time \
         (getrusage; Go's own, per trial) over the trial's wall time x the logical CPUs, what top shows. Noisy \
         values varied by more than 10% between trials.",
    ));
    section.notes.extend(crate::measured::config_notes(machines));
    Ok(section)
}

fn point(x: f64, value: f64) -> IntervalPoint {
    IntervalPoint { x, median: value, low: value, high: value }
}

fn threads_figure(
    machine: &Measured<'_, Row>,
    cells: &[CellSummary],
    go: Option<&[GoCell]>,
    article: &[GcThreadsReference],
) -> Result<Figure, NotDrawn> {
    let mut ratios: Vec<GcRatio> = cells.iter().map(|c| c.ratio).collect();
    ratios.sort_by_key(|r| r.order_key());
    ratios.dedup();
    let mut series = vec![Series {
        label: "article: GOGC=100, 24 cores / 48 threads".into(),
        points: article.iter().map(|r| point(r.goroutines as f64, r.signatures_per_sec)).collect(),
    }];
    series.extend(ratios.iter().map(|&ratio| series_by_threads(format!("model, ratio {ratio}"), cells, ratio)));
    series.extend(go.map(go::default_ratio_series));
    let workload = match cells.first().map(|c| c.workload) {
        Some(Workload::Ecdsa) => "ECDSA P-256 signatures (the article's workload)",
        _ => "hash chains (the cheaper workload; not comparable in absolute terms with signatures)",
    };
    let cpus = machine.logical_cpus.map_or(String::new(), |cpus| format!(" on {cpus} logical CPUs"));
    let points: Vec<String> = cells
        .iter()
        .map(|c| format!("{} threads, ratio {}: {} ops/s", c.threads, c.ratio, format::number(c.ops_per_sec.median)))
        .collect();
    let title = format!("gc throughput by threads, {}", machine.label);
    let chart = throughput_by_threads_chart(
        &format!("Throughput against threads, one line per GC ratio: {}", machine.label),
        &series,
    )
    .map_err(|error| NotDrawn::new(&title, error))?;
    Ok(Figure {
        id: "by-threads-chart",
        title,
        svg: chart.svg,
        legend: chart.legend,
        caption: format!(
            "Operations per second against worker threads, one line per ratio (median of the trials, bars: its \
             interval), both axes logarithmic. {} ran {workload}{cpus}. The article's line is its published GOGC=100 \
             curve (signatures per second); it has no intervals. The real Go line, where Go was on PATH, is the \
             article's benchmark run here with GOMAXPROCS = threads.",
            machine.label
        ),
        text: format!("{}: {}", machine.label, points.join(", ")),
    })
}

fn ratio_figure(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<CellSummary>],
    article: &[GcRatioReference],
) -> Result<Figure, NotDrawn> {
    let goroutines = article.first().map_or(0, |r| r.goroutines);
    let mut series = vec![RatioSeries {
        label: format!("article: {goroutines} goroutines"),
        points: article
            .iter()
            .map(|r| RatioPoint {
                ratio: r.gogc,
                median: r.signatures_per_sec,
                low: r.signatures_per_sec,
                high: r.signatures_per_sec,
            })
            .collect(),
    }];
    let mut points = Vec::new();
    for (machine, cells) in machines.iter().zip(summaries) {
        let Some(most) = most_threads(cells) else { continue };
        series.push(series_by_ratio(format!("{}, {most} threads", machine.label), cells, most));
        let at: Vec<String> = cells
            .iter()
            .filter(|c| c.threads == most)
            .map(|c| format!("ratio {}: {} ops/s", c.ratio, format::number(c.ops_per_sec.median)))
            .collect();
        points.push(format!("{}, {most} threads: {}", machine.label, at.join(", ")));
    }
    let chart = throughput_by_ratio_chart("Throughput against GC ratio, most threads", &series)
        .map_err(|error| NotDrawn::new(RATIO_FIGURE, error))?;
    Ok(Figure {
        id: "by-ratio-chart",
        title: RATIO_FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: format!(
            "Operations per second against the ratio at the largest thread count measured (the article: {goroutines} \
             goroutines), ratios in sorted order with off last, throughput on a logarithmic axis."
        ),
        text: points.join("; "),
    })
}

fn times(value: Option<f64>) -> Cell {
    value.filter(|v| v.is_finite()).map_or_else(Cell::missing, |v| Cell::from(format::ratio(v)))
}

/// Operations per second at `at`, and relative to `base`.
fn compare_cells(at: Option<&CellSummary>, base: Option<&CellSummary>) -> [Cell; 2] {
    match at {
        None => [Cell::missing(), Cell::missing()],
        Some(at) => [
            Cell::noisy(format::number(at.ops_per_sec.median), at.ops_per_sec.is_noisy()),
            times(base.map(|base| at.ops_per_sec.median / base.ops_per_sec.median)),
        ],
    }
}

/// Thread counts of the article and every machine, each with ratio-100 throughput.
fn threads_table(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<CellSummary>],
    article: &[GcThreadsReference],
) -> Table {
    let mut keys: Vec<u64> = article.iter().map(|r| r.goroutines).collect();
    keys.extend(summaries.iter().flatten().map(|c| c.threads));
    keys.sort_unstable();
    keys.dedup();
    let one = article.iter().find(|r| r.goroutines == 1).map(|r| r.signatures_per_sec);
    let mut columns = vec![
        Column::number("threads"),
        Column::number("signatures/s").in_group("article, GOGC=100"),
        Column::number("x 1 thread").in_group("article, GOGC=100"),
    ];
    for machine in machines {
        let group = format!("{}, ratio 100", machine.label);
        columns.extend([Column::number("ops/s").in_group(&group), Column::number("x 1 thread").in_group(&group)]);
    }
    let rows = keys
        .into_iter()
        .map(|threads| {
            let published = article.iter().find(|r| r.goroutines == threads).map(|r| r.signatures_per_sec);
            let mut row = vec![
                Cell::from(threads.to_string()),
                published.map_or_else(Cell::missing, |v| Cell::from(format::number(v))),
                times(published.zip(one).map(|(v, one)| v / one)),
            ];
            for cells in summaries {
                row.extend(compare_cells(cell(cells, threads, GcRatio::DEFAULT), cell(cells, 1, GcRatio::DEFAULT)));
            }
            row
        })
        .collect();
    Table {
        id: "article-by-threads",
        caption: "The article's numbers beside this lab's: by threads".into(),
        columns,
        rows,
    }
}

/// The thread count set beside the article's 48 goroutines (its hardware threads): this
/// machine's logical CPUs (see [`like_for_like_threads`]), or the most measured when unknown.
fn compared_threads(machine: &Measured<'_, Row>, cells: &[CellSummary]) -> u64 {
    let most = most_threads(cells).unwrap_or(1);
    machine.logical_cpus.and_then(|cpus| like_for_like_threads(cells, cpus as u64)).unwrap_or(most)
}

/// Ratios of the article and every machine, each at threads = that machine's logical CPUs
/// (like the article's 48 goroutines on 48 hardware threads).
fn ratio_table(machines: &[Measured<'_, Row>], summaries: &[Vec<CellSummary>], article: &[GcRatioReference]) -> Table {
    let mut keys: Vec<GcRatio> = article.iter().map(|r| r.gogc).collect();
    keys.extend(summaries.iter().flatten().map(|c| c.ratio));
    keys.sort_by_key(|r| r.order_key());
    keys.dedup();
    let default = article.iter().find(|r| r.gogc == GcRatio::DEFAULT).map(|r| r.signatures_per_sec);
    let article_group = format!("article, {} goroutines", article.first().map_or(0, |r| r.goroutines));
    let mut columns = vec![
        Column::text("ratio"),
        Column::number("signatures/s").in_group(&article_group),
        Column::number("x GOGC=100").in_group(&article_group),
    ];
    let like_for_like: Vec<u64> = machines.iter().zip(summaries).map(|(m, cells)| compared_threads(m, cells)).collect();
    for (machine, &at) in machines.iter().zip(&like_for_like) {
        let over = machine.logical_cpus.is_some_and(|cpus| at > cpus as u64);
        let group = format!("{}, {at} threads{}", machine.label, if over { "* (oversubscribed)" } else { "" });
        columns.extend([Column::number("ops/s").in_group(&group), Column::number("x ratio 100").in_group(&group)]);
    }
    let rows = keys
        .into_iter()
        .map(|ratio| {
            let published = article.iter().find(|r| r.gogc == ratio).map(|r| r.signatures_per_sec);
            let mut row = vec![
                Cell::from(ratio.to_string()),
                published.map_or_else(Cell::missing, |v| Cell::from(format::number(v))),
                times(published.zip(default).map(|(v, base)| v / base)),
            ];
            for (cells, &at) in summaries.iter().zip(&like_for_like) {
                row.extend(compare_cells(cell(cells, at, ratio), cell(cells, at, GcRatio::DEFAULT)));
            }
            row
        })
        .collect();
    Table { id: "article-by-ratio", caption: "The article's numbers beside this lab's: by ratio".into(), columns, rows }
}

/// Article B's first table: signatures per second against goroutines at GOGC=100.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GcThreadsReference {
    pub goroutines: u64,
    pub signatures_per_sec: f64,
}

/// Its threads table's file in `data/reference/`, compiled in.
pub const THREADS_REFERENCE: ReferenceFile<GcThreadsReference> = reference_file!("gc.csv");

/// The article's threads table's rows.
pub fn threads_reference() -> Result<Vec<GcThreadsReference>, RunsError> {
    THREADS_REFERENCE.rows()
}

/// Article B's second table: signatures per second at 48 goroutines against GOGC.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GcRatioReference {
    pub gogc: crate::gc::GcRatio,
    pub goroutines: u64,
    pub signatures_per_sec: f64,
}

/// Its ratios table's file in `data/reference/`, compiled in.
pub const RATIOS_REFERENCE: ReferenceFile<GcRatioReference> = reference_file!("gc-gogc.csv");

/// The article's ratios table's rows.
pub fn ratios_reference() -> Result<Vec<GcRatioReference>, RunsError> {
    RATIOS_REFERENCE.rows()
}
