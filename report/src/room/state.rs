//! The room in memory: every run kept in its folder, read once with the lib's reader, in
//! the order the runs arrived, and what could not be read, with why.
//!
//! A label is a seat: a run whose label a shown run holds already replaces it, and the old
//! one stays on disk, listed as superseded; a restart reads the folder in the same order
//! (kept names start with their arrival number) and so supersedes the same runs. The runs
//! the teacher removed, the guesses and the reveal are kept in the room's [`Ledger`]. The
//! room holds at most [`MAX_RUNS`] runs and [`MAX_KEPT_BYTES`] of packs, which
//! bounds its memory (see [`super`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Result;
use contention::present::room::class::Seat;
use contention::runs::Run;

use super::disk;
use super::ledger::Ledger;

/// Runs a room holds: a large workshop's laptops, several runs each.
pub const MAX_RUNS: usize = 500;
/// Bytes of packs a room holds: a quick run's pack is about 40 KiB (every experiment), a
/// default one's a few hundred KiB, so a room of 500 runs stays below; held as rows, a pack
/// takes about 2.5 times its size in memory (measured: ten 14 MB packs, 384 MiB resident).
pub const MAX_KEPT_BYTES: u64 = 128 << 20;

/// One run of the room, shown or skipped.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The run's label in the room (unique), or for a skipped file its name.
    pub label: String,
    /// Its name in the room's folder.
    pub file: String,
    pub arrived: SystemTime,
    pub status: Status,
    /// Bytes of its pack, counted against [`MAX_KEPT_BYTES`] while it is shown.
    bytes: u64,
}

/// Whether a run of the room is shown, and why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Shown,
    /// It could not be read: why.
    Skipped(String),
    /// A later run of the same seat replaced it.
    Superseded,
    /// The teacher removed it.
    Removed,
}

impl Entry {
    pub fn is_shown(&self) -> bool {
        self.status == Status::Shown
    }

    /// "shown", "skipped", "superseded" or "removed".
    pub fn status_word(&self) -> &'static str {
        match self.status {
            Status::Shown => "shown",
            Status::Skipped(_) => "skipped",
            Status::Superseded => "superseded",
            Status::Removed => "removed",
        }
    }

    /// Why a skipped run is not shown.
    pub fn why(&self) -> Option<&str> {
        match &self.status {
            Status::Skipped(why) => Some(why),
            _ => None,
        }
    }
}

#[derive(Debug)]
pub struct Room {
    dir: PathBuf,
    /// The runs shown, in arrival order, each with its room label (shared with the seat
    /// pages being drawn, so drawing one takes no lock).
    runs: Vec<Arc<Run>>,
    /// Each shown run's seat, aligned with `runs`.
    seats: Vec<Seat>,
    ledger: Ledger,
    /// Every run, shown or skipped, in arrival order.
    entries: Vec<Entry>,
    next_sequence: u32,
    version: u64,
    kept_bytes: u64,
}

/// Why an upload that read as a pack was not kept.
#[derive(Debug)]
pub enum NotKept {
    /// The room is at [`MAX_RUNS`] or [`MAX_KEPT_BYTES`].
    Full(String),
    /// The request itself is refused (no such run, a guess out of bounds): why.
    Refused(String),
    /// The file system refused.
    Failed(anyhow::Error),
}

