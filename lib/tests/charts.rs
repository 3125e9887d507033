//! Issue 25, item 1: every chart drawn from adversarial values (subnormal, huge, spans of
//! hundreds of decades, zero, negative, infinite, NaN) returns within a second, an SVG or
//! an error, never a hang or a panic. Plotters' log axes spin on a span that overflows;
//! the charts clamp theirs ([`contention::chart`]), and the rows that would need it are
//! refused where they are read (`checked`). Two charts are drawn from rows through
//! the experiments' own summaries; the rest from series as the summaries make them.

use std::time::{Duration, Instant};

use contention::chart::{IntervalPoint, Series};
use contention::gc::chart::{RatioPoint, RatioSeries};
use contention::gc::GcRatio;
use contention::pool::chart::latency::{LatencyLines, Marker};
use contention::pool::chart::switches::SwitchLines;
use contention::stats::{Ratio, Summary};

/// Values no measurement gives, and the spans between them.
const EXTREMES: [f64; 12] =
    [1e-320, 5e-324, f64::MIN_POSITIVE, 1e-300, 1e308, f64::MAX, 0.0, 1.0, -1.0, f64::INFINITY, f64::NAN, 1e-12];

/// Each extreme beside each other (so every pair of ends is a span), as one series.
fn adversarial_sets() -> Vec<Vec<f64>> {
    let mut sets: Vec<Vec<f64>> = EXTREMES.iter().map(|&value| vec![value]).collect();
    sets.extend(EXTREMES.iter().flat_map(|&a| EXTREMES.iter().map(move |&b| vec![a, b, 1.0])));
    sets
}

fn series(values: &[f64], x: impl Fn(usize) -> f64) -> Vec<Series> {
    let points = values
        .iter()
        .enumerate()
        .map(|(index, &value)| IntervalPoint { x: x(index), median: value, low: value / 2.0, high: value * 2.0 })
        .collect();
    vec![Series { label: "adversarial".into(), points }]
}

fn summary(value: f64) -> Summary {
    Summary::of(&[value, value, value]).unwrap_or(Summary::of(&[1.0]).unwrap())
}

/// Draws every chart from `values`; each must return (either way) without panicking.
fn draw_every_chart(values: &[f64]) {
    let doubling = |index: usize| 8.0 * 2f64.powi(index as i32);
    let category = |index: usize| (index % 4) as f64;
    let _ = contention::stride::chart::stride_chart("stride", &series(values, doubling));
    let _ = contention::counters::chart::counters_chart("counters", &series(values, category));
    let _ = contention::sharing::chart::sharing_chart("sharing", &series(values, category));
    let _ = contention::gc::chart::threads::throughput_by_threads_chart("gc", &series(values, doubling));
    let points = values
        .iter()
        .enumerate()
        .map(|(index, &value)| RatioPoint {
            ratio: GcRatio::Percent(100 * (index as u32 + 1)),
            median: value,
            low: value,
            high: value,
        })
        .collect();
    let _ = contention::gc::chart::ratio::throughput_by_ratio_chart("gc", &[RatioSeries { label: "a".into(), points }]);
    let lines = LatencyLines { p50: series(values, doubling).remove(0), p99: series(values, doubling).remove(0) };
    let markers: Vec<Marker> = values.iter().map(|&value| Marker { label: "m".into(), value }).collect();
    let _ = contention::pool::chart::latency::pool_latency_chart("pool", &[lines], &markers, &markers);
    let switches = SwitchLines {
        voluntary: series(values, doubling).remove(0),
        involuntary: series(values, doubling).remove(0),
        throughput: series(values, doubling).remove(0),
        offered_per_s: values[0],
    };
    let _ = contention::pool::chart::switches::pool_switches_chart("pool", &[switches], &markers);
    let ratios: Vec<(String, Option<Ratio>)> = values
        .iter()
        .enumerate()
        .map(|(index, &value)| (format!("m{index}"), Some(Ratio { value, low: value, high: value })))
        .collect();
    let labelled: Vec<(&str, Option<Ratio>)> = ratios.iter().map(|(label, ratio)| (label.as_str(), *ratio)).collect();
    let _ = contention::present::room::chart::room_chart("room", "ratio", &labelled);
    let pairs: Vec<contention::c2c::PairSummary> = values
        .iter()
        .enumerate()
        .map(|(index, &value)| contention::c2c::PairSummary {
            cpu_a: index as u64,
            cpu_b: index as u64 + 1,
            one_way_ns: summary(value),
            cas_one_way_ns: None,
            all_pinned: true,
            unpinned: false,
            dropped: 0,
            kinds: String::new(),
        })
        .collect();
    let _ = contention::c2c::chart::c2c_heatmap("c2c", &pairs);
}

#[test]
fn every_chart_returns_within_a_second_from_adversarial_values() {
    let sets = adversarial_sets();
    let started = Instant::now();
    for values in &sets {
        draw_every_chart(values);
    }
    let elapsed = started.elapsed();
    // About 150 sets of nine charts: a hang shows as minutes, a clamped axis as milliseconds.
    assert!(elapsed < Duration::from_secs(sets.len() as u64), "{} sets took {elapsed:?}", sets.len());
}

#[test]
fn charts_from_adversarial_rows_return_within_a_second() {
    let row = |stride_bytes: u64, ns_per_op: f64| contention::stride::Row {
        stride_bytes,
        threads: 2,
        trial: 0,
        trials_planned: 1,
        iters_per_thread: 1,
        elapsed_ns: 1,
        ns_per_op,
        pinned: true,
        cpus: "0,1".into(),
        cache_misses: contention::perf::CounterReading::Unavailable,
        snoop_hit_modified: contention::perf::CounterReading::Unavailable,
    };
    for (low, high) in [(1e-320, 1.0), (5e-324, 5e-324), (1e-300, 1e308), (0.0, f64::MAX)] {
        let started = Instant::now();
        let rows = [row(8, low), row(64, high), row(u64::MAX, 1.0)];
        let summaries = contention::stride::summarize(&rows);
        let series = contention::stride::chart::series_from_summaries("hostile", &summaries);
        let drawn = contention::stride::chart::stride_chart("stride", &[series]);
        let c2c_rows = [(0, 1, low), (0, 4095, high)].map(|(cpu_a, cpu_b, one_way_ns)| contention::c2c::Row {
            cpu_a,
            cpu_b,
            sample: 0,
            round_trips: 1,
            elapsed_ns: 1,
            one_way_ns,
            cas_elapsed_ns: 1,
            cas_one_way_ns: one_way_ns,
            pinned: true,
            unpinned_method: false,
            dropped: false,
            kinds: String::new(),
        });
        let heatmap = contention::c2c::chart::c2c_heatmap("c2c", &contention::c2c::summarize(&c2c_rows));
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(1), "{low}, {high}: {elapsed:?}");
        assert!(drawn.is_ok() && heatmap.is_ok(), "{low}, {high}: {:?} {:?}", drawn.err(), heatmap.err());
    }
}
