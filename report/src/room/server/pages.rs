//! The room's pages, rendered from the room's seats (the class page and the projector), and
//! the class archive, each kept until the room changes: a page asked for a thousand times
//! between two uploads is rendered once.
//! One render of a page runs at a time, from a copy of what it shows taken under the room's
//! lock: the lock is never held while a page is drawn. A seat's own page is rendered when
//! asked, from its run (shared, not copied).

use std::sync::{Arc, RwLock};

use anyhow::Result;
use axum::body::Bytes;
use tokio::sync::Mutex;

use super::class_file;
use super::reply::Role;
use super::state::Room;
use contention::present::room::class::Seat;
use contention::present::room::part_screen::{part_screen, PartScreen};
use contention::present::room::quantities;
use contention::present::room::roster::{Roster, RosterStatus};
use contention::runs::Run;

use crate::page::{self};
use crate::room::class_page::{render_class, render_projector, ChallengeInputs, ClassInputs, ProjectorInputs};
use crate::room::live_page::{LiveRun, LiveView};
use crate::url::percent_encode;

/// Which page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `GET /`: the class page, the upload form and the script that brings new runs in.
    Live,
    /// `GET /projector`: one effect per screen.
    Projector,
}

/// A page's last rendering, with the room version it shows.
type CachedPage = Mutex<Option<(u64, Arc<String>)>>;

/// The last rendering of each page, with the room version it shows.
#[derive(Debug)]
pub struct Pages {
    /// `--seats`: the class page names who of it is missing.
    roster: Option<Roster>,
    /// `--max-upload`, as the upload form says it.
    max_upload: u64,
    /// The class page and the projector, each a student's and the teacher's.
    cached: [CachedPage; 4],
    /// The class archive ([`super::class_file`]), shared by the downloads in flight.
    class_tar: Mutex<Option<(u64, Bytes)>>,
}

impl Pages {
    pub fn new(roster: Option<Roster>, max_upload: u64) -> Self {
        Self { roster, max_upload, cached: Default::default(), class_tar: Mutex::default() }
    }

    /// The class archive of the room as it is now; `Err` says why a pack could not be read.
    pub async fn class_tar(&self, room: &Arc<RwLock<Room>>) -> Result<Bytes, String> {
        let mut cached = self.class_tar.lock().await;
        let (version, (roster, runs)) = {
            let room = read(room);
            (room.version(), class_file::contents(&room, self.roster.as_ref()))
        };
        if let Some((_, tar)) = cached.as_ref().filter(|(shown, _)| *shown == version) {
            return Ok(tar.clone());
        }
        let tar = tokio::task::spawn_blocking(move || class_file::archive(roster.as_deref(), &runs))
            .await
            .map_err(|error| error.to_string())??;
        let tar = Bytes::from(tar);
        *cached = Some((version, tar.clone()));
        Ok(tar)
    }

    /// The page `kind` of the room as it is now, as `role` sees it: what it shows is copied
    /// under the room's lock, and drawn after the lock is let go, so no writer waits on a
    /// drawing.
    pub async fn get(&self, room: &Arc<RwLock<Room>>, kind: Kind, role: Role) -> Result<Arc<String>> {
        let mut cached = self.cached[kind as usize * 2 + usize::from(role == Role::Teacher)].lock().await;
        let version = read(room).version();
        if let Some((shown, page)) = cached.as_ref() {
            if *shown == version {
                return Ok(page.clone());
            }
        }
        let snapshot = Snapshot::of(&read(room), (kind, role), self.roster.as_ref(), self.max_upload);
        let version = snapshot.version;
        let page = tokio::task::spawn_blocking(move || snapshot.render()).await??;
        let page = Arc::new(page);
        *cached = Some((version, page.clone()));
        Ok(page)
    }
}

/// The room, for reading; a panic elsewhere does not lock the room for good.
pub fn read(room: &RwLock<Room>) -> std::sync::RwLockReadGuard<'_, Room> {
    room.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What one page shows, copied from the room under its lock (a few KiB per seat).
struct Snapshot {
    kind: Kind,
    version: u64,
    seats: Vec<Seat>,
    guesses: Vec<(String, String, f64)>,
    revealed: bool,
    /// The effects whose part's reveal was opened.
    revealed_effects: Vec<&'static str>,
    /// The open part's screen, for the projector.
    part: Option<PartScreen>,
    teacher: bool,
    roster: Option<RosterStatus>,
    skipped: Vec<String>,
    live: Option<LiveView>,
    /// The seats' checked fixes, for the challenge board (the projector's and the class page's).
    challenges: Vec<contention::challenge::ChallengeResult>,
    /// The roster's seats, which mark the board's seats it does not name.
    roster_seats: Option<Vec<String>>,
}

