//! Runs as tidy tables: one table per experiment, each of its rows (one trial) from every run,
//! beside the facts of the machine that measured it (seat, CPU model and family, architecture,
//! OS, logical CPUs, line size, pinned or not). Built from the rows [`Run::rows`] read, through
//! the registry, so no file is parsed twice; what `report --format csv` writes and what
//! notebook 06 turns into polars frames (`notebooks/class-table`, outside this crate).

use serde_json::Value;

use super::room::hardware::SeatHardware;
use crate::experiment::{Measure, SavedRow};
use crate::registry::{Experiment, Visitor};
use crate::runs::Run;

/// The machine's columns, first in every table, in this order.
pub const MACHINE_COLUMNS: [&str; 8] =
    ["seat", "cpu_model", "cpu_family", "arch", "os", "logical_cpus", "line_bytes", "run_pinned"];

/// What a column holds, read from its values (a missing value fits any kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Flag,
    Integer,
    Number,
    Text,
}

/// One column: its name, kind and a value per row (`Value::Null` where it is missing).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub kind: Kind,
    pub values: Vec<Value>,
}

impl Column {
    /// The value at `row` as a CSV cell: empty where it is missing.
    pub fn cell(&self, row: usize) -> String {
        match self.values.get(row) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
        }
    }
}

/// One experiment's rows from every run: `name` is its run file's stem ("stride", or the
/// real runtime's beside a model, "gc-go").
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
}

impl Table {
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |column| column.values.len())
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|column| column.name == name)
    }
}

/// Every experiment that some run of `runs` holds rows of, in the report's order (each real
/// runtime's table after its model's), with the machine's columns first.
pub fn tables(runs: &[Run]) -> Vec<Table> {
    let machines: Vec<Vec<Value>> = runs.iter().map(machine_values).collect();
    let mut tables = Vec::new();
    for experiment in Experiment::ALL {
        let (rows, beside) = experiment.visit(RowsOf { runs });
        let beside_name = experiment.real_runtime().map(|runtime| runtime.file.trim_end_matches(".csv").to_string());
        tables.extend(table(experiment.name().to_string(), &machines, rows));
        tables.extend(beside_name.and_then(|name| table(name, &machines, beside)));
    }
    tables
}

/// Each run's rows of one experiment (`None`: the run does not hold it), as named values.
type RunRows = Vec<Option<Vec<Vec<(String, Value)>>>>;

struct RowsOf<'a> {
    runs: &'a [Run],
}

impl Visitor for RowsOf<'_> {
    type Output = (RunRows, RunRows);

    fn visit<K: Measure>(self) -> Self::Output {
        let rows = self.runs.iter().map(|run| run.rows::<K::Row>().map(named_rows)).collect();
        let beside = self.runs.iter().map(|run| run.runtime_rows::<K::RuntimeRow>().map(named_rows)).collect();
        (rows, beside)
    }
}

/// Each row's fields in the order its CSV file has them, with their typed values.
fn named_rows<R: SavedRow>(rows: &[R]) -> Vec<Vec<(String, Value)>> {
    // The CSV file's order where the csv crate can write the row, else the fields' names.
    let json_keys = |row: &R| match serde_json::to_value(row) {
        Ok(Value::Object(fields)) => Some(fields.keys().cloned().collect()),
        _ => None,
    };
    let Some(header) = rows.first().and_then(|row| csv_header(row).or_else(|| json_keys(row))) else {
        return Vec::new();
    };
    let named = |row: &R| {
        let mut value = serde_json::to_value(row).unwrap_or(Value::Null);
        header.iter().map(|name| (name.clone(), field(&mut value, name))).collect()
    };
    rows.iter().map(named).collect()
}

/// The column names a row is saved under (its CSV header).
fn csv_header<R: SavedRow>(row: &R) -> Option<Vec<String>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.serialize(row).ok()?;
    let bytes = writer.into_inner().ok()?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    Some(reader.headers().ok()?.iter().map(str::to_string).collect())
}

/// A row's field: a counter the OS refused (`unavailable`) is a missing number.
fn field(row: &mut Value, name: &str) -> Value {
    match row.get_mut(name).map(Value::take) {
        Some(Value::String(text)) if text == crate::perf::UNAVAILABLE => Value::Null,
        Some(Value::Object(_) | Value::Array(_)) | None => Value::Null,
        Some(value) => value,
    }
}

