//! A run's files, wherever they are: a folder on disk (each file size-checked before it is
//! read, and read only when it is a regular file: a symbolic link could lead anywhere, a
//! FIFO could block the reader), or a pack already read into memory.

use std::path::Path;

use super::{pack, RunsError, MANIFEST};

/// Where a run's files are: a folder on disk, or a pack already read into memory.
pub(super) enum RunFiles {
    Folder,
    Pack(std::collections::BTreeMap<String, String>),
}

impl RunFiles {
    /// A pack when `path` is a file, else a run folder.
    pub(super) fn open(path: &Path) -> Result<Self, RunsError> {
        if path.is_file() {
            Ok(Self::Pack(pack::read(path)?))
        } else {
            Self::folder(path)
        }
    }

    /// A run folder: it exists, holds something, and holds a manifest.
    fn folder(dir: &Path) -> Result<Self, RunsError> {
        let shown = || super::shown(dir);
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(RunsError::NotAFolder { dir: shown() }),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(RunsError::NoFolder { dir: shown() })
            }
            Err(source) => return Err(RunsError::Unreachable { dir: shown(), source }),
        }
        let mut entries = std::fs::read_dir(dir).map_err(|source| RunsError::Read { path: shown(), source })?;
        if entries.next().is_none() {
            return Err(RunsError::Empty { dir: shown() });
        }
        if std::fs::symlink_metadata(dir.join(MANIFEST)).is_err() {
            return Err(RunsError::NoManifest { dir: shown() });
        }
        Ok(Self::Folder)
    }

    /// The text of the run's file `name` (a plain file name).
    pub(super) fn text(&self, run: &Path, name: &str) -> Result<String, RunsError> {
        let path = run.join(name);
        let shown = super::shown(&path);
        match self {
            Self::Folder => {
                let meta = match std::fs::symlink_metadata(&path) {
                    Ok(meta) if meta.is_file() => meta,
                    Ok(meta) => return Err(RunsError::NotRegular { path: shown, what: kind(&meta) }),
                    Err(_) => return Err(RunsError::MissingFile { path: shown }),
                };
                crate::run_format::check_csv_size(&path, meta.len())?;
                // Opened without following a link made after the check.
                let file = crate::platform::open_no_follow(&path)
                    .map_err(|source| RunsError::Read { path: shown.clone(), source })?;
                std::io::read_to_string(file).map_err(|source| RunsError::Read { path: shown, source })
            }
            Self::Pack(files) => files.get(name).cloned().ok_or(RunsError::MissingFile { path: shown }),
        }
    }

    /// Whether the run holds a file `name` (of any kind: one that is not a regular file is
    /// refused by name when read).
    pub(super) fn has(&self, run: &Path, name: &str) -> bool {
        match self {
            Self::Folder => std::fs::symlink_metadata(run.join(name)).is_ok(),
            Self::Pack(files) => files.contains_key(name),
        }
    }
}

/// What a file that is not a regular file is, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let file_type = meta.file_type();
    if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_dir() {
        "a folder"
    } else if crate::platform::special_kind(meta) == Some("FIFO (named pipe)") {
        "a FIFO (named pipe)"
    } else {
        "not a regular file"
    }
}
