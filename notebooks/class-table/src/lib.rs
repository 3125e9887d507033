//! Runs as polars frames, for notebook 06 and its solutions only: each experiment's rows from
//! every run (a class's seats, or any runs), beside the machine's facts, as one DataFrame.
//! The tables come from the lab's typed reader ([`contention::present::tidy`]); this crate
//! only turns them into frames and asks them the class's questions. It lives outside the
//! workspace, built in the notebooks' own kernel folder for 06 (`rust-class-table`), so the
//! lab's build and notebooks 00-05 never compile polars.

use std::path::Path;

/// The notebook's polars (`use class_table::polars::prelude::*`): one version, this crate's.
pub use polars;

use contention::present::tidy::{self, Kind};
use contention::runs::{FoundRuns, Run, RunsError, MANIFEST};
use contention::sharing::Case;
use contention::stats::Ratio;
use contention::stride::Knee;
use polars::prelude::*;
use serde_json::Value;

/// The runs at `path`: a folder of run folders and packs (a class download unpacked by
/// `tar xf class.tar` is one: `class/`), one run folder, or one pack.
pub fn load(path: impl AsRef<Path>) -> Result<FoundRuns, RunsError> {
    let path = path.as_ref();
    if path.is_file() || path.join(MANIFEST).is_file() {
        return Ok(contention::runs::load_all(&[path.to_path_buf()]));
    }
    contention::runs::find_runs(path)
}

/// Each experiment's frame, named as its run file ("stride", "c2c", "gc-go", ...).
#[derive(Debug, Clone)]
pub struct Frames {
    frames: Vec<(String, DataFrame)>,
}

impl Frames {
    /// Every experiment some run of `runs` holds rows of.
    pub fn of(runs: &[Run]) -> PolarsResult<Self> {
        let mut frames = Vec::new();
        for table in tidy::tables(runs) {
            frames.push((table.name.clone(), frame(&table)?));
        }
        Ok(Self { frames })
    }

    /// The frame of `experiment`, when some run holds its rows.
    pub fn get(&self, experiment: &str) -> Option<DataFrame> {
        self.frames.iter().find(|(name, _)| name == experiment).map(|(_, frame)| frame.clone())
    }

    /// The experiments held, in the report's order.
    pub fn names(&self) -> Vec<&str> {
        self.frames.iter().map(|(name, _)| name.as_str()).collect()
    }
}

/// One table as a frame: each column typed by what its values hold (text, integer, number,
/// flag), a missing value as null.
pub fn frame(table: &tidy::Table) -> PolarsResult<DataFrame> {
    let columns = table.columns.iter().map(column).collect();
    DataFrame::new(table.rows(), columns)
}

fn column(column: &tidy::Column) -> Column {
    let name = PlSmallStr::from_str(&column.name);
    let values = column.values.iter();
    match column.kind {
        Kind::Flag => Column::new(name, values.map(Value::as_bool).collect::<Vec<_>>()),
        Kind::Integer => Column::new(name, values.map(Value::as_i64).collect::<Vec<_>>()),
        Kind::Number => Column::new(name, values.map(Value::as_f64).collect::<Vec<_>>()),
        Kind::Text => Column::new(name, (0..column.values.len()).map(|row| text(column, row)).collect::<Vec<_>>()),
    }
}

fn text(column: &tidy::Column, row: usize) -> Option<String> {
    (!column.values[row].is_null()).then(|| column.cell(row))
}

/// One row per run with the lab's own judgements, which need each case's interval and so
/// are computed by the lib, not by a group-by: the stride sweep's knee (`None` where the
/// intervals show no penalty) and penalty (smallest stride over fastest, with its interval),
/// and false sharing's time over no sharing's in the four-way control, with its interval.
pub fn judgements(runs: &[Run]) -> PolarsResult<DataFrame> {
    let mut seats = Vec::new();
    let (mut knee, mut penalty) = (Vec::new(), Intervals::default());
    let mut false_sharing = Intervals::default();
    for run in runs {
        seats.push(run.label());
        let summaries = run.rows::<contention::stride::Row>().map(contention::stride::summarize);
        let found = summaries.as_deref().and_then(contention::stride::knee);
        knee.push(match &found {
            Some(Knee::At { stride_bytes, .. }) => Some(*stride_bytes as i64),
            _ => None,
        });
        penalty.push(match found {
            Some(Knee::At { penalty, .. }) => Some(penalty),
            _ => None,
        });
        let cases = run.rows::<contention::sharing::Row>().map(contention::sharing::summarize);
        false_sharing.push(cases.and_then(|cases| contention::sharing::false_sharing_over(&cases, Case::NoSharing)));
    }
    let mut columns = vec![Column::new("seat".into(), seats), Column::new("knee_bytes".into(), knee)];
    columns.extend(penalty.columns("penalty"));
    columns.extend(false_sharing.columns("false_sharing"));
    DataFrame::new(runs.len(), columns)
}

/// Ratios with their intervals, one per run (`None`: not measured).
#[derive(Default)]
struct Intervals(Vec<Option<Ratio>>);

impl Intervals {
    fn push(&mut self, ratio: Option<Ratio>) {
        self.0.push(ratio);
    }

    /// `name`, `name_low` and `name_high`.
    fn columns(&self, name: &str) -> [Column; 3] {
        let of = |part: fn(&Ratio) -> f64| self.0.iter().map(|ratio| ratio.as_ref().map(part)).collect::<Vec<_>>();
        [
            Column::new(name.into(), of(|ratio| ratio.value)),
            Column::new(format!("{name}_low").into(), of(|ratio| ratio.low)),
            Column::new(format!("{name}_high").into(), of(|ratio| ratio.high)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/examples");

    #[test]
    fn every_row_is_in_its_frame_with_the_machine_columns() {
        let found = load(EXAMPLES).unwrap();
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
        let frames = Frames::of(&found.runs).unwrap();
        let stride = frames.get("stride").expect("the examples hold a stride sweep");
        let rows: usize =
            found.runs.iter().filter_map(|run| run.rows::<contention::stride::Row>()).map(<[_]>::len).sum();
        assert_eq!(stride.height(), rows);
        for name in tidy::MACHINE_COLUMNS {
            assert!(stride.column(name).is_ok(), "{name} missing");
        }
        assert_eq!(stride.column("ns_per_op").unwrap().dtype(), &DataType::Float64);
        assert_eq!(stride.column("seat").unwrap().dtype(), &DataType::String);
        let judged = judgements(&found.runs).unwrap();
        assert_eq!(judged.height(), found.runs.len());
    }
}
