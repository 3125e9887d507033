//! The GC-ratio sweep in a notebook: every (threads, ratio) cell as a table, and the
//! report's two charts with the article's curves beside this machine's.

use super::reference::{ReferenceError, ReferenceTable};
use super::{figure, format_number, table, Rich};
use crate::chart::gc::ratio::throughput_by_ratio_chart;
use crate::chart::gc::threads::throughput_by_threads_chart;
use crate::chart::gc::{series_by_ratio, series_by_threads, RatioPoint, RatioSeries};
use crate::chart::{ChartError, IntervalPoint, Series};
use crate::gc::summary::{most_threads, over_default_ratio, over_one_thread, CellSummary};
use crate::gc::GcRatio;
use crate::notebook::machine::human_bytes;
use crate::stats::Ratio;

/// The article's GOGC=100 curve against goroutines (`data/reference/gc.csv`).
pub fn reference_threads_series(reference: &ReferenceTable) -> Result<Series, ReferenceError> {
    let goroutines = reference.numbers("goroutines")?;
    let per_sec = reference.numbers("signatures_per_sec")?;
    Ok(Series {
        label: "article: GOGC=100, 24 cores / 48 threads".into(),
        points: goroutines
            .into_iter()
            .zip(per_sec)
            .map(|(x, value)| IntervalPoint { x, median: value, low: value, high: value })
            .collect(),
    })
}

/// The article's GOGC settings at 48 goroutines (`data/reference/gc-gogc.csv`).
pub fn reference_ratio_series(reference: &ReferenceTable) -> Result<RatioSeries, ReferenceError> {
    let settings = reference.texts("gogc")?;
    let per_sec = reference.numbers("signatures_per_sec")?;
    let goroutines = reference.numbers("goroutines")?;
    let mut points = Vec::new();
    for (index, (setting, value)) in settings.iter().zip(per_sec).enumerate() {
        let ratio: GcRatio = setting.parse().map_err(|error: crate::ConfigError| ReferenceError::Malformed {
            file: reference.file.clone(),
            line: index + 2,
            message: error.to_string(),
        })?;
        points.push(RatioPoint { ratio, median: value, low: value, high: value });
    }
    let label = format!("article: {} goroutines", goroutines.first().copied().unwrap_or(0.0));
    Ok(RatioSeries { label, points })
}

fn times(ratio: Option<Ratio>) -> String {
    ratio.map_or("-".into(), |r| format!("{:.2}x ({:.2}..{:.2})", r.value, r.low, r.high))
}

/// Every cell: throughput with its interval, against ratio 100 and against one thread,
/// and what the collector cost (cycles per second, pause share, longest pause, peak heap).
pub fn cells_table(cells: &[CellSummary]) -> Rich {
    let rows: Vec<Vec<String>> = cells
        .iter()
        .map(|c| {
            vec![
                c.threads.to_string(),
                c.ratio.to_string(),
                format_number(c.ops_per_sec.median),
                format!("{}..{}", format_number(c.ops_per_sec.median_low), format_number(c.ops_per_sec.median_high)),
                times(over_default_ratio(cells, c)),
                times(over_one_thread(cells, c)),
                format_number(c.cycles_per_sec.median),
                format!("{:.1}%", c.pause_share.median * 100.0),
                format_number(c.pause_max_ms),
                human_bytes(c.peak_heap_bytes),
            ]
        })
        .collect();
    table(
        &[
            "threads",
            "ratio",
            "ops/s",
            "interval",
            "vs ratio 100",
            "vs 1 thread",
            "collections/s",
            "paused",
            "longest pause (ms)",
            "peak heap",
        ],
        &rows,
    )
}

/// Throughput against threads, one line per ratio, with the article's GOGC=100 curve.
pub fn threads_chart(machine_label: &str, cells: &[CellSummary], article: Option<Series>) -> Result<Rich, ChartError> {
    let mut ratios: Vec<GcRatio> = cells.iter().map(|c| c.ratio).collect();
    ratios.sort_by_key(|ratio| ratio.order_key());
    ratios.dedup();
    let mut series: Vec<Series> = article.into_iter().collect();
    series.extend(ratios.iter().map(|&ratio| series_by_threads(format!("ratio {ratio}"), cells, ratio)));
    let title = format!("Throughput against threads, one line per GC ratio: {machine_label}");
    let svg = throughput_by_threads_chart(&title, &series)?;
    let lines: Vec<String> = ratios
        .iter()
        .map(|&ratio| {
            let points: Vec<String> = cells
                .iter()
                .filter(|c| c.ratio == ratio)
                .map(|c| format!("{} threads {}", c.threads, format_number(c.ops_per_sec.median)))
                .collect();
            format!("ratio {ratio}: {}", points.join(", "))
        })
        .collect();
    Ok(figure(
        &svg,
        "Operations per second against worker threads (bars are the median's interval)",
        &format!("median operations/s, {}", lines.join("; ")),
    ))
}