/// The table of one experiment's rows from every run, `None` when no run holds a row.
fn table(name: String, machines: &[Vec<Value>], rows: RunRows) -> Option<Table> {
    let mut names: Vec<String> = MACHINE_COLUMNS.iter().map(|name| name.to_string()).collect();
    let mut columns: Vec<Vec<Value>> = vec![Vec::new(); names.len()];
    for (machine, run_rows) in machines.iter().zip(rows) {
        for row in run_rows.into_iter().flatten() {
            let filled = columns[0].len();
            for (index, value) in machine.iter().enumerate() {
                columns[index].push(value.clone());
            }
            for (field, value) in row {
                let index = names.iter().position(|name| *name == field).unwrap_or_else(|| {
                    names.push(field);
                    columns.push(vec![Value::Null; filled]);
                    names.len() - 1
                });
                columns[index].push(value);
            }
            // A column this run's rows lack (an older format's) is missing in its rows.
            columns.iter_mut().for_each(|column| column.resize(filled + 1, Value::Null));
        }
    }
    if columns[0].is_empty() {
        return None;
    }
    let columns = names.into_iter().zip(columns).map(|(name, values)| Column { kind: kind_of(&values), name, values });
    Some(Table { name, columns: columns.collect() })
}

/// The narrowest kind every value fits: text where kinds mix.
fn kind_of(values: &[Value]) -> Kind {
    let present = || values.iter().filter(|value| !value.is_null());
    if present().next().is_none() {
        Kind::Text
    } else if present().all(Value::is_boolean) {
        Kind::Flag
    } else if present().all(|value| value.is_i64()) {
        Kind::Integer
    } else if present().all(Value::is_number) {
        Kind::Number
    } else {
        Kind::Text
    }
}

/// The machine's columns' values for `run` (in [`MACHINE_COLUMNS`]' order).
fn machine_values(run: &Run) -> Vec<Value> {
    let hardware = SeatHardware::of(run);
    vec![
        Value::from(run.label()),
        Value::from(hardware.cpu_model.clone()),
        Value::from(hardware.cpu_family()),
        Value::from(hardware.arch),
        Value::from(hardware.os),
        Value::from(hardware.logical_cpus),
        hardware.line_bytes.map_or(Value::Null, Value::from),
        run_pinned(run).map_or(Value::Null, Value::from),
    ]
}

/// Whether every trial of `run` that says so ran pinned to its CPUs (`None`: none says).
fn run_pinned(run: &Run) -> Option<bool> {
    let mut pinned = None;
    for experiment in Experiment::ALL {
        let (rows, _) = experiment.visit(RowsOf { runs: std::slice::from_ref(run) });
        for row in rows.into_iter().flatten().flatten() {
            if let Some((_, Value::Bool(flag))) = row.iter().find(|(name, _)| name == "pinned") {
                pinned = Some(pinned.unwrap_or(true) && *flag);
            }
        }
    }
    pinned
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");

    #[test]
    fn every_row_of_every_run_is_in_its_table_beside_its_machine() {
        let run = Run::load(FIXTURE).unwrap();
        let runs = crate::runs::load_all(&[FIXTURE.into(), FIXTURE.into()]).runs;
        let tables = tables(&runs);
        let stride = tables.iter().find(|table| table.name == "stride").unwrap();
        let saved = run.rows::<crate::stride::Row>().unwrap();
        assert_eq!(stride.rows(), 2 * saved.len(), "both runs' rows, none lost");
        let names: Vec<&str> = stride.columns.iter().map(|column| column.name.as_str()).collect();
        assert_eq!(names[..MACHINE_COLUMNS.len()], MACHINE_COLUMNS);
        assert!(names.contains(&"ns_per_op") && names.contains(&"stride_bytes"), "{names:?}");
        let seats = &stride.column("seat").unwrap().values;
        assert_eq!(
            (seats[0].as_str(), seats[saved.len()].as_str()),
            (Some(runs[0].label.as_str()), Some(runs[1].label.as_str()))
        );
        let times = stride.column("ns_per_op").unwrap();
        assert_eq!(times.kind, Kind::Number);
        assert_eq!(times.values[0].as_f64(), Some(saved[0].ns_per_op));
        assert_eq!(stride.column("stride_bytes").unwrap().kind, Kind::Integer);
        assert_eq!(stride.column("cpu_family").unwrap().kind, Kind::Text);
        for table in &tables {
            assert!(table.columns.iter().all(|column| column.values.len() == table.rows()), "{}: ragged", table.name);
        }
    }

    #[test]
    fn kinds_are_the_narrowest_all_values_fit() {
        assert_eq!(kind_of(&[Value::Null, Value::from(true)]), Kind::Flag);
        assert_eq!(kind_of(&[Value::Null]), Kind::Text, "nothing known: no number or flag to claim");
        assert_eq!(kind_of(&[Value::from(3), Value::Null]), Kind::Integer);
        assert_eq!(kind_of(&[Value::from(3), Value::from(0.5)]), Kind::Number);
        assert_eq!(kind_of(&[Value::from(3), Value::from("x")]), Kind::Text);
        let mut row = serde_json::json!({"misses": "unavailable", "cpus": "0,1"});
        assert_eq!(field(&mut row, "misses"), Value::Null, "a refused counter is a missing number");
        assert_eq!(field(&mut row, "cpus"), Value::from("0,1"));
    }
}
