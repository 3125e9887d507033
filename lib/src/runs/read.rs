//! The one typed reader: an experiment's CSV read with the `csv` crate straight into the
//! experiment's own `Row` (serde), so every cell is checked against the field's type and a
//! bad cell is named by file, line and column.

use std::path::Path;

use csv::{DeserializeErrorKind, ErrorKind, StringRecord};
use serde::de::DeserializeOwned;

use super::RunsError;
use crate::checked::CheckedRow;
use crate::limits::saved::MAX_CASES;

/// Reads `path` into rows of type `R` (fields named like the columns), each value checked
/// ([`CheckedRow`]). When `expected_rows` is given, a different count is refused: the file
/// is incomplete or altered.
pub fn read_rows<R: DeserializeOwned + CheckedRow>(
    path: &Path,
    expected_rows: Option<usize>,
) -> Result<Vec<R>, RunsError> {
    let shown = super::shown(path);
    let meta = match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => meta,
        _ => return Err(RunsError::MissingFile { path: shown }),
    };
    super::check::check_csv_size(path, meta.len())?;
    let text = std::fs::read_to_string(path).map_err(|source| RunsError::Read { path: shown.clone(), source })?;
    match expected_rows {
        Some(expected) => parse_counted(&shown, &text, expected),
        None => parse_checked(&shown, &text),
    }
}

/// [`parse_checked`], refusing a count other than the `expected` one the manifest records:
/// the file is incomplete or altered.
pub fn parse_counted<R: DeserializeOwned + CheckedRow>(
    file: &str,
    text: &str,
    expected: usize,
) -> Result<Vec<R>, RunsError> {
    let rows = parse_checked(file, text)?;
    if rows.len() != expected {
        return Err(RunsError::RowCount { path: file.into(), found: rows.len(), expected });
    }
    Ok(rows)
}

/// [`parse_rows`], then every row's values checked ([`CheckedRow`]): the first value no
/// measurement could give is named by file, line and column.
pub fn parse_checked<R: DeserializeOwned + CheckedRow>(file: &str, text: &str) -> Result<Vec<R>, RunsError> {
    let rows: Vec<R> = parse_rows(file, text)?;
    let mut cases = std::collections::HashSet::new();
    for (index, row) in rows.iter().enumerate() {
        if cases.insert(row.case_key()) && cases.len() > MAX_CASES {
            let message =
                format!("more than {MAX_CASES} cases: at most {MAX_CASES} per experiment, as many as a page shows");
            return Err(RunsError::Csv { file: file.into(), line: index + 2, column: None, message });
        }
        row.check().map_err(|bad| RunsError::Csv {
            file: file.into(),
            // Line 1 is the header; the lab writes one row per line.
            line: index + 2,
            column: Some(bad.column.to_string()),
            message: format!("{}: {}", bad.value, bad.allowed),
        })?;
    }
    Ok(rows)
}

/// Parses CSV `text` (a header row, then one row per line) into rows of type `R`; `file`
/// names it in errors.
pub fn parse_rows<R: DeserializeOwned>(file: &str, text: &str) -> Result<Vec<R>, RunsError> {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|error| malformed(file, 1, &error))?.clone();
    let mut rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        // Line 1 is the header.
        let line = index + 2;
        let record = record.map_err(|error| malformed(file, line, &error))?;
        if let Some(index) = record.iter().position(written_in_another_base) {
            let column = headers.get(index).map(super::visible);
            let cell = super::visible(record.get(index).unwrap_or(""));
            let message = format!("expected a number in decimal digits, got '{cell}'");
            return Err(RunsError::Csv { file: file.into(), line, column, message });
        }
        let row =
            record.deserialize(Some(&headers)).map_err(|error| cell_error(file, line, &headers, &record, &error))?;
        rows.push(row);
    }
    Ok(rows)
}

/// A cell Rust's parsers would read as a number although the lab never writes it so: a
/// leading plus sign ("+2429") or another base ("0x10").
fn written_in_another_base(cell: &str) -> bool {
    let unsigned = cell.strip_prefix('-').unwrap_or(cell);
    cell.starts_with('+') || ["0x", "0X", "0b", "0B", "0o", "0O"].iter().any(|prefix| unsigned.starts_with(prefix))
}

fn malformed(file: &str, line: usize, error: &csv::Error) -> RunsError {
    let message = match error.kind() {
        ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields, but the header has {expected_len} columns")
        }
        _ => super::visible(&error.to_string()),
    };
    RunsError::Csv { file: file.into(), line, column: None, message }
}

/// Names the column and the cell, and says what the column holds.
fn cell_error(file: &str, line: usize, headers: &StringRecord, record: &StringRecord, error: &csv::Error) -> RunsError {
    let ErrorKind::Deserialize { err, .. } = error.kind() else { return malformed(file, line, error) };
    // A type's own check (a counter reading, a GC ratio) reports no field: find the column
    // by the cell its message quotes.
    let index = err.field().map(|index| index as usize).or_else(|| quoted_cell(&err.to_string(), record));
    let column = index.and_then(|index| headers.get(index)).map(super::visible);
    let cell = super::visible(index.and_then(|index| record.get(index)).unwrap_or(""));
    let message = match err.kind() {
        DeserializeErrorKind::ParseBool(_) => format!("expected true or false, got '{cell}'"),
        DeserializeErrorKind::ParseInt(_) => format!("expected a whole number >= 0, got '{cell}'"),
        DeserializeErrorKind::ParseFloat(_) => format!("expected a number, got '{cell}'"),
        DeserializeErrorKind::Message(message) if message.starts_with("missing field") => {
            return RunsError::Csv { file: file.into(), line, column: None, message: super::visible(message) };
        }
        other => super::visible(&other.to_string()),
    };
    RunsError::Csv { file: file.into(), line, column, message }
}

