//! One server per room folder: two on one `--dir` would number two uploads alike, and a
//! second start would empty the first's staging folder under it. The server holds an
//! advisory lock on `DIR/.lock` (through the lib's platform layer: flock, or LockFileEx on
//! Windows), with its PID written in, for as long as it runs; the system lets go of it when
//! the process ends however it ends, so a crash leaves no stale lock behind.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};

const LOCK: &str = ".lock";

/// The room folder's lock, held until dropped.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Creates `dir` when missing and locks it for this process; `Err` names the PID of the
/// server that holds it.
pub fn lock(dir: &Path) -> Result<FolderLock> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(LOCK);
    let opened = contention::platform::lock_file(&path);
    let mut file = match opened.with_context(|| format!("locking the room's lock file {}", path.display()))? {
        Some(file) => file,
        None => {
            let mut holder = String::new();
            let _ = File::open(&path).and_then(|mut file| file.read_to_string(&mut holder));
            let holder = match holder.trim().parse::<u32>() {
                Ok(pid) => format!("PID {pid}"),
                Err(_) => "another process".to_string(),
            };
            bail!(
                "another room is serving {} ({holder}): stop it first, or give this one another --dir",
                dir.display()
            );
        }
    };
    let written = file.set_len(0).and_then(|()| file.rewind()).and_then(|()| writeln!(file, "{}", std::process::id()));
    written.with_context(|| format!("writing {}", path.display()))?;
    Ok(FolderLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locked_folder_names_its_holder() {
        let dir = std::env::temp_dir().join(format!("contention-room-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = lock(&dir).unwrap();
        let error = lock(&dir).unwrap_err().to_string();
        let expected = format!("another room is serving {} (PID {})", dir.display(), std::process::id());
        assert!(error.starts_with(&expected), "{error}");
        drop(held);
        assert!(lock(&dir).is_ok(), "the lock is given back");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
