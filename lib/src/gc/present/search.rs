//! The GC section's two figures for article B's claims B2 and B6: the process's CPU share
//! at threads = the logical CPUs (the article's `top`: 2266% of 4800%), and the ratio search
//! per thread count (the article's best, 11 300), the model and real Go side by side.

use super::GcRatioReference;
use crate::format;
use crate::gc::compare::CellFigures;
use crate::gc::search::{search, RatioSearch};
use crate::gc::{CellSummary, GcRatio, GoCell};
use crate::stats::Summary;
use crate::view::{Cell, Column, Table};

/// The article's CPU share: 2266% of 4800% in `top`.
pub const ARTICLE_CPU_SHARE: f64 = 2266.0 / 4800.0;

fn share_cell(share: Option<&Summary>) -> [Cell; 2] {
    match share {
        Some(share) => [
            Cell::noisy(format::percent(share.median), share.is_noisy()),
            Cell::from(format!("{}–{}", format::percent(share.median_low), format::percent(share.median_high))),
        ],
        None => [Cell::missing(), Cell::missing()],
    }
}

/// Every ratio at `threads` (the machine's logical CPUs, as the article's 48 on 48), the
/// model's and Go's CPU share, the article's beside ratio 100.
pub(super) fn cpu_share_table(label: &str, threads: u64, model: &[CellSummary], go: Option<&[GoCell]>) -> Table {
    let mut columns = vec![
        Column::text("ratio"),
        Column::number("CPU used").in_group("article, 48 goroutines"),
        Column::number("CPU used").in_group("model"),
        Column::number("interval").in_group("model"),
    ];
    if go.is_some() {
        columns.extend([Column::number("CPU used").in_group("Go"), Column::number("interval").in_group("Go")]);
    }
    let mut ratios: Vec<GcRatio> = model.iter().filter(|c| c.threads == threads).map(|c| c.ratio).collect();
    ratios.extend(go.into_iter().flatten().filter(|c| c.threads == threads).map(|c| c.ratio));
    ratios.sort_by_key(|ratio| ratio.order_key());
    ratios.dedup();
    let rows = ratios
        .into_iter()
        .map(|ratio| {
            let article = if ratio == GcRatio::DEFAULT {
                Cell::from(format!("{} (2266% of 4800%)", format::percent(ARTICLE_CPU_SHARE)))
            } else {
                Cell::missing()
            };
            let mut row = vec![Cell::from(ratio.to_string()), article];
            let model_cell = model.iter().find(|c| c.threads == threads && c.ratio == ratio);
            row.extend(share_cell(model_cell.and_then(|c| c.cpu_share.as_ref())));
            if let Some(go) = go {
                let go_cell = go.iter().find(|c| c.threads == threads && c.ratio == ratio);
                row.extend(share_cell(go_cell.and_then(|c| c.cpu_share.as_ref())));
            }
            row
        })
        .collect();
    Table {
        id: "cpu-share",
        caption: format!("The process's CPU time over what the CPUs could give, {threads} threads: {label}"),
        columns,
        rows,
    }
}

/// The sentence beside the article's 47%: ratio 100's share at `threads` and the largest.
pub(super) fn cpu_share_sentence(threads: u64, model: &[CellSummary], go: Option<&[GoCell]>) -> Option<String> {
    fn side<C: CellFigures>(name: &str, cells: &[C], threads: u64) -> Option<String> {
        let at = |ratio: GcRatio| cells.iter().find(|c| c.threads() == threads && c.ratio() == ratio);
        let base = at(GcRatio::DEFAULT)?.cpu_share()?;
        let busiest = cells
            .iter()
            .filter(|c| c.threads() == threads && c.ratio() != GcRatio::DEFAULT)
            .filter_map(|c| Some((c.ratio(), c.cpu_share()?)))
            .max_by(|a, b| a.1.median.total_cmp(&b.1.median));
        let other = busiest.map_or(String::new(), |(ratio, share)| {
            format!(" and at most {} at another ratio ({ratio})", format::percent(share.median))
        });
        Some(format!(
            "{name} used {} of the CPUs at ratio 100 (interval {}–{}){other}",
            format::percent(base.median),
            format::percent(base.median_low),
            format::percent(base.median_high),
        ))
    }
    let sides: Vec<String> =
        [side("the model", model, threads), go.and_then(|go| side("Go", go, threads))].into_iter().flatten().collect();
    (!sides.is_empty()).then(|| {
        format!(
            "At {threads} threads {}, against the article's {} (top showed 2266% of 4800%).",
            sides.join("; "),
            format::percent(ARTICLE_CPU_SHARE)
        )
    })
}

