//! Every chart the lab draws, each series told apart: no two share both colour and dash,
//! each is in the legend, and each legend colour is drawn. Each experiment's chart is
//! drawn from its folder; this test reads them all, so it stands above them.

use contention::chart::{Chart, IntervalPoint, Series};
use contention::gc::GcRatio;
use plotters::style::RGBColor;

/// `count` series of three points each, every one its own line.
fn many(count: usize, x: &[f64]) -> Vec<Series> {
    (0..count)
        .map(|i| Series {
            label: format!("series {i}"),
            points: x
                .iter()
                .map(|&x| {
                    let y = 100.0 * (i + 1) as f64 + x;
                    IntervalPoint { x, median: y, low: y * 0.9, high: y * 1.1 }
                })
                .collect(),
        })
        .collect()
}

/// No two series of the chart share both colour and dash, every series is in the
/// legend, and every legend colour is drawn.
fn distinct(name: &str, chart: &Chart, series: usize) {
    assert_eq!(chart.legend.len(), series, "{name}: one legend entry per series");
    for (i, a) in chart.legend.iter().enumerate() {
        for b in &chart.legend[..i] {
            let same = (a.style.color, a.style.dash) == (b.style.color, b.style.dash);
            assert!(!same, "{name}: {} and {} share colour and dash", a.label, b.label);
        }
        let RGBColor(r, g, b) = a.style.color;
        let hex = format!("#{r:02X}{g:02X}{b:02X}");
        assert!(chart.svg.contains(&hex), "{name}: {} ({hex}) is not drawn", a.label);
    }
}

#[test]
fn no_two_series_of_any_chart_share_colour_and_dash() {
    let ten = many(10, &[1.0, 2.0, 4.0, 8.0]);
    distinct("stride", &contention::stride::chart::stride_chart("t", &many(12, &[8.0, 64.0, 256.0])).unwrap(), 12);
    distinct("counters", &contention::counters::chart::counters_chart("t", &many(10, &[0.0, 1.0, 6.0])).unwrap(), 10);
    distinct("sharing", &contention::sharing::chart::sharing_chart("t", &many(10, &[0.0, 1.0, 3.0])).unwrap(), 10);
    distinct("gc threads", &contention::gc::chart::threads::throughput_by_threads_chart("t", &ten).unwrap(), 10);
    let ratios: Vec<contention::gc::chart::RatioSeries> = (0..10)
        .map(|i| contention::gc::chart::RatioSeries {
            label: format!("machine {i}"),
            points: [GcRatio::Percent(100), GcRatio::Percent(400), GcRatio::Off]
                .into_iter()
                .map(|ratio| contention::gc::chart::RatioPoint {
                    ratio,
                    median: 1e3 * (i + 1) as f64,
                    low: 9e2,
                    high: 2e4,
                })
                .collect(),
        })
        .collect();
    distinct("gc ratio", &contention::gc::chart::ratio::throughput_by_ratio_chart("t", &ratios).unwrap(), 10);
    let sizes = [3.0, 16.0, 80.0];
    let lines: Vec<contention::pool::chart::latency::LatencyLines> = (0..3)
        .map(|_| contention::pool::chart::latency::LatencyLines {
            p99: many(1, &sizes)[0].clone(),
            p50: many(1, &sizes)[0].clone(),
        })
        .collect();
    let level = |label: &str| contention::pool::chart::latency::Marker { label: label.into(), value: 150.0 };
    let levels = [level("split p99"), level("async p99")];
    let marks = [level("formula: 11")];
    distinct(
        "pool latency",
        &contention::pool::chart::latency::pool_latency_chart("t", &lines, &marks, &levels).unwrap(),
        8,
    );
    let switches: Vec<contention::pool::chart::switches::SwitchLines> = (0..3)
        .map(|_| contention::pool::chart::switches::SwitchLines {
            voluntary: many(1, &sizes)[0].clone(),
            involuntary: many(1, &sizes)[0].clone(),
            throughput: many(1, &sizes)[0].clone(),
            offered_per_s: 300.0,
        })
        .collect();
    distinct(
        "pool switches",
        &contention::pool::chart::switches::pool_switches_chart("t", &switches, &marks).unwrap(),
        12,
    );
    let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    distinct("refill", &contention::refill::chart::refill_chart("t", &names, &many(6, &[0.0, 1.0, 2.0])).unwrap(), 6);
    let ratio = Some(contention::stats::Ratio { value: 2.0, low: 1.5, high: 2.5 });
    let room = contention::present::room::chart::room_chart("t", "x", &[("a", ratio), ("b", None)]).unwrap();
    distinct("room", &room, 1);
}
