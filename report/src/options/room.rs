//! `room serve`'s flags, checked, and `--send`'s destination.

use anyhow::Result;
use contention::limits::check_range;
use contention::runs::pack::MAX_PACK_BYTES;

use super::cli::{SendArgs, ServeArgs};
use crate::room::{code, RoomOptions};
use crate::send;
use crate::usage::usage;

/// The smallest `--max-upload`: a pack of one small run is tens of KiB.
const MIN_UPLOAD_BYTES: u64 = 1 << 10;
const MAX_UPLOADS_PER_MINUTE: u32 = 100_000;

impl RoomOptions {
    /// `room serve`'s flags, checked.
    pub fn from_args(args: ServeArgs) -> Result<Self> {
        if let Some(given) = &args.code {
            code::check(given)?;
        }
        check_range(
            "max-upload",
            args.max_upload,
            MIN_UPLOAD_BYTES,
            MAX_PACK_BYTES,
            "bytes (the most a pack may hold)",
        )?;
        check_range("max-uploads-per-minute", args.max_uploads_per_minute, 1, MAX_UPLOADS_PER_MINUTE, "uploads")?;
        Ok(Self {
            bind: args.bind,
            port: args.port,
            dir: args.dir,
            code: args.code,
            max_upload: args.max_upload,
            max_uploads_per_minute: args.max_uploads_per_minute,
        })
    }
}

/// Where `--send` posts a pack, and with which code.
#[derive(Debug, Clone)]
pub struct SendTo {
    pub room: send::Room,
    pub code: Option<String>,
}

impl SendTo {
    /// `--send`'s URL checked before anything is measured; `None` without `--send`.
    pub fn from_args(args: &SendArgs) -> Result<Option<Self>> {
        let Some(url) = &args.send else { return Ok(None) };
        let room = send::Room::parse(url).map_err(|why| usage(format!("invalid send = {url}: {why}")))?;
        Ok(Some(Self { room, code: args.code.clone() }))
    }

    /// The command that sends the run at `run` again.
    pub fn retry_command(&self, run: &std::path::Path) -> String {
        let code = self.code.as_ref().map_or(String::new(), |code| format!(" --code {code}"));
        format!("contention pack {} --send {}{code}", run.display(), self.room.url)
    }
}
