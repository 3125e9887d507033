//! The seat tokens this laptop holds: a room hands a seat a token with its first send or
//! guess, and refuses the seat's later ones without it. Every command that sends for a seat
//! (`--send`, `send`, `guess`, `room predict`, `challenge`, `check --code`) keeps each in
//! one small file, `contention/seat-tokens.json` under the user's data folder
//! (`CONTENTION_DATA_DIR` names another folder), keyed by the room's address and the seat,
//! and sends it back. Written whole (write, then rename); a file that does not read is
//! named and replaced, never a reason to stop a send.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::console::{say, warn};

/// Rooms and seats remembered: a laptop's workshops, with room to spare.
const MAX_KEPT: usize = 200;
/// The most of the file read.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The file that keeps the tokens.
pub fn file() -> Result<PathBuf> {
    let folder = match std::env::var_os("CONTENTION_DATA_DIR") {
        Some(folder) => PathBuf::from(folder),
        None => contention::platform::user_data_dir()
            .map_err(|why| anyhow::anyhow!("no data folder to keep the seat's token in: {why}"))?
            .join("contention"),
    };
    Ok(folder.join("seat-tokens.json"))
}

/// The key of `seat` in the room at `url`.
fn key(url: &str, seat: &str) -> String {
    format!("{} {seat}", url.trim_end_matches('/'))
}

fn read_all() -> BTreeMap<String, String> {
    let Ok(path) = file() else { return BTreeMap::new() };
    let Ok(file) = std::fs::File::open(path) else { return BTreeMap::new() };
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_FILE_BYTES), &mut text);
    serde_json::from_str(&text).unwrap_or_default()
}

/// The token this laptop holds for `seat` in the room at `url`, if any.
pub fn kept(url: &str, seat: &str) -> Option<String> {
    read_all().remove(&key(url, seat))
}

/// Keeps `token` for `seat` in the room at `url`; the file it is kept in.
pub fn keep(url: &str, seat: &str, token: &str) -> Result<PathBuf> {
    let path = file()?;
    let mut all = read_all();
    all.insert(key(url, seat), token.to_string());
    while all.len() > MAX_KEPT {
        let first = all.keys().next().cloned().unwrap_or_default();
        all.remove(&first);
    }
    let json = serde_json::to_vec_pretty(&all).context("encoding the seat tokens")?;
    // The data folder of a laptop that never kept a token does not exist yet.
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).with_context(|| format!("creating {}", folder.display()))?;
    }
    crate::write::write_atomic(&path, &json)?;
    Ok(path)
}
/// Keeps the token a room handed `seat`, saying where; a token not kept is named, not fatal
/// (the seat's next send then needs the teacher to free it).
pub fn keep_and_say(url: &str, seat: Option<&str>, token: Option<&str>) {
    let (Some(seat), Some(token)) = (seat, token) else { return };
    match keep(url, seat, token) {
        Ok(path) => say(&format!("{seat}'s seat token is kept in {}: this laptop sends it back", path.display())),
        Err(error) => warn(&format!(
            "{seat}'s seat token ({token}) could not be kept: {error:#}; later sends for {seat} need the teacher to free it"
        )),
    }
}
