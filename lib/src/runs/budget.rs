//! The memory of one page: runs loaded together ([`super::load_all`]) read at most
//! [`MAX_PAGE_BYTES`] of run files in all. Each run's size is taken from the file system
//! before it is read (a pack's length; a folder's run files), so a room of large packs is
//! cut at the bound, the runs past it named as skipped, and memory stays within a small
//! multiple of the bound (the files' text while one run is read, and the rows kept).

use std::path::Path;

use super::pack::is_run_file_name;
use crate::limits::saved::MAX_PAGE_BYTES;

/// Bytes of run files taken so far by one page.
#[derive(Debug, Default)]
pub(super) struct PageBudget {
    used: u64,
}

impl PageBudget {
    /// Takes the bytes of the run at `path` from the budget, or says why it is not read.
    /// A path that cannot be measured takes nothing: reading it names what is wrong.
    pub(super) fn take(&mut self, path: &Path) -> Result<(), String> {
        let bytes = run_bytes(path);
        let total = self.used.saturating_add(bytes);
        if total > MAX_PAGE_BYTES {
            return Err(format!(
                "{} is not read: its {bytes} bytes would take the runs read together past {MAX_PAGE_BYTES} bytes \
                 (the most one page reads; {} bytes read before it): render fewer runs at once",
                super::shown(path),
                self.used
            ));
        }
        self.used = total;
        Ok(())
    }
}

/// What reading the run at `path` would read: a pack's length, or the regular files of a
/// folder that a run may name (`manifest.json`, the CSVs).
fn run_bytes(path: &Path) -> u64 {
    let Ok(meta) = std::fs::metadata(path) else { return 0 };
    if meta.is_file() {
        return meta.len();
    }
    let Ok(entries) = std::fs::read_dir(path) else { return 0 };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_str().is_some_and(is_run_file_name))
        .filter_map(|entry| entry.path().symlink_metadata().ok())
        .filter(std::fs::Metadata::is_file)
        .map(|meta| meta.len())
        .fold(0, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_past_the_bound_are_named_not_read() {
        let dir = std::env::temp_dir().join(format!("contention-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pack = dir.join("big.contention-pack");
        // Closed before the folder is removed: Windows deletes no open file.
        std::fs::File::create(&pack).unwrap().set_len(MAX_PAGE_BYTES / 2 + 1).unwrap();
        let mut budget = PageBudget::default();
        assert!(budget.take(&pack).is_ok());
        let error = budget.take(&pack).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(error.contains("is not read: its 134217729 bytes would take the runs read together past"), "{error}");
        assert!(budget.take(Path::new("/nonexistent/run")).is_ok());
    }
}
