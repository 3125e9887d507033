//! The one typed reader: an experiment's CSV read with the `csv` crate straight into the
//! experiment's own `Row` (serde), so every cell is checked against the field's type and a
//! bad cell is named by file, line and column.

use std::path::Path;

use csv::{DeserializeErrorKind, ErrorKind, StringRecord};
use serde::de::DeserializeOwned;

use super::RunsError;
use crate::checked::CheckedRow;
use crate::limits::saved::MAX_CASES;

/// The largest experiment CSV read back: every file the lab writes stays below it (at most
/// [`MAX_ROWS`] rows of under 64 bytes; experiments with longer lines have far fewer rows).
pub const MAX_CSV_BYTES: u64 = 64 << 20;

/// Refuses a CSV larger than [`MAX_CSV_BYTES`] before reading it.
pub fn check_csv_size(path: &Path, bytes: u64) -> Result<(), RunsError> {
    if bytes > MAX_CSV_BYTES {
        return Err(RunsError::TooLarge { path: super::shown(path), bytes, limit: MAX_CSV_BYTES });
    }
    Ok(())
}

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
    check_csv_size(path, meta.len())?;
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
