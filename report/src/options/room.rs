//! `room serve`'s flags, checked, and `--send`'s destination.

use anyhow::Result;
use contention::limits::check_range;
use contention::present::room::roster::{Roster, MAX_SEATS};
use contention::runs::pack::MAX_PACK_BYTES;
use std::io::Read as _;

use super::cli::{PredictArgs, SendArgs, ServeArgs};
use crate::bad_flag::bad_flag;
use crate::room::client;
use crate::room::{code, RoomOptions, Space, MAX_ROOM_BYTES};

/// The smallest `--max-upload`: a pack of one small run is tens of KiB.
const MIN_UPLOAD_BYTES: u64 = 1 << 10;
const MAX_UPLOADS_PER_MINUTE: u32 = 100_000;

impl RoomOptions {
    /// `room serve`'s flags, checked.
    pub fn from_args(args: ServeArgs) -> Result<Self> {
        if let Some(given) = &args.code {
            code::check(given)?;
        }
        if let Some(given) = &args.teacher_key {
            code::check(given).map_err(|error| bad_flag(error.to_string().replacen("code", "teacher-key", 1)))?;
            if args.code.as_deref() == Some(given.as_str()) {
                return Err(bad_flag(format!(
                    "invalid teacher-key = {given}: the class code's; the teacher's key must differ"
                )));
            }
        }
        check_range(
            "max-upload",
            args.max_upload,
            MIN_UPLOAD_BYTES,
            MAX_PACK_BYTES,
            "bytes (the most a pack may hold)",
        )?;
        check_range(
            "max-room-bytes",
            args.max_room_bytes,
            args.max_upload,
            MAX_ROOM_BYTES,
            "bytes (at least --max-upload)",
        )?;
        check_range(
            "max-seat-bytes",
            args.max_seat_bytes,
            args.max_upload,
            args.max_room_bytes,
            "bytes (from --max-upload to --max-room-bytes)",
        )?;
        check_range("max-uploads-per-minute", args.max_uploads_per_minute, 1, MAX_UPLOADS_PER_MINUTE, "uploads")?;
        Ok(Self {
            bind: args.bind,
            port: args.port,
            dir: args.dir,
            code: args.code,
            teacher_key: args.teacher_key,
            max_upload: args.max_upload,
            max_uploads_per_minute: args.max_uploads_per_minute,
            space: Space { room: args.max_room_bytes, seat: args.max_seat_bytes },
            roster: args.seats.as_deref().map(roster).transpose()?,
        })
    }
}

/// The most bytes a file of seat names is read to: 500 names of 64 characters, with room.
const MAX_ROSTER_BYTES: u64 = 1 << 20;

/// `--seats`: a count of numbered seats, or a file of names.
fn roster(given: &str) -> Result<Roster> {
    if let Ok(count) = given.parse::<usize>() {
        return Ok(Roster::numbered(count)?);
    }
    let invalid = |why: String| bad_flag(format!("invalid seats = {given}: {why}"));
    let file = std::fs::File::open(given).map_err(|error| {
        invalid(format!("{error}; a count of seats (1 to {MAX_SEATS}) or a file of seats, one a line (`seat-07: Ana, Ben` names a pair)"))
    })?;
    let mut text = String::new();
    std::io::Read::take(file, MAX_ROSTER_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|error| invalid(format!("{error}; a text file of names, one a line")))?;
    if text.len() as u64 > MAX_ROSTER_BYTES {
        return Err(invalid(format!("the file is larger than {MAX_ROSTER_BYTES} bytes; one name a line")));
    }
    Roster::parse(&text).map_err(invalid)
}

/// Where `--send` posts a pack, and with which code.
#[derive(Debug, Clone)]
pub struct SendTo {
    pub room: client::Room,
    pub code: Option<String>,
}

impl SendTo {
    /// `--send`'s URL checked before anything is measured; `None` without `--send`.
    pub fn from_args(args: &SendArgs) -> Result<Option<Self>> {
        let Some(url) = &args.send else { return Ok(None) };
        let room = client::Room::parse(url).map_err(|why| bad_flag(format!("invalid send = {url}: {why}")))?;
        Ok(Some(Self { room, code: args.code.clone() }))
    }

    /// The command that sends the run at `run` again.
    pub fn retry_command(&self, run: &std::path::Path) -> String {
        let code = self.code.as_ref().map_or(String::new(), |code| format!(" --code {code}"));
        format!("contention pack {} --send {}{code}", run.display(), self.room.url)
    }
}

/// `room predict`: a seat's guesses, checked before anything is sent.
#[derive(Debug, Clone)]
pub struct Prediction {
    pub room: client::Room,
    pub code: String,
    pub seat: String,
    /// (effect id, figure), as given.
    pub guesses: Vec<(String, f64)>,
}

impl Prediction {
    pub fn from_args(args: PredictArgs) -> Result<Self> {
        let room =
            client::Room::parse(&args.send).map_err(|why| bad_flag(format!("invalid send = {}: {why}", args.send)))?;
        code::check(&args.code)?;
        contention::runs::check_label(&args.seat)
            .map_err(|error| bad_flag(error.to_string().replacen("label", "seat", 1)))?;
        let guesses = args.guesses.iter().map(|given| guess(given)).collect::<Result<_>>()?;
        Ok(Self { room, code: args.code, seat: args.seat, guesses })
    }

    /// The guesses as the room's `/guesses` takes them: `effect=figure` pairs.
    pub fn body(&self) -> String {
        self.guesses.iter().map(|(effect, figure)| format!("{effect}={figure}")).collect::<Vec<_>>().join("&")
    }
}

/// One `EFFECT=VALUE`: an effect the room compares and a positive figure.
pub(super) fn guess(given: &str) -> Result<(String, f64)> {
    let effects = contention::present::room::effects();
    let ids: Vec<&str> = effects.iter().map(|effect| effect.id).collect();
    let allowed = || format!("EFFECT=VALUE, EFFECT one of {}", ids.join(", "));
    let (effect, figure) =
        given.split_once('=').ok_or_else(|| bad_flag(format!("invalid guess = {given}: {}", allowed())))?;
    if !ids.contains(&effect) {
        return Err(bad_flag(format!("invalid effect = {effect}: one of {}", ids.join(", "))));
    }
    match figure.parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok((effect.to_string(), value)),
        _ => Err(bad_flag(format!("invalid guess = {given}: a positive number after {effect}=, in the effect's unit"))),
    }
}