impl Snapshot {
    fn of(room: &Room, (kind, role): (Kind, Role), roster: Option<&Roster>, max_upload: u64) -> Self {
        let ledger = room.ledger();
        let projector = kind == Kind::Projector;
        let teacher = role == Role::Teacher;
        let revealed_effects = ledger
            .class
            .revealed_parts
            .iter()
            .filter_map(|id| quantities::part(id))
            .flat_map(|part| part.quantities.iter().copied())
            .collect();
        let all: Vec<(String, String, f64)> =
            ledger.guesses.iter().map(|guess| (guess.seat.clone(), guess.effect.clone(), guess.value)).collect();
        let part =
            ledger.class.part.as_ref().filter(|_| projector).and_then(|open| {
                Some(part_screen(quantities::part(&open.id)?, open.screen, &all, room.seats(), roster))
            });
        Self {
            revealed_effects,
            part,
            teacher,
            kind,
            version: room.version(),
            seats: room.seats().to_vec(),
            guesses: match projector {
                true => {
                    ledger.guesses.iter().map(|guess| (guess.seat.clone(), guess.effect.clone(), guess.value)).collect()
                }
                false => Vec::new(),
            },
            revealed: ledger.revealed,
            roster: roster.filter(|_| !projector).map(|roster| {
                let checked: Vec<(String, String)> =
                    ledger.class.readiness.iter().map(|checked| (checked.seat.clone(), checked.line.clone())).collect();
                let mut status = roster.status(room.seats().iter().map(Seat::label));
                status.readiness = roster.readiness(&checked);
                status
            }),
            skipped: if projector { Vec::new() } else { room.skipped() },
            live: (!projector).then(|| live_view(room, max_upload, teacher)),
            challenges: ledger.challenges.clone(),
            roster_seats: roster.map(|roster| roster.seats().to_vec()),
        }
    }

    /// The page, drawn without the room's lock.
    fn render(self) -> Result<String> {
        match self.kind {
            Kind::Projector => render_projector(ProjectorInputs {
                seats: &self.seats,
                guesses: self.guesses,
                revealed: self.revealed,
                revealed_effects: self.revealed_effects,
                part: self.part,
                teacher: self.teacher,
                version: self.version,
                challenges: ChallengeInputs { results: &self.challenges, roster: self.roster_seats.as_deref() },
            }),
            Kind::Live => render_class(ClassInputs {
                seat_hrefs: self.seats.iter().map(|seat| Some(seat_href(seat.label()))).collect(),
                seats: &self.seats,
                roster: self.roster,
                skipped: self.skipped,
                generated_utc: contention::machine::utc_timestamp(std::time::SystemTime::now()),
                live: self.live,
                challenges: ChallengeInputs { results: &self.challenges, roster: self.roster_seats.as_deref() },
            }),
        }
    }
}

/// The page of `run` (a shown run, taken from the room), as `report --from` writes it, with
/// the room's folder `dir` left out of every path it names (a page shows no server path).
pub fn seat_page(run: &Run, dir: &std::path::Path) -> Result<String> {
    let runs = std::slice::from_ref(run);
    let sections = contention::present::sections(runs).map_err(anyhow::Error::from)?;
    let page = page::render(runs, &[], &sections, contention::machine::utc_timestamp(std::time::SystemTime::now()))?;
    let dir = dir.display().to_string();
    Ok(page.replace(&format!("{dir}/"), "").replace(&dir, "the room's folder"))
}

fn live_view(room: &Room, max_upload: u64, teacher: bool) -> LiveView {
    let runs = room
        .entries()
        .iter()
        .map(|entry| LiveRun {
            label: entry.label.clone(),
            arrived_utc: contention::machine::utc_timestamp(entry.arrived),
            status: entry.why().map_or_else(|| entry.status_word().into(), |why| format!("skipped: {why}")),
            href: entry.is_shown().then(|| pack_href(&entry.label)),
        })
        .collect();
    LiveView {
        version: room.version(),
        runs,
        max_upload: contention::format::exact_bytes(max_upload),
        space: room.space().text(room.used()),
        effects: contention::present::room::effects(),
        teacher,
        parts: quantities::PARTS.iter().map(|part| (part.id, part.title)).collect(),
        open_part: room.ledger().class.part.as_ref().map(|open| format!("{} ({})", open.id, open.screen.word())),
    }
}

/// Where the pack of the run labelled `label` is downloaded, relative to the room's page.
pub fn pack_href(label: &str) -> String {
    format!("runs/{}.{}", percent_encode(label), contention::runs::pack::PACK_EXTENSION)
}

/// Where the page of the seat labelled `label` is, relative to the room's page.
pub fn seat_href(label: &str) -> String {
    format!("seats/{}", percent_encode(label))
}