/// Throughput against the ratio at this machine's largest thread count, with the article's
/// GOGC settings at 48 goroutines.
pub fn ratio_chart(
    machine_label: &str,
    cells: &[CellSummary],
    article: Option<RatioSeries>,
) -> Result<Rich, ChartError> {
    let most = most_threads(cells).unwrap_or(0);
    let mut series: Vec<RatioSeries> = article.into_iter().collect();
    series.push(series_by_ratio(format!("{machine_label}, {most} threads"), cells, most));
    let svg = throughput_by_ratio_chart("Throughput against GC ratio, most threads", &series)?;
    let points: Vec<String> = cells
        .iter()
        .filter(|c| c.threads == most)
        .map(|c| format!("ratio {} {}", c.ratio, format_number(c.ops_per_sec.median)))
        .collect();
    Ok(figure(
        &svg,
        "Operations per second against the GC ratio (off = only the heap ceiling triggers a cycle)",
        &format!("median operations/s at {most} threads: {}", points.join(", ")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gc::Workload;
    use crate::stats::Summary;

    fn cell(threads: u64, ratio: GcRatio, ops: f64) -> CellSummary {
        CellSummary {
            threads,
            ratio,
            workload: Workload::Hash,
            ops_per_sec: Summary::of(&[ops * 0.95, ops, ops * 1.05]).unwrap(),
            cycles_per_sec: Summary::of(&[100.0, 110.0, 120.0]).unwrap(),
            pause_share: Summary::of(&[0.1, 0.2, 0.3]).unwrap(),
            cycles: 330,
            too_few_cycles: false,
            refill_wait_share: 0.01,
            pause_max_ms: 1.5,
            stop_share_of_pause: 0.2,
            peak_heap_bytes: 8 << 20,
            trigger_bytes: 4 << 20,
            all_pinned: true,
        }
    }

    fn cells() -> Vec<CellSummary> {
        vec![
            cell(1, GcRatio::DEFAULT, 1000.0),
            cell(1, GcRatio::Off, 1100.0),
            cell(2, GcRatio::DEFAULT, 1500.0),
            cell(2, GcRatio::Off, 2000.0),
        ]
    }

    fn reference(file: &str) -> ReferenceTable {
        ReferenceTable::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference"), file).unwrap()
    }

    #[test]
    fn table_has_every_cell_with_its_speedups() {
        let rich = cells_table(&cells());
        let lines: Vec<Vec<&str>> = rich.plain.lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(&lines[0][..3], ["1", "100", "1000"]);
        assert_eq!(lines[0][4], "1.00x");
        assert_eq!(&lines[3][..3], ["2", "off", "2000"]);
        assert!(rich.plain.contains("20.0%") && rich.plain.contains("8 MiB"));
    }

    #[test]
    fn article_series_read_the_reference_files() {
        let threads = reference_threads_series(&reference("gc.csv")).unwrap();
        assert_eq!(threads.points.first().map(|p| p.x), Some(1.0));
        let ratios = reference_ratio_series(&reference("gc-gogc.csv")).unwrap();
        assert!(ratios.points.iter().any(|p| p.ratio == GcRatio::Off));
        assert_eq!(ratios.label, "article: 48 goroutines");
        let bad = ReferenceTable::parse("g.csv", "gogc,goroutines,signatures_per_sec\nnever,48,1\n").unwrap();
        assert!(reference_ratio_series(&bad).unwrap_err().to_string().starts_with("g.csv: line 2:"));
    }

    #[test]
    fn charts_are_images_with_the_medians_as_text() {
        let threads = threads_chart("vm", &cells(), Some(reference_threads_series(&reference("gc.csv")).unwrap()));
        let threads = threads.unwrap();
        assert!(threads.html.contains("data:image/svg+xml;base64,"));
        assert!(threads.plain.ends_with("ratio off: 1 threads 1100, 2 threads 2000"), "{}", threads.plain);
        let ratio = ratio_chart("vm", &cells(), None).unwrap();
        assert!(ratio.plain.ends_with("at 2 threads: ratio 100 1500, ratio off 2000"), "{}", ratio.plain);
    }
}
