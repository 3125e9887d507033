//! What every request of the room shares: the room, its pages, its limits and its slots
//! (the routes and the upload read it; the server builds the routes over it).

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, RwLock};

use tokio::sync::Semaphore;

use super::limit::RateLimit;
use super::origin::Addressed;
use super::pages::Pages;
use super::state::Room;

/// Uploads received at once: each is written to its staging file as it arrives, so it holds
/// hyper's buffer in memory (at most 32 KiB) and at most `--max-upload` on disk. More wait
/// their turn (at most the upload's slot wait) before their body is read.
pub const RECEIVING_SLOTS: usize = 16;
/// Received uploads read and checked at once: each holds its staged file, its files and its
/// rows, about four times its size, so at most this many are in memory beside the room.
pub const CHECKING_SLOTS: usize = 2;

#[derive(Debug)]
pub struct App {
    pub room: Arc<RwLock<Room>>,
    pub pages: Pages,
    pub limit: RateLimit,
    /// The addresses POSTs must be sent to.
    pub addressed: Addressed,
    pub code: String,
    pub max_upload: u64,
    pub receiving: Semaphore,
    pub checking: Semaphore,
    /// Numbers the staged uploads.
    pub staged: AtomicU64,
}

impl App {
    pub fn new(room: Room, code: String, max_upload: u64, per_minute: u32, addressed: Addressed) -> Self {
        Self {
            room: Arc::new(RwLock::new(room)),
            pages: Pages::default(),
            limit: RateLimit::new(per_minute),
            addressed,
            code,
            max_upload,
            receiving: Semaphore::new(RECEIVING_SLOTS),
            checking: Semaphore::new(CHECKING_SLOTS),
            staged: AtomicU64::new(1),
        }
    }
}
