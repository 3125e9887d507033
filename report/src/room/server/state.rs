//! The room in memory: every run kept in its folder, in the order the runs arrived, and
//! what could not be read, with why.
//!
//! A label is a seat: a run whose label a shown run holds already replaces it, and the old
//! one stays on disk, listed as superseded until the teacher purges it. The ledger
//! ([`Ledger`], [`super::kept`]) is the truth of each pack's status: a restart reads only the
//! packs it records as shown, so what was superseded or removed stays so. The guesses and
//! the reveal are kept in it too. The room holds at most [`MAX_RUNS`] runs, and the packs of
//! its folder within its [`Space`], which bounds its memory and disk (see [`super`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Result;
use contention::present::room::class::Seat;
use contention::present::room::roster::Roster;
use contention::runs::Run;

use super::disk;
use super::kept::KeptStatus;
use super::ledger::Ledger;
use super::space::Space;

/// Runs a room holds: a large workshop's laptops, several runs each.
pub const MAX_RUNS: usize = 500;
/// One run of the room, shown or skipped.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The run's label in the room (unique), or for a skipped file its name.
    pub label: String,
    /// Its name in the room's folder.
    pub file: String,
    pub arrived: SystemTime,
    pub status: Status,
    /// Bytes of its pack, counted against the room's [`Space`].
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

    /// Its status as the ledger records it (`None`: skipped, not recorded).
    fn kept_status(&self) -> Option<KeptStatus> {
        match self.status {
            Status::Shown => Some(KeptStatus::Shown),
            Status::Superseded => Some(KeptStatus::Superseded),
            Status::Removed => Some(KeptStatus::Removed),
            Status::Skipped(_) => None,
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
    space: Space,
    /// `--seats`: a run's or a guess's label is matched to its seat.
    roster: Option<Roster>,
}

/// Why an upload that read as a pack was not kept.
#[derive(Debug)]
pub enum NotKept {
    /// The room is at [`MAX_RUNS`], or its [`Space`] or the seat's share is used up.
    Full(String),
    /// The request itself is refused (no such run, a guess out of bounds): why.
    Refused(String),
    /// The file system refused.
    Failed(anyhow::Error),
}

impl Room {
    /// The room kept in `dir` (created when missing), holding at most `space`: the packs its
    /// ledger records as shown are read again, the others listed from their record; a pack
    /// without a record is read (and then recorded); a file that cannot be read is skipped
    /// and named.
    pub fn restore(dir: &Path, space: Space, roster: Option<Roster>) -> Result<Self> {
        disk::prepare(dir)?;
        let mut room = Self {
            dir: dir.to_path_buf(),
            runs: Vec::new(),
            seats: Vec::new(),
            ledger: Ledger::load(dir)?,
            entries: Vec::new(),
            next_sequence: 1,
            version: 1,
            space,
            roster,
        };
        let loaded = room.ledger.clone();
        for name in disk::names(dir)? {
            room.next_sequence = room.next_sequence.max(disk::sequence(&name).map_or(0, |n| n.saturating_add(1)));
            room.restore_one(name);
        }
        room.record_entries();
        if room.ledger != loaded {
            room.ledger.save(dir)?;
        }
        Ok(room)
    }

    /// Lists (and where shown, reads) the file `name` of the room's folder.
    fn restore_one(&mut self, name: String) {
        let path = self.dir.join(&name);
        let arrived = fs::metadata(&path).and_then(|meta| meta.modified()).unwrap_or(UNIX_EPOCH);
        let bytes = size_of(&path);
        let listed = match self.ledger.kept(&name) {
            Some(pack) if pack.status == KeptStatus::Superseded => Some((pack.label.clone(), Status::Superseded)),
            Some(pack) if pack.status == KeptStatus::Removed => Some((pack.label.clone(), Status::Removed)),
            Some(_) => None,
            // Removed before packs were recorded: read only for its label.
            None if self.ledger.removed.contains(&name) => {
                Some((Run::load(&path).map_or_else(|_| name.clone(), |run| run.label), Status::Removed))
            }
            None => None,
        };
        if let Some((label, status)) = listed {
            self.entries.push(Entry { label, file: name, arrived, status, bytes });
            return;
        }
        let read = if disk::is_link(&path) {
            Err(format!(
                "{name} is a symbolic link: a room reads only the packs and run folders in its own folder, not links \
                 that could lead anywhere"
            ))
        } else if disk::is_pack(&name) || path.is_dir() {
            self.has_room_for(None, bytes)
                .and_then(|()| Run::load(&path).map_err(|error| self.shorten(&error.to_string())))
        } else {
            Err(format!("{name} is not a run: a room keeps packs (*.contention-pack) and run folders"))
        };
        match read.and_then(|run| self.seated(run)) {
            Ok(run) => self.add(name, run, arrived, bytes),
            Err(why) => self.entries.push(Entry {
                label: name.clone(),
                file: name,
                arrived,
                status: Status::Skipped(why),
                bytes,
            }),
        }
    }

    /// Records every listed run's status in the ledger (skipped files are not recorded: a
    /// restart tries them again).
    fn record_entries(&mut self) {
        for entry in &self.entries {
            if let Some(status) = entry.kept_status() {
                self.ledger.record(&entry.file, &entry.label, entry.bytes, status);
            }
        }
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

    /// Removes the shown run labelled `label` (its pack stays on disk, listed as removed,
    /// until the teacher purges it).
    pub fn remove(&mut self, label: &str) -> Result<(), NotKept> {
        let Some(index) = self.entries.iter().position(|entry| entry.is_shown() && entry.label == label) else {
            return Err(NotKept::Refused(format!("no run of the room is shown as {label:?} (GET /runs lists them)")));
        };
        let Entry { file, label, bytes, .. } = self.entries[index].clone();
        self.change_ledger(|ledger| {
            ledger.record(&file, &label, bytes, KeptStatus::Removed);
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

    /// Keeps the staged upload, read as `run`, under a name of the server's, recorded in the
    /// ledger (the seat's shown run, if any, as superseded), and returns the label it is
    /// shown under.
    pub fn keep(&mut self, staged: &Path, run: Run, bytes: u64) -> Result<String, NotKept> {
        let run = self.seated(run).map_err(NotKept::Refused)?;
        self.has_room_for(Some(&run.label), bytes).map_err(NotKept::Full)?;
        let sequence = self.next_sequence;
        let label = run.label.clone();
        let name = disk::file_name(sequence, &label);
        let mut ledger = self.ledger.clone();
        if let Some(old) = self.shown(&label) {
            ledger.record(&old.file, &old.label, old.bytes, KeptStatus::Superseded);
        }
        ledger.record(&name, &label, bytes, KeptStatus::Shown);
        disk::keep(staged, &self.dir, &name).map_err(NotKept::Failed)?;
        if let Err(error) = ledger.save(&self.dir) {
            // Unrecorded, the pack would be read as shown at the next start: it goes.
            let _ = fs::remove_file(self.dir.join(&name));
            return Err(NotKept::Failed(error));
        }
        self.ledger = ledger;
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

mod seating;

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/run-fixture");

    #[test]
    fn a_full_room_and_a_seat_past_its_share_say_why_they_take_no_more() {
        let dir = std::env::temp_dir().join(format!("contention-room-full-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut room = Room::restore(&dir, Space { room: 100, seat: 60 }, None).unwrap();
        let mut run = Run::load(FIXTURE).unwrap();
        run.label = "a".into();
        room.add("0".into(), run.clone(), UNIX_EPOCH, 50);
        assert!(room.has_room_for(Some("b"), 50).is_ok());
        assert!(room.has_room_for(Some("b"), 51).unwrap_err().starts_with("the room is full: it holds 50 B"));
        let refused = room.has_room_for(Some("a"), 11).unwrap_err();
        assert!(refused.starts_with("a has sent 50 B of packs"), "{refused}");
        room.runs = std::iter::repeat_with(|| Arc::new(run.clone())).take(MAX_RUNS).collect();
        assert_eq!(room.has_room_for(None, 0).unwrap_err(), "the room is full: it holds 500 runs, the most it takes");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_seats_new_run_supersedes_its_old_one_and_a_removal_is_kept() {
        let dir = std::env::temp_dir().join(format!("contention-room-labels-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut room = Room::restore(&dir, Space::default(), None).unwrap();
        for (number, label) in ["vm", "other", "vm"].into_iter().enumerate() {
            let mut run = Run::load(FIXTURE).unwrap();
            run.label = label.into();
            room.add(format!("{number}"), run, UNIX_EPOCH, 1);
        }
        let listed: Vec<(&str, &str)> = room.entries().iter().map(|e| (e.label.as_str(), e.status_word())).collect();
        assert_eq!(listed, [("vm", "superseded"), ("other", "shown"), ("vm", "shown")]);
        let shown: Vec<&str> = room.seats().iter().map(Seat::label).collect();
        assert_eq!(shown, ["other", "vm"]);
        assert_eq!((room.runs().len(), room.used().all, room.used().purgeable), (2, 3, 1));
        room.remove("other").unwrap();
        assert_eq!(room.entries()[1].status, Status::Removed);
        assert_eq!(room.ledger().kept("1").unwrap().status, KeptStatus::Removed, "the removal is kept in the ledger");
        assert!(matches!(room.remove("other"), Err(NotKept::Refused(_))), "a removed run cannot be removed again");
        // One step per change since the restore's 1: three arrivals, the run they superseded,
        // the ledger's removal and the run it hid.
        assert_eq!(room.version(), 7);
        fs::remove_dir_all(&dir).unwrap();
    }
}
