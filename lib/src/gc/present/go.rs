//! The real Go collector in the GC section: its ratio-100 line on each machine's threads
//! chart, and one computed sentence saying where the model and Go agree and differ (or,
//! without Go, how to add it).

use crate::chart::Series;
use crate::gc::chart::series_by_threads;
use crate::gc::compare::{agreement, figures};
use crate::gc::go::HOW_TO_ADD_GO;
use crate::gc::{CellSummary, GcRatio, GoCell};

/// Go's GOGC=100 throughput against GOMAXPROCS, as a chart line.
pub fn default_ratio_series(cells: &[GoCell]) -> Series {
    let version = cells.first().map_or("Go", |cell| cell.go_version.as_str());
    series_by_threads(format!("real {version}: GOGC=100"), cells, GcRatio::DEFAULT)
}

/// Where the model and Go agree and differ on this machine, with what Go allocated per
/// signature; without Go, how to add it.
pub fn sentence(model: &[CellSummary], go: Option<&[GoCell]>, logical_cpus: Option<usize>) -> String {
    let Some(go) = go.filter(|go| !go.is_empty()) else {
        return format!("Real Go was not measured beside the model: {HOW_TO_ADD_GO}.");
    };
    let gain_threads = 4 * logical_cpus.unwrap_or(1) as u64;
    let text = agreement(&figures(model, gain_threads), &figures(go, gain_threads));
    let allocated = go.iter().find(|cell| cell.threads == 1).or(go.first());
    match allocated {
        Some(cell) => format!(
            "{text} {} allocated {:.0} bytes in {:.1} objects per signature (the model allocates what Go 1.19 did).",
            cell.go_version, cell.alloc_bytes_per_op, cell.alloc_objects_per_op
        ),
        None => text,
    }
}
