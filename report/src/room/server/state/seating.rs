//! The room's seats and space: which seat a run or a guess comes from (the roster's name
//! for it, or a look-alike refused), the bytes each seat sent against its share, and the
//! teacher's purge of what no page shows.

use std::fs;

use contention::present::room::seat_name::normalised;
use contention::runs::Run;

use super::super::disk;
use super::super::space::{Space, Used};
use super::{Entry, NotKept, Room, Status, MAX_RUNS};

impl Room {
    /// `run` labelled as its seat: the roster's name for it however it was typed, else its
    /// label without spaces around it, in Unicode's compatibility form; `Err` when the label
    /// only looks like a roster seat.
    pub(super) fn seated(&self, mut run: Run) -> Result<Run, String> {
        run.label = self.seat_of(&run.label)?;
        Ok(run)
    }

    /// The seat `label` names: the roster's name for it however it was typed, else `label`
    /// normalised; `Err` when it only looks like a roster seat.
    pub fn seat_of(&self, label: &str) -> Result<String, String> {
        let on_roster = self.roster.as_ref().map(|roster| roster.seat_for(label)).transpose()?.flatten();
        Ok(on_roster.map_or_else(|| normalised(label), String::from))
    }

    /// The seat a guess labelled `seat` comes from: with a roster, one of its seats; without
    /// one, any seat a run could be labelled (its first guess claims it, as a first send
    /// would, and the room holds a bounded number of seats' tokens). `Err` says why not.
    pub fn guessing_seat(&self, seat: &str) -> Result<String, String> {
        let found = self.seat_of(seat)?;
        match &self.roster {
            Some(roster) if !roster.seats().contains(&found) => {
                Err(format!("{found:?} is not on the roster: a guess comes from one of the class's seats (--seats)"))
            }
            Some(_) => Ok(found),
            None => contention::runs::check_label(&found)
                .map(|()| found)
                .map_err(|error| error.to_string().replacen("label", "seat", 1)),
        }
    }

    /// The room's cap and each seat's share.
    pub fn space(&self) -> Space {
        self.space
    }

    /// The bytes of the room's folder, and of its superseded and removed packs.
    pub fn used(&self) -> Used {
        let purgeable = |entry: &&Entry| matches!(entry.status, Status::Superseded | Status::Removed);
        Used {
            all: self.entries.iter().map(|entry| entry.bytes).sum(),
            purgeable: self.entries.iter().filter(purgeable).map(|entry| entry.bytes).sum(),
        }
    }

    /// The bytes of every pack the seat `label` sent, shown, superseded or removed.
    pub(super) fn sent_by(&self, label: &str) -> u64 {
        let sent = self.entries.iter().filter(|entry| entry.label == label && entry.kept_status().is_some());
        sent.map(|entry| entry.bytes).sum()
    }

    /// `Err` says why the room cannot take `bytes` more of packs, from the seat `label`
    /// where it is known.
    pub fn has_room_for(&self, label: Option<&str>, bytes: u64) -> Result<(), String> {
        if self.runs.len() >= MAX_RUNS {
            return Err(format!("the room is full: it holds {MAX_RUNS} runs, the most it takes"));
        }
        self.space.room_for(self.used(), bytes)?;
        label.map_or(Ok(()), |label| self.space.seat_for(label, self.sent_by(label), bytes))
    }

    /// Deletes the packs of every superseded and removed run from the folder, and forgets
    /// them: how many, and the bytes freed.
    pub fn purge(&mut self) -> Result<(usize, u64), NotKept> {
        let mut purged = Vec::new();
        let mut failed = None;
        for entry in self.entries.iter().filter(|entry| matches!(entry.status, Status::Superseded | Status::Removed)) {
            let path = self.dir.join(&entry.file);
            let deleted =
                if path.is_dir() && !disk::is_link(&path) { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
            match deleted {
                Ok(()) => purged.push((entry.file.clone(), entry.bytes)),
                Err(error) => {
                    failed = Some(anyhow::anyhow!("deleting {}: {error}", path.display()));
                    break;
                }
            }
        }
        let files: Vec<String> = purged.iter().map(|(file, _)| file.clone()).collect();
        let mut ledger = self.ledger.clone();
        ledger.forget(&files);
        // A pack deleted but still recorded is harmless (a restart lists the folder's files).
        ledger.save(&self.dir).map_err(NotKept::Failed)?;
        self.ledger = ledger;
        self.entries.retain(|entry| !files.contains(&entry.file));
        self.version += 1;
        match failed {
            Some(error) => Err(NotKept::Failed(error)),
            None => Ok((purged.len(), purged.iter().map(|(_, bytes)| bytes).sum())),
        }
    }
}