fn search_cells(found: Option<&RatioSearch>) -> [Cell; 4] {
    match found {
        None => [Cell::missing(), Cell::missing(), Cell::missing(), Cell::missing()],
        Some(found) => [
            Cell::from(found.best.to_string()),
            Cell::from(format!(
                "{} ({})",
                format::number(found.best_ops_per_sec.median),
                format::interval(found.best_ops_per_sec.median_low, found.best_ops_per_sec.median_high)
            )),
            found.over_default.map_or_else(Cell::missing, |r| Cell::from(format::ratio_with_interval(&r))),
            Cell::from(if found.judged { found.enough_from.to_string() } else { "too few trials".into() }),
        ],
    }
}

/// Per thread count, the best ratio with its interval and where the gain stopped, the model
/// and Go side by side; the article's search first.
pub(super) fn best_ratio_table(
    label: &str,
    model: &[CellSummary],
    go: Option<&[GoCell]>,
    article: &[GcRatioReference],
) -> Table {
    let labels = ["best ratio", "ops/s (interval)", "x ratio 100", "no ratio beyond this was measurably faster"];
    let mut columns = vec![Column::text("threads")];
    columns.extend(labels.iter().map(|l| Column::text(*l).in_group("model")));
    if go.is_some() {
        columns.extend(labels.iter().map(|l| Column::text(*l).in_group("Go")));
    }
    let mut rows = Vec::new();
    let default = article.iter().find(|r| r.gogc == GcRatio::DEFAULT);
    if let Some(best) = article.iter().max_by(|a, b| a.signatures_per_sec.total_cmp(&b.signatures_per_sec)) {
        let mut row = vec![
            Cell::from(format!("{} (article)", best.goroutines)),
            Cell::from(best.gogc.to_string()),
            Cell::from(format::number(best.signatures_per_sec)),
            default.map_or_else(Cell::missing, |d| {
                Cell::from(format::ratio(best.signatures_per_sec / d.signatures_per_sec))
            }),
            Cell::from("best of 100..20000:100"),
        ];
        if go.is_some() {
            row.extend(std::iter::repeat_with(Cell::missing).take(labels.len()));
        }
        rows.push(row);
    }
    let model_search = search(model);
    let go_search = go.map(search);
    let mut threads: Vec<u64> = model_search.iter().map(|s| s.threads).collect();
    threads.extend(go_search.iter().flatten().map(|s| s.threads));
    threads.sort_unstable();
    threads.dedup();
    for count in threads {
        let mut row = vec![Cell::from(count.to_string())];
        row.extend(search_cells(model_search.iter().find(|s| s.threads == count)));
        if let Some(go_search) = &go_search {
            row.extend(search_cells(go_search.iter().find(|s| s.threads == count)));
        }
        rows.push(row);
    }
    Table { id: "best-ratio", caption: format!("The ratio search per thread count: {label}"), columns, rows }
}

/// The search's sentence at the most threads, model and Go.
pub(super) fn search_sentence(model: &[CellSummary], go: Option<&[GoCell]>) -> Option<String> {
    let last = |found: Vec<RatioSearch>| found.into_iter().next_back();
    let model_found = last(search(model))?;
    let mut text = format!("Ratio search, the model: {}.", model_found.sentence());
    if let Some(go_found) = go.and_then(|go| last(search(go))) {
        text += &format!(" Go: {}.", go_found.sentence());
    }
    Some(text)
}
