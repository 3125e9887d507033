//! The room's two pages, rendered from the room's runs by the report's page renderer (the
//! same sections as `report --compare`) and kept until the room changes: a page asked for
//! a thousand times between two uploads is rendered once. One render runs at a time.

use std::sync::{Arc, RwLock};

use anyhow::Result;
use tokio::sync::Mutex;

use super::state::Room;
use crate::page::live::{LiveRun, LiveView};
use crate::page::{self};
use crate::url::percent_encode;

/// Which page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `GET /`: the list of runs, the upload form and the script that brings new runs in.
    Live,
    /// `GET /room.html`: the page as `report --compare` writes it.
    Standalone,
}

/// The last rendering of each page, with the room version it shows.
#[derive(Debug, Default)]
pub struct Pages {
    live: Mutex<Option<(u64, Arc<String>)>>,
    standalone: Mutex<Option<(u64, Arc<String>)>>,
}

impl Pages {
    /// The page `kind` of the room as it is now.
    pub async fn get(&self, room: &Arc<RwLock<Room>>, kind: Kind, max_upload: u64) -> Result<Arc<String>> {
        let mut cached = match kind {
            Kind::Live => self.live.lock().await,
            Kind::Standalone => self.standalone.lock().await,
        };
        let version = read(room).version();
        if let Some((shown, page)) = cached.as_ref() {
            if *shown == version {
                return Ok(page.clone());
            }
        }
        let room = room.clone();
        let (version, page) = tokio::task::spawn_blocking(move || render(&read(&room), kind, max_upload)).await??;
        let page = Arc::new(page);
        *cached = Some((version, page.clone()));
        Ok(page)
    }
}

/// The room, for reading; a panic elsewhere does not lock the room for good.
pub fn read(room: &RwLock<Room>) -> std::sync::RwLockReadGuard<'_, Room> {
    room.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The page `kind` of `room`, and the version it shows.
fn render(room: &Room, kind: Kind, max_upload: u64) -> Result<(u64, String)> {
    let sections = contention::present::sections(room.runs())?;
    let generated_utc = contention::machine::utc_timestamp(std::time::SystemTime::now());
    let skipped = room.skipped();
    let html = match kind {
        Kind::Standalone => page::render(room.runs(), &skipped, &sections, generated_utc)?,
        Kind::Live => page::render_live(room.runs(), &skipped, &sections, generated_utc, live_view(room, max_upload))?,
    };
    Ok((room.version(), html))
}

fn live_view(room: &Room, max_upload: u64) -> LiveView {
    let runs = room
        .entries()
        .iter()
        .map(|entry| LiveRun {
            label: entry.label.clone(),
            arrived_utc: contention::machine::utc_timestamp(entry.arrived),
            status: entry.skipped.as_ref().map_or("shown".into(), |why| format!("skipped: {why}")),
            href: entry.skipped.is_none().then(|| pack_href(&entry.label)),
        })
        .collect();
    LiveView { version: room.version(), runs, max_upload: bytes_text(max_upload) }
}

/// Where the pack of the run labelled `label` is downloaded, relative to the room's page.
pub fn pack_href(label: &str) -> String {
    format!("runs/{}.{}", percent_encode(label), contention::runs::pack::PACK_EXTENSION)
}

/// "16 MiB", "1500 bytes".
pub fn bytes_text(bytes: u64) -> String {
    match bytes {
        bytes if bytes >= 1 << 20 && bytes % (1 << 20) == 0 => format!("{} MiB", bytes >> 20),
        bytes if bytes >= 1 << 10 && bytes % (1 << 10) == 0 => format!("{} KiB", bytes >> 10),
        bytes => format!("{bytes} bytes"),
    }
}
