//! The articles' published numbers (`data/reference/*.csv`) for the notebooks, which run
//! without the report's polars loader. The files are small tables with a header row.

use std::path::Path;

use thiserror::Error;

/// A reference file could not be read or does not hold what was asked for.
#[derive(Debug, Error)]
pub enum ReferenceError {
    #[error("could not read {file}: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: line {line}: {message}")]
    Malformed { file: String, line: usize, message: String },
    #[error("{file}: no column '{column}' (columns: {available})")]
    NoColumn { file: String, column: String, available: String },
}

/// One reference CSV: its header and its rows as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceTable {
    pub file: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl ReferenceTable {
    /// Reads `dir/file`, e.g. `read("../data/reference", "stride.csv")` from a notebook.
    pub fn read(dir: impl AsRef<Path>, file: &str) -> Result<Self, ReferenceError> {
        let path = dir.as_ref().join(file);
        let text = std::fs::read_to_string(&path)
            .map_err(|source| ReferenceError::Read { file: path.display().to_string(), source })?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses CSV text: a header row, then rows of the same width. Fields may be
    /// double-quoted (to hold commas); a doubled quote inside stands for one quote.
    pub fn parse(file: &str, text: &str) -> Result<Self, ReferenceError> {
        let malformed = |line: usize, message: String| ReferenceError::Malformed { file: file.into(), line, message };
        let mut lines = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty());
        let (_, header) =
            lines.next().ok_or_else(|| malformed(1, "the file is empty: expected a header row".into()))?;
        let columns = split_fields(header).map_err(|message| malformed(1, message))?;
        let mut rows = Vec::new();
        for (index, line) in lines {
            let fields = split_fields(line).map_err(|message| malformed(index + 1, message))?;
            if fields.len() != columns.len() {
                return Err(malformed(
                    index + 1,
                    format!("{} fields, but the header has {} columns", fields.len(), columns.len()),
                ));
            }
            rows.push(fields);
        }
        Ok(Self { file: file.into(), columns, rows })
    }

    /// The position of `column`, or an error naming the columns there are.
    pub fn column_index(&self, column: &str) -> Result<usize, ReferenceError> {
        self.columns.iter().position(|name| name == column).ok_or_else(|| ReferenceError::NoColumn {
            file: self.file.clone(),
            column: column.into(),
            available: self.columns.join(", "),
        })
    }

    /// Every row's value in `column` as text.
    pub fn texts(&self, column: &str) -> Result<Vec<&str>, ReferenceError> {
        let index = self.column_index(column)?;
        Ok(self.rows.iter().map(|row| row[index].as_str()).collect())
    }

    /// Every row's value in `column` as a number; a cell that is not one is an error.
    pub fn numbers(&self, column: &str) -> Result<Vec<f64>, ReferenceError> {
        let index = self.column_index(column)?;
        self.rows
            .iter()
            .enumerate()
            .map(|(row, fields)| {
                fields[index].trim().parse::<f64>().map_err(|_| ReferenceError::Malformed {
                    file: self.file.clone(),
                    line: row + 2,
                    message: format!("column '{column}' holds '{}', not a number", fields[index]),
                })
            })
            .collect()
    }
}

fn split_fields(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut characters = line.trim_end_matches('\r').chars().peekable();
    while let Some(character) = characters.next() {
        match (character, quoted) {
            ('"', true) if characters.peek() == Some(&'"') => {
                field.push('"');
                characters.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (other, _) => field.push(other),
        }
    }
    if quoted {
        return Err("a quoted field is not closed".into());
    }
    fields.push(field);
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_and_quoted_text() {
        let table =
            ReferenceTable::parse("t.csv", "setting,per_s\n\"GOGC=100, default\",78940.67\noff,413740.3\n").unwrap();
        assert_eq!(table.texts("setting").unwrap(), ["GOGC=100, default", "off"]);
        assert_eq!(table.numbers("per_s").unwrap(), [78940.67, 413740.3]);
    }

    #[test]
    fn reads_the_stride_reference_shipped_with_the_repo() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/reference");
        let table = ReferenceTable::read(dir, "stride.csv").unwrap();
        assert_eq!(table.numbers("stride_bytes").unwrap(), [8.0, 16.0, 32.0, 64.0, 128.0, 256.0]);
        assert_eq!(table.numbers("time_ms").unwrap().len(), 6);
    }

    #[test]
    fn errors_name_the_file_line_and_what_is_wrong() {
        let ragged = ReferenceTable::parse("r.csv", "a,b\n1,2\n3\n").unwrap_err().to_string();
        assert_eq!(ragged, "r.csv: line 3: 1 fields, but the header has 2 columns");
        let table = ReferenceTable::parse("r.csv", "a,b\n1,x\n").unwrap();
        assert_eq!(table.numbers("b").unwrap_err().to_string(), "r.csv: line 2: column 'b' holds 'x', not a number");
        assert_eq!(table.numbers("c").unwrap_err().to_string(), "r.csv: no column 'c' (columns: a, b)");
        assert!(ReferenceTable::parse("e.csv", "").unwrap_err().to_string().contains("empty"));
        assert!(ReferenceTable::parse("q.csv", "a\n\"open\n").unwrap_err().to_string().contains("not closed"));
        let missing = ReferenceTable::read("/nonexistent", "x.csv").unwrap_err().to_string();
        assert!(missing.starts_with("could not read /nonexistent/x.csv"));
    }
}
