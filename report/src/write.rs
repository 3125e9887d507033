//! Files written whole or not at all: to a temporary file beside the target, flushed, then
//! renamed over it. A file replaced keeps its permissions (a private 0600 report stays
//! private); a temporary file left by a process that no longer runs (killed mid-write) is
//! removed by the next write into its folder. Run folders (`store`), Go's benchmark files
//! (`gc_go`) and the report's output all write through here.

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
    let temporary = path.with_file_name(format!(".{file_name}{TEMPORARY}{}", std::process::id()));
    if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        remove_stale_temporaries(folder);
    }
    let replaced = fs::metadata(path).ok().filter(fs::Metadata::is_file).map(|meta| meta.permissions());
    let result = (|| -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        if let Some(permissions) = replaced {
            file.set_permissions(permissions)?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result.with_context(|| format!("writing {}", path.display()))
}

/// What a temporary file's name holds between the target's name and the writer's pid.
const TEMPORARY: &str = ".tmp-";

/// Removes the temporary files in `folder` (`.<name>.tmp-<pid>`) whose writer no longer
/// runs: killed between creating and renaming them. A file of a live process is kept (it
/// is being written), and so is anything not named that way.
pub fn remove_stale_temporaries(folder: &Path) {
    let Ok(entries) = fs::read_dir(folder) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_pid) else { continue };
        if !process_runs(pid) && entry.file_type().is_ok_and(|kind| kind.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The writer's pid in a temporary file's name, `.<name>.tmp-<pid>`.
fn temporary_pid(name: &str) -> Option<u32> {
    let (before, pid) = name.strip_prefix('.')?.rsplit_once(TEMPORARY)?;
    let digits = !pid.is_empty() && pid.bytes().all(|byte| byte.is_ascii_digit());
    (digits && !before.is_empty()).then(|| pid.parse().ok()).flatten()
}

/// Whether a process with `pid` runs. When it cannot be told, it counts as running:
/// nothing is removed that might be in use.
fn process_runs(pid: u32) -> bool {
    pid == std::process::id() || contention::platform::process_runs(pid).unwrap_or(true)
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

    #[test]
    fn replaced_files_keep_their_mode_and_dead_writers_temporaries_go() {
        let dir = std::env::temp_dir().join(format!("contention-mode-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.html");
        fs::write(&path, b"old").unwrap();
        let mut read_only = fs::metadata(&path).unwrap().permissions();
        read_only.set_readonly(true);
        fs::set_permissions(&path, read_only).unwrap();
        // No process has pid 0; a live one (ours) keeps its file.
        let stale = dir.join(".manifest.json.tmp-0");
        let live = dir.join(format!(".stride.csv.tmp-{}", std::process::id()));
        let other = dir.join(".notes.tmp-x");
        for file in [&stale, &live, &other] {
            fs::write(file, b"partial").unwrap();
        }
        write_atomic(&path, b"new").unwrap();
        let kept_read_only = fs::metadata(&path).unwrap().permissions().readonly();
        let (stale_left, live_left, other_left) = (stale.exists(), live.exists(), other.exists());
        fs::remove_dir_all(&dir).unwrap();
        assert!(kept_read_only, "the replaced file lost its permissions");
        // Where the OS cannot say whether a process runs (the fallback), nothing is removed.
        let can_tell = contention::platform::process_runs(0).is_ok();
        assert!(stale_left != can_tell && live_left && other_left);
        assert_eq!(temporary_pid(".manifest.json.tmp-123"), Some(123));
        assert_eq!(temporary_pid(".tmp-123"), None);
    }
}
