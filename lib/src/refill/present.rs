//! Cache refill after a switch as a [`Section`]: the article's 80-120 ns beside each
//! machine's cost per line after the other thread ran, the chart, every case, and the
//! sentences the data supports.

use super::chart::{article_series, case_name, refill_chart, series};
use super::{beside_article, finding, summarize, CaseSummary, Evicts, Row, EXPERIMENT};
use crate::format;
use crate::kit::{Answer, Context, Present, PresentError, ReferenceText};
use crate::measured::{config_notes, Measured};
use crate::pool::present::PoolReference;
use crate::run_format::Run;
use crate::view::{Cell, Column, Figure, Finding, NotDrawn, Section, Table};

pub const TITLE: &str = "Cache refill after a context switch";
/// The figure's title (also the note's, when it cannot be drawn).
const FIGURE: &str = "cache refill after a switch";

/// Its section over saved runs, with the article's figure from `pool.csv`.
impl Present for super::CacheRefill {
    const TITLE: &'static str = TITLE;
    const PROSE: &'static str = include_str!("prose.md");
    const REFERENCES: &'static [ReferenceText] = &[crate::pool::present::REFERENCE.file];

    const CLAIMS: &'static [&'static str] = &["C8"];

    fn answer(claim: &str, context: &Context) -> Answer {
        super::answers::answer(claim, context)
    }

    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError> {
        Ok(Some(section(&Measured::from_runs(runs), article_range(&crate::pool::present::reference()?))?))
    }
}

/// The article's "80 to 120 ns", from the pool's reference numbers.
pub fn article_range(article: &[PoolReference]) -> Option<(f64, f64)> {
    let value = |key: &str| article.iter().find(|r| r.key == key).map(|r| r.value);
    Some((value("cache_miss_min")?, value("cache_miss_max")?))
}

pub fn section(machines: &[Measured<'_, Row>], article: Option<(f64, f64)>) -> Result<Section, PresentError> {
    let mut section = Section::new(EXPERIMENT, TITLE);
    if let Some((low, high)) = article {
        section.article.push(format!(
            "The article: a cache miss after a context switch (it says from L3 or memory) costs {low:.0} to {high:.0} \
             ns, on top of the 3-5 us the switch itself takes. That is a trip to memory (DRAM); an L3 hit costs about \
             10 to 25 ns."
        ));
    }
    if machines.is_empty() {
        return Ok(section);
    }
    let summaries: Vec<Vec<CaseSummary>> = machines.iter().map(|m| summarize(m.rows)).collect();
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    for (m, cases) in machines.iter().zip(&summaries) {
        let mut sentences = finding(cases, m.verdict.as_ref());
        sentences.extend(article.and_then(|range| beside_article(cases, range)));
        section.findings.extend(sentences.into_iter().map(|text| Finding::about(&m.label, text)));
    }
    section.add_figure(figure(machines, &summaries, article));
    section.tables.extend(machines.iter().zip(&summaries).map(|(m, cases)| cases_table(&m.label, cases, article)));
    section.notes.push(Finding::general(
        "Both threads pinned to one logical CPU; the owner's set is one node per cache line in one random cycle \
         (each load's address comes from the previous load, so nothing is prefetched). Warm: the mean over 8 passes \
         after two untimed ones; after the switch: one pass. Refill: lines x (after - warm), medians. Intervals: the \
         median's order-statistic interval over trials.",
    ));
    section.notes.extend(config_notes(machines));
    Ok(section)
}

fn figure(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<CaseSummary>],
    article: Option<(f64, f64)>,
) -> Result<Figure, NotDrawn> {
    let mut names: Vec<String> = Vec::new();
    for case in summaries.iter().flatten() {
        if !names.contains(&case_name(case)) {
            names.push(case_name(case));
        }
    }
    let mut all = Vec::new();
    if let (Some(range), Some(cases)) = (article, summaries.first()) {
        all.push(article_series(&names, cases, range));
    }
    for (m, cases) in machines.iter().zip(summaries) {
        let suffix = if machines.len() > 1 { format!(", {}", m.label) } else { String::new() };
        all.extend(series(&suffix, &names, cases));
    }
    let text: Vec<String> = machines
        .iter()
        .zip(summaries)
        .map(|(m, cases)| {
            let points: Vec<String> = cases
                .iter()
                .map(|c| {
                    format!(
                        "{}: {} ns warm, {} ns after",
                        case_name(c),
                        format::number(c.warm_ns_per_line.median),
                        format::number(c.switched_ns_per_line.median)
                    )
                })
                .collect();
            format!("{}: {}", m.label, points.join("; "))
        })
        .collect();
    let chart = refill_chart("Nanoseconds per line, warm and after a switch", &names, &all)
        .map_err(|error| NotDrawn::new(FIGURE, error))?;
    Ok(Figure {
        id: "refill-chart",
        title: FIGURE.into(),
        svg: chart.svg,
        legend: chart.legend,
        caption: "Median nanoseconds per cache line of a pointer-chased working set, warm and in the first pass after \
                  another thread ran on the same CPU (bars: the median's interval), logarithmic. The article's 80-120 \
                  ns sits beside the cases where the other thread wrote more than L3, so the set came back from \
                  memory."
            .into(),
        text: text.join(". "),
    })
}

/// Every case, the article's 80-120 ns beside those that miss to memory.
fn cases_table(label: &str, cases: &[CaseSummary], article: Option<(f64, f64)>) -> Table {
    let mut columns = vec![Column::number("working set"), Column::number("lines"), Column::text("other thread")];
    columns.extend(
        ["warm ns/line", "interval", "after ns/line", "interval", "article ns/line", "after / warm", "refill (us)"]
            .map(Column::number),
    );
    columns.push(Column::number("trials"));
    let rows = cases
        .iter()
        .map(|c| {
            let (warm, after) = (&c.warm_ns_per_line, &c.switched_ns_per_line);
            vec![
                Cell::from(format::bytes(c.working_set_bytes)),
                Cell::from(c.lines.to_string()),
                Cell::from(format!("{} ({})", c.evicts.words(), format::bytes(c.evict_bytes))),
                Cell::noisy(format::number(warm.median), warm.is_noisy()),
                Cell::from(format::interval(warm.median_low, warm.median_high)),
                Cell::noisy(format::number(after.median), after.is_noisy()),
                Cell::from(format::interval(after.median_low, after.median_high)),
                match article {
                    Some((low, high)) if c.evicts == Evicts::PastL3 => Cell::from(format!("{low:.0}–{high:.0}")),
                    _ => Cell::missing(),
                },
                Cell::from(format::ratio_with_interval(&c.slowdown)),
                Cell::from(format::number(c.refill_us)),
                Cell::from(after.samples.to_string()),
            ]
        })
        .collect();
    Table { id: "every-case", caption: format!("Every case: {label}"), columns, rows }
}
