//! The class in one file (`GET /class.tar`) and read back (`report --from class.tar`, or
//! the folder `tar xf` makes of it), so the room's page can be rebuilt offline.
//!
//! The archive holds one folder, `class/`: `roster.txt` when the room has a roster (one
//! seat a line), and each shown run's pack as `NNNN.contention-pack`, numbered in the order
//! the room shows them. Superseded, removed and unreadable runs are left out, as the class
//! page leaves them out; so are the guesses, which the class page does not show.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::present::room::roster::Roster;
use contention::runs::pack::{MAX_PACK_BYTES, PACK_EXTENSION};
use contention::runs::Run;

use super::archive::{self, Rules};
use super::space::MAX_ROOM_BYTES;
use super::state::{Room, MAX_RUNS};

const FOLDER: &str = "class/";
const ROSTER: &str = "roster.txt";
/// The largest class archive read: a full room's packs, a roster and the tar's headers.
const MAX_ARCHIVE_BYTES: u64 = MAX_ROOM_BYTES + (2 << 20) + (MAX_RUNS as u64 + 2) * 1024;

/// What the class archive of `room` is made of: the roster's text, and the path of each
/// shown run (taken under the room's lock; read later, so reading them does not hold it).
pub fn contents(room: &Room, roster: Option<&Roster>) -> (Option<String>, Vec<PathBuf>) {
    let paths = room.entries().iter().filter(|entry| entry.is_shown()).map(|entry| room.dir().join(&entry.file));
    (roster.map(Roster::to_text), paths.collect())
}

/// The class archive: the roster, then the pack of each run at `runs`, read one at a time.
pub fn archive(roster: Option<&str>, runs: &[PathBuf]) -> Result<Vec<u8>, String> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |since| since.as_secs());
    let mut tar = archive::Writer::new(now);
    if let Some(roster) = roster {
        tar.add(&format!("{FOLDER}{ROSTER}"), roster.as_bytes())?;
    }
    for (number, path) in runs.iter().enumerate() {
        tar.add(&format!("{FOLDER}{:04}.{PACK_EXTENSION}", number + 1), &super::disk::pack_bytes(path)?)?;
    }
    tar.finish()
}

/// A class read back: its runs in the room's order, the packs that did not read (each with
/// why), and its roster.
#[derive(Debug)]
pub struct Class {
    pub runs: Vec<Run>,
    pub skipped: Vec<String>,
    pub roster: Option<Roster>,
}

/// Whether `path` is a class archive, or a folder holding an unpacked one.
pub fn is_class(path: &Path) -> bool {
    if path.is_dir() {
        return !path.join("manifest.json").exists()
            && fs::read_dir(path).is_ok_and(|entries| {
                entries.filter_map(Result::ok).any(|entry| is_class_file(&entry.file_name().to_string_lossy()))
            });
    }
    let mut head = [0u8; 512];
    fs::File::open(path).and_then(|mut file| std::io::Read::read_exact(&mut file, &mut head)).is_ok()
        && archive::is_tar(&head)
}

/// `roster.txt` or `NNNN.contention-pack` (four to six digits).
fn is_class_file(name: &str) -> bool {
    let numbered = name
        .strip_suffix(&format!(".{PACK_EXTENSION}"))
        .is_some_and(|number| (4..=6).contains(&number.len()) && number.bytes().all(|byte| byte.is_ascii_digit()));
    numbered || name == ROSTER
}

/// The class in the archive or folder at `path`; `Err` says why it is refused.
pub fn read(path: &Path) -> Result<Class, String> {
    if path.is_dir() {
        return read_folder(path);
    }
    let mut tar = Vec::new();
    let file = fs::File::open(path).map_err(|error| error.to_string())?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_ARCHIVE_BYTES + 1), &mut tar)
        .map_err(|error| error.to_string())?;
    if tar.len() as u64 > MAX_ARCHIVE_BYTES {
        return Err(format!("it is larger than the {MAX_ARCHIVE_BYTES} bytes a class archive holds"));
    }
    let allowed = |name: &str| name.strip_prefix(FOLDER).is_some_and(is_class_file);
    let rules = Rules {
        allowed: &allowed,
        folder: FOLDER,
        names: "class/roster.txt and class/NNNN.contention-pack files",
        max_bytes: MAX_PACK_BYTES,
        max_entries: MAX_RUNS + 1,
    };
    let files = archive::read(&tar, &rules)?;
    let unpacked = Unpacked::new().map_err(|error| format!("unpacking it: {error:#}"))?;
    for (name, bytes) in &files {
        let file = unpacked.0.join(name.strip_prefix(FOLDER).unwrap_or(name));
        write_new(&file, bytes).map_err(|error| format!("unpacking it: {error:#}"))?;
    }
    read_folder(&unpacked.0)
}

/// The class in the folder `dir`: its roster and packs by name, other files left alone.
fn read_folder(dir: &Path) -> Result<Class, String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map_err(|error| error.to_string())?
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| is_class_file(name))
        .collect();
    names.sort();
    let mut class = Class { runs: Vec::new(), skipped: Vec::new(), roster: None };
    for name in names {
        let path = dir.join(&name);
        if super::disk::is_link(&path) {
            return Err(format!("{name} is a symbolic link: a class folder holds plain files only"));
        }
        if name == ROSTER {
            let text = fs::read_to_string(&path).map_err(|error| format!("{name}: {error}"))?;
            class.roster = Some(Roster::parse(&text).map_err(|why| format!("{name}: {why}"))?);
            continue;
        }
        match Run::load(&path) {
            Ok(run) => class.runs.push(run),
            Err(error) => class.skipped.push(error.to_string().replace(&format!("{}/", dir.display()), "")),
        }
    }
    if class.runs.is_empty() && class.roster.is_none() {
        return Err(format!(
            "it holds no run that reads{}",
            class.skipped.first().map_or(String::new(), |why| format!(": {why}"))
        ));
    }
    Ok(class)
}

/// A fresh folder of our own that an archive is unpacked into, removed when dropped.
struct Unpacked(PathBuf);

impl Unpacked {
    fn new() -> Result<Self> {
        let stamp =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |since| since.as_nanos());
        let dir = std::env::temp_dir().join(format!("contention-class-{}-{stamp}", std::process::id()));
        // create_dir, not create_dir_all: the folder is new, never one that was there.
        fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Self(dir))
    }
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Writes `bytes` into the new file `path` (never over one that exists).
fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(bytes).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_folder_holds_its_roster_and_numbered_packs() {
        for (name, taken) in [
            ("roster.txt", true),
            ("0001.contention-pack", true),
            ("123456.contention-pack", true),
            ("01.contention-pack", false),
            ("0001-seat-1.contention-pack", false),
            ("../0001.contention-pack", false),
            ("manifest.json", false),
        ] {
            assert_eq!(is_class_file(name), taken, "{name}");
        }
        let dir = std::env::temp_dir().join(format!("contention-class-folder-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        assert!(!is_class(&dir), "an empty folder is no class");
        fs::write(dir.join(ROSTER), "ada\ngrace\n").unwrap();
        assert!(is_class(&dir));
        let class = read(&dir).unwrap();
        assert_eq!((class.runs.len(), class.roster.unwrap().seats().len()), (0, 2), "a roster with no run yet");
        fs::write(dir.join("0001.contention-pack"), "not a pack").unwrap();
        assert_eq!(read(&dir).unwrap().skipped.len(), 1, "a pack that does not read is skipped, named");
        fs::remove_dir_all(&dir).unwrap();
    }
}
