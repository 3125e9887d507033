//! The room's folder: one pack per run, named by the server, and a staging folder for
//! uploads being read.
//!
//! An upload is written into `DIR/.incoming/` under a number as it arrives, read back with the lib's
//! pack reader, and only then renamed to `NNNN-<label>.contention-pack` in `DIR` (the same
//! file system, so the rename is atomic): a run in `DIR` is always a whole file that read
//! once. No name from a request reaches the file system: staged files are numbered, kept
//! files are named from the pack's label with every character but `a-z A-Z 0-9 - .`
//! replaced, behind a sequence number, so a name cannot leave `DIR` nor clash, and sorting
//! the names gives the order runs arrived in. What `.incoming` holds at start is an upload
//! a stop interrupted: it is removed (one server per folder: [`super::folder_lock`]). A
//! symbolic link in `DIR` is skipped and named, as a run's files are: it could lead anywhere.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::runs::pack::PACK_EXTENSION;

const INCOMING: &str = ".incoming";
/// Characters of the label kept in a file name.
const MAX_NAME_LABEL_CHARS: usize = 40;

/// Creates `dir` and its staging folder, emptying the staging folder of interrupted uploads.
pub fn prepare(dir: &Path) -> Result<()> {
    let incoming = dir.join(INCOMING);
    if is_link(&incoming) {
        anyhow::bail!("{} is a symbolic link: the room stages uploads only in a folder of its own", incoming.display());
    }
    fs::create_dir_all(&incoming).with_context(|| format!("creating {}", incoming.display()))?;
    for entry in fs::read_dir(&incoming).with_context(|| format!("reading {}", incoming.display()))? {
        let path = entry?.path();
        if path.is_file() {
            fs::remove_file(&path).with_context(|| format!("removing the interrupted upload {}", path.display()))?;
        }
    }
    Ok(())
}

/// The names in `dir` a room may hold runs under (every name not starting with a dot),
/// sorted: packs the server kept come in the order they arrived.
pub fn names(dir: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Whether `path` is a symbolic link (not followed).
pub fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
}

/// The bytes of the kept pack at `path`, opened without following a link made since it was
/// read.
pub fn read_kept(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut file = contention::platform::open_no_follow(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The pack of the kept run at `path` (a pack as kept, or a run folder packed); `Err` says
/// why it could not be read.
pub fn pack_bytes(path: &Path) -> Result<Vec<u8>, String> {
    match (is_link(path), path.is_dir()) {
        (true, _) => Err(format!("{} has become a symbolic link since the room read it", path.display())),
        (false, true) => {
            contention::runs::pack::pack_run(path).map(String::into_bytes).map_err(|error| error.to_string())
        }
        (false, false) => read_kept(path).map_err(|error| format!("reading {}: {error}", path.display())),
    }
}

/// The sequence number a kept pack's name starts with.
pub fn sequence(name: &str) -> Option<u32> {
    name.split_once('-').and_then(|(number, _)| number.parse().ok())
}

/// Whether `name` is a pack's (a kept upload's, or one put in the folder by hand).
pub fn is_pack(name: &str) -> bool {
    name.strip_suffix(PACK_EXTENSION).is_some_and(|stem| stem.ends_with('.'))
}

/// The staging file numbered `number` (created new by the upload that writes it).
pub fn staged_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(INCOMING).join(format!("{number}.{PACK_EXTENSION}"))
}

/// The name a run labelled `label` is kept under, as the room's `sequence`th arrival.
pub fn file_name(sequence: u32, label: &str) -> String {
    format!("{sequence:04}-{}.{PACK_EXTENSION}", plain(label))
}

/// The name a download of the run labelled `label` suggests.
pub fn download_name(label: &str) -> String {
    format!("{}.{PACK_EXTENSION}", plain(label))
}

/// `label`'s first characters with every one but `a-z A-Z 0-9 - .` replaced by `_`.
fn plain(label: &str) -> String {
    label
        .chars()
        .take(MAX_NAME_LABEL_CHARS)
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' })
        .collect()
}

/// Renames the staged upload to `name` in `dir`, refusing to replace a file, then flushes
/// the folder so the new name survives a power cut.
pub fn keep(staged: &Path, dir: &Path, name: &str) -> Result<PathBuf> {
    let target = dir.join(name);
    if fs::symlink_metadata(&target).is_ok() {
        anyhow::bail!("{} already exists", target.display());
    }
    fs::rename(staged, &target).with_context(|| format!("keeping the upload as {}", target.display()))?;
    fs::File::open(dir).and_then(|folder| folder.sync_all()).with_context(|| format!("flushing {}", dir.display()))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_names_stay_in_the_folder_and_sort_by_arrival() {
        assert_eq!(file_name(7, "seat-12"), "0007-seat-12.contention-pack");
        assert_eq!(file_name(12, "../../etc/passwd"), "0012-.._.._etc_passwd.contention-pack");
        assert_eq!(file_name(3, "café <b>"), "0003-caf___b_.contention-pack");
        assert!(file_name(1, &"x".repeat(100)).len() < 64);
        assert_eq!(sequence("0012-seat.contention-pack"), Some(12));
        assert_eq!(sequence("seat.contention-pack"), None);
        assert!(is_pack("0001-a.contention-pack") && !is_pack("contention-pack") && !is_pack("a.csv"));
        let mut names = vec![file_name(10, "a"), file_name(9, "z")];
        names.sort();
        assert_eq!(names, [file_name(9, "z"), file_name(10, "a")]);
    }

    #[test]
    fn staged_uploads_are_kept_whole_or_cleared_on_start() {
        let dir = std::env::temp_dir().join(format!("contention-room-disk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        prepare(&dir).unwrap();
        let stage = |number: u64, bytes: &[u8]| {
            let path = staged_path(&dir, number);
            fs::write(&path, bytes).unwrap();
            path
        };
        let staged = stage(1, b"pack");
        let kept = keep(&staged, &dir, &file_name(1, "a")).unwrap();
        assert_eq!(fs::read(&kept).unwrap(), b"pack");
        let again = stage(2, b"other");
        assert!(keep(&again, &dir, &file_name(1, "a")).is_err(), "a kept pack is never replaced");
        prepare(&dir).unwrap();
        assert!(!again.exists(), "an interrupted upload is removed on start");
        assert_eq!(names(&dir).unwrap(), [file_name(1, "a")]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
