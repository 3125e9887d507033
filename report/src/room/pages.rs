//! The room's pages, rendered from the room's seats (the class page and the projector), and
//! the class archive, each kept until the room changes: a page asked for a thousand times
//! between two uploads is rendered once.
//! One render of a page runs at a time. A seat's own page is rendered when asked.

use std::sync::{Arc, RwLock};

use anyhow::Result;
use axum::body::Bytes;
use tokio::sync::Mutex;

use super::class_file;
use super::keys::Role;
use super::state::Room;
use contention::present::room::class::Seat;
use contention::present::room::part_screen::part_screen;
use contention::present::room::quantities;
use contention::present::room::roster::Roster;

use crate::page::class::{render_class, render_projector, ClassInputs, ProjectorInputs};
use crate::page::live::{LiveRun, LiveView};
use crate::page::{self};
use crate::url::percent_encode;

/// Which page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `GET /`: the class page, the upload form and the script that brings new runs in.
    Live,
    /// `GET /projector`: one effect per screen.
    Projector,
}

/// One page's last rendering and the room version it shows.
type Cached = Mutex<Option<(u64, Arc<String>)>>;

/// The last rendering of each page, for students and for the teacher, with the room
/// version it shows.
#[derive(Debug)]
pub struct Pages {
    /// `--seats`: the class page names who of it is missing.
    roster: Option<Roster>,
    /// `--max-upload`, as the upload form says it.
    max_upload: u64,
    /// The class page and the projector, each a student's and the teacher's.
    cached: [Cached; 4],
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

    /// The page `kind` of the room as it is now, as `role` sees it.
    pub async fn get(&self, room: &Arc<RwLock<Room>>, kind: Kind, role: Role) -> Result<Arc<String>> {
        let mut cached = self.cached[kind as usize * 2 + usize::from(role == Role::Teacher)].lock().await;
        let version = read(room).version();
        if let Some((shown, page)) = cached.as_ref() {
            if *shown == version {
                return Ok(page.clone());
            }
        }
        let (room, roster, max_upload) = (room.clone(), self.roster.clone(), self.max_upload);
        let (version, page) =
            tokio::task::spawn_blocking(move || render(&read(&room), kind, role, roster.as_ref(), max_upload))
                .await??;
        let page = Arc::new(page);
        *cached = Some((version, page.clone()));
        Ok(page)
    }
}

/// The room, for reading; a panic elsewhere does not lock the room for good.
pub fn read(room: &RwLock<Room>) -> std::sync::RwLockReadGuard<'_, Room> {
    room.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The page `kind` of `room` as `role` sees it, and the version it shows.
fn render(room: &Room, kind: Kind, role: Role, roster: Option<&Roster>, max_upload: u64) -> Result<(u64, String)> {
    let generated_utc = contention::machine::utc_timestamp(std::time::SystemTime::now());
    let teacher = role == Role::Teacher;
    let html = match kind {
        Kind::Projector => render_projector(projector_inputs(room, roster, teacher))?,
        Kind::Live => render_class(ClassInputs {
            seats: room.seats(),
            seat_hrefs: room.seats().iter().map(|seat| Some(seat_href(seat.label()))).collect(),
            roster: roster.map(|roster| roster.status(room.seats().iter().map(Seat::label))),
            skipped: room.skipped(),
            generated_utc,
            live: Some(live_view(room, max_upload, teacher)),
        })?,
    };
    Ok((room.version(), html))
}

/// The page of the shown run labelled `label`, as `report --from` writes it for that run.
pub fn seat_page(room: &Room, label: &str) -> Option<Result<String>> {
    let run = room.run(label)?;
    let runs = std::slice::from_ref(run);
    let page = contention::present::sections(runs).map_err(anyhow::Error::from).and_then(|sections| {
        page::render(runs, &[], &sections, contention::machine::utc_timestamp(std::time::SystemTime::now()))
    });
    Some(page)
}

/// The projector's inputs: the slides' seats and guesses, and the open part's screen.
fn projector_inputs<'a>(room: &'a Room, roster: Option<&Roster>, teacher: bool) -> ProjectorInputs<'a> {
    let ledger = room.ledger();
    let guesses: Vec<(String, String, f64)> =
        ledger.guesses.iter().map(|guess| (guess.seat.clone(), guess.effect.clone(), guess.value)).collect();
    let revealed_effects: Vec<&'static str> = ledger
        .class
        .revealed_parts
        .iter()
        .filter_map(|id| quantities::part(id))
        .flat_map(|part| part.quantities.iter().copied())
        .collect();
    let part = ledger.class.part.as_ref().and_then(|open| {
        let part = quantities::part(&open.id)?;
        Some(part_screen(part, open.screen, &guesses, room.seats(), roster))
    });
    ProjectorInputs {
        seats: room.seats(),
        guesses,
        revealed: ledger.revealed,
        revealed_effects,
        part,
        teacher,
        version: room.version(),
    }
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
        max_upload: bytes_text(max_upload),
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

/// "16 MiB", "1500 bytes".
pub fn bytes_text(bytes: u64) -> String {
    match bytes {
        bytes if bytes >= 1 << 20 && bytes % (1 << 20) == 0 => format!("{} MiB", bytes >> 20),
        bytes if bytes >= 1 << 10 && bytes % (1 << 10) == 0 => format!("{} KiB", bytes >> 10),
        bytes => format!("{bytes} bytes"),
    }
}
