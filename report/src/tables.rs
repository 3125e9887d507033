//! `report --format csv`: every run's rows as one tidy CSV file per experiment
//! (`<folder>/stride.csv`, ...), each row beside its machine's columns
//! ([`contention::present::tidy`]), so a teacher's spreadsheet, a student's pandas or polars
//! reads a class in one call. Plain CSV through the csv crate: no dataframe library here.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::present::tidy::{self, Table};
use contention::runs::{shown, Run, MANIFEST};

use crate::bad_flag::bad_flag;
use crate::write::write_atomic;

/// The folder the files go to: `out` (made when it does not exist yet, its parent must),
/// never standard output, a file, or a run folder (its own CSV files would be replaced).
pub fn resolve_folder(out: Option<&Path>, inputs: &[PathBuf]) -> Result<PathBuf> {
    let Some(out) = out else {
        return Err(bad_flag("invalid out = -: csv writes one file per experiment; give a folder, e.g. --out tables"));
    };
    let fail = |reason: &str| bad_flag(format!("invalid out = {}: {reason}", shown(out)));
    if out.exists() && !out.is_dir() {
        return Err(fail("it is a file; csv writes one file per experiment into a folder"));
    }
    if out.join(MANIFEST).exists() {
        return Err(fail("it is a run folder, whose own files would be replaced; give another folder"));
    }
    let same = |input: &PathBuf| std::fs::canonicalize(input).ok() == std::fs::canonicalize(out).ok();
    if inputs.iter().any(same) {
        return Err(fail("it is a folder this command reads; give another folder"));
    }
    if !out.exists() {
        std::fs::create_dir(out).map_err(|error| fail(&format!("it cannot be made ({error})")))?;
    }
    Ok(out.to_path_buf())
}

/// Writes each experiment's table of `runs` into `folder`, each file whole; returns the
/// files written, in the report's order.
pub fn write(runs: &[Run], folder: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for table in tidy::tables(runs) {
        let path = folder.join(format!("{}.csv", table.name));
        write_atomic(&path, &csv_bytes(&table).with_context(|| format!("encoding {}", path.display()))?)?;
        written.push(path);
    }
    Ok(written)
}

/// The table as CSV: a header of column names, then one line per row.
fn csv_bytes(table: &Table) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(table.columns.iter().map(|column| column.name.as_str()))?;
    for row in 0..table.rows() {
        writer.write_record(table.columns.iter().map(|column| column.cell(row)))?;
    }
    Ok(writer.into_inner()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/run-fixture");

    #[test]
    fn each_table_is_a_header_and_one_line_per_row() {
        let runs = contention::runs::load_all(&[FIXTURE.into()]).runs;
        for table in tidy::tables(&runs) {
            let bytes = csv_bytes(&table).unwrap();
            let mut reader = csv::Reader::from_reader(bytes.as_slice());
            assert_eq!(reader.headers().unwrap().len(), table.columns.len(), "{}", table.name);
            assert_eq!(reader.records().filter_map(Result::ok).count(), table.rows(), "{}", table.name);
        }
    }

    #[test]
    fn standard_output_files_and_run_folders_are_refused() {
        assert!(resolve_folder(None, &[]).unwrap_err().to_string().contains("give a folder"));
        let run_file = Path::new(FIXTURE).join(MANIFEST);
        assert!(resolve_folder(Some(&run_file), &[]).unwrap_err().to_string().contains("it is a file"));
        let error = resolve_folder(Some(Path::new(FIXTURE)), &[]).unwrap_err().to_string();
        assert!(error.contains("it is a run folder"), "{error}");
    }
}
