//! Files written whole or not at all: to a temporary file beside the target, flushed, then
//! renamed over it. Run folders (`store`), Go's benchmark files (`gc_go`) and the report's
//! output all write through here.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

/// Writes rows as CSV with a header named after the row's fields.
pub fn write_csv<R: Serialize>(path: &Path, rows: &[R]) -> Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row).with_context(|| format!("encoding a row of {}", path.display()))?;
    }
    let bytes = writer.into_inner().context("finishing the CSV")?;
    write_atomic(path, &bytes)
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path`: readers see the old file or the whole new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result.with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("contention-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rows.csv");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new contents").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new contents");
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().filter_map(Result::ok).map(|e| e.file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("rows.csv")]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
