//! What the live room adds to the class page (`contention room serve`): the room's runs as
//! they arrived, the forms that send a pack, a seat's guesses and the teacher's reveal, and
//! the script that brings new runs in without a reload. Strings arrive as they are; the
//! template escapes every one.

use serde::Serialize;

/// The live room's part of the class page.
#[derive(Debug, Serialize)]
pub struct LiveView {
    /// The room's state number: the script updates the page when `/runs` says another.
    pub version: u64,
    /// Every run of the room in arrival order, shown or skipped.
    pub runs: Vec<LiveRun>,
    /// The largest upload accepted, in words ("16 MiB").
    pub max_upload: String,
    /// The room's disk use against its cap, in words.
    pub space: String,
    /// The effects a seat may guess, in column order.
    pub effects: Vec<contention::kit::Effect>,
    /// The teacher's screen (the teacher key given): the teacher's controls are shown.
    pub teacher: bool,
    /// The workshop's parts, (id, title), in the guide's order, for the teacher's controls.
    pub parts: Vec<(&'static str, &'static str)>,
    /// The open part and its screen, "sharing (question)".
    pub open_part: Option<String>,
}

/// One run of the room, as its row in the page's list.
#[derive(Debug, Serialize)]
pub struct LiveRun {
    pub label: String,
    pub arrived_utc: String,
    /// "shown", or "skipped: why".
    pub status: String,
    /// Where the pack can be downloaded (`None` for a skipped file).
    pub href: Option<String>,
}
