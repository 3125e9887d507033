//! Cache refill after a switch: nanoseconds per line of each case, warm and after the other
//! thread ran, one pair of series per machine, and the article's 80-120 ns beside the cases
//! where the other thread touched past L3 (a miss to memory, as the article's).

use crate::chart::categorical::{axis_number, categorical_chart};
use crate::chart::{Chart, ChartError, IntervalPoint, Series};
use crate::format;
use crate::refill::{CaseSummary, Evicts};

const CHART: &str = "refill";

/// How the x axis names a case: "24 KiB, touches 2 x L3".
pub fn case_name(case: &CaseSummary) -> String {
    format!("{}, {}", format::bytes(case.working_set_bytes), case.evicts.words())
}

/// Where `case` sits among `names`.
fn x_of(names: &[String], case: &CaseSummary) -> f64 {
    names.iter().position(|name| *name == case_name(case)).unwrap_or(0) as f64
}

/// The warm and after-switch series of one machine.
pub fn series(label: &str, names: &[String], cases: &[CaseSummary]) -> [Series; 2] {
    let points = |pick: fn(&CaseSummary) -> &crate::stats::Summary| {
        cases.iter().map(|case| IntervalPoint::median_of(x_of(names, case), pick(case))).collect()
    };
    [
        Series { label: format!("warm{label}"), points: points(|case| &case.warm_ns_per_line) },
        Series { label: format!("after the switch{label}"), points: points(|case| &case.switched_ns_per_line) },
    ]
}

/// The article's range at every case that misses to memory.
pub fn article_series(names: &[String], cases: &[CaseSummary], (low, high): (f64, f64)) -> Series {
    let mut points: Vec<IntervalPoint> = cases
        .iter()
        .filter(|case| case.evicts == Evicts::PastL3)
        .map(|case| IntervalPoint { x: x_of(names, case), median: (low + high) / 2.0, low, high })
        .collect();
    points.dedup_by(|a, b| a.x == b.x);
    Series { label: format!("article: a miss after a switch, {low:.0}-{high:.0} ns"), points }
}

pub fn refill_chart(title: &str, names: &[String], series: &[Series]) -> Result<Chart, ChartError> {
    let categories: Vec<&str> = names.iter().map(String::as_str).collect();
    categorical_chart(CHART, title, &categories, ("ns per line (log scale)", axis_number), series)
}