impl Room {
    /// The room kept in `dir` (created when missing), every run read again; a file that
    /// cannot be read is skipped and named.
    pub fn restore(dir: &Path) -> Result<Self> {
        disk::prepare(dir)?;
        let mut room = Self {
            dir: dir.to_path_buf(),
            runs: Vec::new(),
            seats: Vec::new(),
            ledger: Ledger::load(dir)?,
            entries: Vec::new(),
            next_sequence: 1,
            version: 1,
            kept_bytes: 0,
        };
        for name in disk::names(dir)? {
            let path = dir.join(&name);
            let arrived = fs::metadata(&path).and_then(|meta| meta.modified()).unwrap_or(UNIX_EPOCH);
            room.next_sequence = room.next_sequence.max(disk::sequence(&name).map_or(0, |n| n.saturating_add(1)));
            let bytes = size_of(&path);
            if room.ledger.removed.contains(&name) {
                // Read only for its label: a removed run is listed, never shown.
                let label = Run::load(&path).map_or_else(|_| name.clone(), |run| run.label);
                room.entries.push(Entry { label, file: name, arrived, status: Status::Removed, bytes });
                continue;
            }
            let read = if disk::is_link(&path) {
                Err(format!(
                    "{name} is a symbolic link: a room reads only the packs and run folders in its own folder, not \
                     links that could lead anywhere"
                ))
            } else if disk::is_pack(&name) || path.is_dir() {
                room.has_room_for(bytes)
                    .and_then(|()| Run::load(&path).map_err(|error| room.shorten(&error.to_string())))
            } else {
                Err(format!("{name} is not a run: a room keeps packs (*.contention-pack) and run folders"))
            };
            match read {
                Ok(run) => room.add(name, run, arrived, bytes),
                Err(why) => room.entries.push(Entry {
                    label: name.clone(),
                    file: name,
                    arrived,
                    status: Status::Skipped(why),
                    bytes,
                }),
            }
        }
        Ok(room)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Changes with every run kept, so a page can tell it is out of date.
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn runs(&self) -> &[Arc<Run>] {
        &self.runs
    }

    /// Each shown run's seat, in the order of [`Self::runs`].
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Changes the ledger with `change` and keeps it on disk; the room is unchanged when
    /// either fails.
    pub fn change_ledger(&mut self, change: impl FnOnce(&mut Ledger) -> Result<(), String>) -> Result<(), NotKept> {
        let mut ledger = self.ledger.clone();
        change(&mut ledger).map_err(NotKept::Refused)?;
        ledger.save(&self.dir).map_err(NotKept::Failed)?;
        self.ledger = ledger;
        self.version += 1;
        Ok(())
    }

    /// Removes the shown run labelled `label` (its pack stays on disk, listed as removed).
    pub fn remove(&mut self, label: &str) -> Result<(), NotKept> {
        let Some(index) = self.entries.iter().position(|entry| entry.is_shown() && entry.label == label) else {
            return Err(NotKept::Refused(format!("no run of the room is shown as {label:?} (GET /runs lists them)")));
        };
        let file = self.entries[index].file.clone();
        self.change_ledger(|ledger| {
            ledger.removed.push(file);
            Ok(())
        })?;
        self.hide(index, Status::Removed);
        Ok(())
    }

    /// Takes the shown entry at `index` out of the shown runs, as `status`.
    fn hide(&mut self, index: usize, status: Status) {
        let entry = &mut self.entries[index];
        if let Some(at) = self.runs.iter().position(|run| run.label == entry.label) {
            self.runs.remove(at);
            self.seats.remove(at);
        }
        self.kept_bytes = self.kept_bytes.saturating_sub(entry.bytes);
        entry.status = status;
        self.version += 1;
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The skipped files, each with why, as the page names them.
    pub fn skipped(&self) -> Vec<String> {
        self.entries.iter().filter_map(|entry| entry.why().map(String::from)).collect()
    }

    /// The shown run labelled `label`.
    pub fn shown(&self, label: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.is_shown() && entry.label == label)
    }

    /// The shown run labelled `label`, read.
    pub fn run(&self, label: &str) -> Option<Arc<Run>> {
        self.runs.iter().find(|run| run.label == label).cloned()
    }

    /// `Err` says why the room cannot take `bytes` more of packs.
    pub fn has_room_for(&self, bytes: u64) -> Result<(), String> {
        if self.runs.len() >= MAX_RUNS {
            return Err(format!("the room is full: it holds {MAX_RUNS} runs, the most it takes"));
        }
        if self.kept_bytes.saturating_add(bytes) > MAX_KEPT_BYTES {
            return Err(format!(
                "the room is full: it holds {} bytes of packs and takes at most {MAX_KEPT_BYTES}",
                self.kept_bytes
            ));
        }
        Ok(())
    }

    /// Keeps the staged upload, read as `run`, under a name of the server's, and returns
    /// the label it is shown under.
    pub fn keep(&mut self, staged: &Path, run: Run, bytes: u64) -> Result<String, NotKept> {
        self.has_room_for(bytes).map_err(NotKept::Full)?;
        let sequence = self.next_sequence;
        let label = run.label.clone();
        let name = disk::file_name(sequence, &label);
        disk::keep(staged, &self.dir, &name).map_err(NotKept::Failed)?;
        self.next_sequence = sequence.saturating_add(1);
        self.add(name, run, SystemTime::now(), bytes);
        Ok(label)
    }

    /// Adds `run`, kept as `name`, in place of the shown run of its seat (label), if any.
    fn add(&mut self, name: String, mut run: Run, arrived: SystemTime, bytes: u64) {
        if let Some(index) = self.entries.iter().position(|entry| entry.is_shown() && entry.label == run.label) {
            self.hide(index, Status::Superseded);
        }
        run.dir = self.dir.join(&name);
        self.entries.push(Entry { label: run.label.clone(), file: name, arrived, status: Status::Shown, bytes });
        self.seats.push(Seat::of(&run));
        self.runs.push(Arc::new(run));
        self.kept_bytes = self.kept_bytes.saturating_add(bytes);
        self.version += 1;
    }

    /// A reader's message with the room's folder left out of its paths.
    pub fn shorten(&self, message: &str) -> String {
        message.replace(&format!("{}/", self.dir.display()), "")
    }
}

/// Bytes of a pack, or of the files directly in a run folder.
fn size_of(path: &Path) -> u64 {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => fs::read_dir(path)
            .map(|entries| entries.filter_map(Result::ok).filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum())
            .unwrap_or(0),
        Ok(meta) => meta.len(),
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/run-fixture");

    #[test]
    fn a_full_room_says_why_it_takes_no_more() {
        let dir = std::env::temp_dir().join(format!("contention-room-full-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut room = Room::restore(&dir).unwrap();
        assert!(room.has_room_for(MAX_KEPT_BYTES).is_ok());
        room.kept_bytes = MAX_KEPT_BYTES - 10;
        assert!(room.has_room_for(10).is_ok());
        let error = room.has_room_for(11).unwrap_err();
        assert!(error.starts_with("the room is full: it holds 134217718 bytes of packs"), "{error}");
        let run = Run::load(FIXTURE).unwrap();
        room.runs = vec![Arc::new(run); MAX_RUNS];
        assert_eq!(room.has_room_for(0).unwrap_err(), "the room is full: it holds 500 runs, the most it takes");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_seats_new_run_supersedes_its_old_one_and_a_removal_is_kept() {
        let dir = std::env::temp_dir().join(format!("contention-room-labels-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut room = Room::restore(&dir).unwrap();
        for (number, label) in ["vm", "other", "vm"].into_iter().enumerate() {
            let mut run = Run::load(FIXTURE).unwrap();
            run.label = label.into();
            room.add(format!("{number}"), run, UNIX_EPOCH, 1);
        }
        let listed: Vec<(&str, &str)> = room.entries().iter().map(|e| (e.label.as_str(), e.status_word())).collect();
        assert_eq!(listed, [("vm", "superseded"), ("other", "shown"), ("vm", "shown")]);
        let shown: Vec<&str> = room.seats().iter().map(Seat::label).collect();
        assert_eq!(shown, ["other", "vm"]);
        assert_eq!((room.runs().len(), room.kept_bytes), (2, 2));
        room.remove("other").unwrap();
        assert_eq!(room.entries()[1].status, Status::Removed);
        assert_eq!(room.ledger().removed, ["1"], "the removal is kept in the ledger");
        assert!(matches!(room.remove("other"), Err(NotKept::Refused(_))), "a removed run cannot be removed again");
        // One step per change since the restore's 1: three arrivals, the run they superseded,
        // the ledger's removal and the run it hid.
        assert_eq!(room.version(), 7);
        fs::remove_dir_all(&dir).unwrap();
    }
}