/// The position of the cell a serde message quotes (`invalid value: string "lots", ...`).
fn quoted_cell(message: &str, record: &StringRecord) -> Option<usize> {
    let quoted = message.split_once("string \"")?.1.split_once('"')?.0;
    record.iter().position(|cell| cell == quoted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stride::Row;

    /// Format 6's header: its `verified` column (always true) is ignored on read.
    const HEADER: &str = "stride_bytes,threads,trial,trials_planned,iters_per_thread,elapsed_ns,ns_per_op,pinned,cpus,\
                          verified,cache_misses,snoop_hit_modified";

    #[test]
    fn reads_typed_rows_with_counter_readings() {
        let text = format!(
            "{HEADER}\n8,2,0,5,100,5000,25.0,true,\"0,1\",true,unavailable,unavailable\n\
             64,2,0,5,100,900,4.5,true,\"2,3\",true,17,4\n"
        );
        let rows: Vec<Row> = parse_rows("stride.csv", &text).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].snoop_hit_modified, crate::perf::CounterReading::Unavailable);
        assert_eq!(rows[1].cache_misses, crate::perf::CounterReading::Counted(17));
        assert_eq!(rows[1].snoop_hit_modified, crate::perf::CounterReading::Counted(4));
        assert_eq!((rows[1].trials_planned, rows[1].cpus.as_str()), (5, "2,3"));
    }

    #[test]
    fn a_bad_cell_is_named_by_file_line_and_column() {
        let text = format!("{HEADER}\n8,2,0,5,100,5000,25.0,maybe,\"0,1\",true,unavailable,unavailable\n");
        let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'pinned': expected true or false, got 'maybe'");
        let text = format!("{HEADER}\n8,two,0,5,100,5000,25.0,true,\"0,1\",true,unavailable,unavailable\n");
        let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'threads': expected a whole number >= 0, got 'two'");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,25.0,true,\"0,1\",true,lots,unavailable\n");
        let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert!(
            error.starts_with("stride.csv, line 2, column 'cache_misses': invalid value: string \"lots\""),
            "{error}"
        );
    }

    #[test]
    fn numbers_in_other_bases_or_with_a_plus_are_refused() {
        for (cell, column) in [("+2429", "elapsed_ns"), ("0x10", "elapsed_ns"), ("-0x1", "ns_per_op")] {
            let mut cells = ["8", "2", "0", "5", "100", "5000", "25.0", "true", "0", "true", "1", "2"];
            let index = HEADER.split(',').position(|header| header == column).unwrap();
            cells[index] = cell;
            let text = format!("{HEADER}\n{}\n", cells.join(","));
            let error = parse_rows::<Row>("stride.csv", &text).unwrap_err().to_string();
            let expected =
                format!("stride.csv, line 2, column '{column}': expected a number in decimal digits, got '{cell}'");
            assert_eq!(error, expected);
        }
    }

    #[test]
    fn missing_columns_and_ragged_lines_are_refused() {
        let error = parse_rows::<Row>("s.csv", "stride_bytes,threads\n8,2\n").unwrap_err().to_string();
        assert!(error.starts_with("s.csv, line 2: missing field"), "{error}");
        let error = parse_rows::<Row>("s.csv", &format!("{HEADER}\n8,2\n")).unwrap_err().to_string();
        assert_eq!(error, "s.csv, line 2: 2 fields, but the header has 12 columns");
    }

    #[test]
    fn values_no_measurement_gives_are_named_by_line_and_column() {
        let text =
            format!("{HEADER}\n8,2,0,5,100,5000,25.0,true,\"0,1\",true,1,2\n8,0,1,5,100,5000,25.0,true,0,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 3, column 'threads': 0: a whole number from 1 to 4096");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,-25.0,true,0,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'ns_per_op': -25: 0, or a number from 1e-12 to 1e15");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,1e-320,true,0,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert_eq!(error, "stride.csv, line 2, column 'ns_per_op': 1e-320: 0, or a number from 1e-12 to 1e15");
        let text = format!("{HEADER}\n8,2,0,5,100,5000,25,true,0-100000,true,1,2\n");
        let error = parse_checked::<Row>("stride.csv", &text).unwrap_err().to_string();
        assert!(
            error.starts_with("stride.csv, line 2, column 'cpus': '0-100000': CPU 100000 is above 4095"),
            "{error}"
        );
    }

    #[test]
    fn row_counts_are_checked_against_the_manifest() {
        let error = read_rows::<Row>(Path::new("/nonexistent/stride.csv"), None).unwrap_err().to_string();
        assert!(error.contains("is missing"), "{error}");
    }
}
