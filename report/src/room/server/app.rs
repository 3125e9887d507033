//! What every request of the room shares: the room, its pages, its limits and its slots
//! (the routes and the upload read it; the server builds the routes over it).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};

use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::limit::RateLimit;
use super::origin::Addressed;
use super::pages::Pages;
use super::state::Room;

/// Uploads received at once: each is written to its staging file as it arrives, so it holds
/// hyper's buffer in memory (at most 32 KiB) and at most `--max-upload` on disk. More wait
/// their turn (at most the upload's slot wait) before their body is read. By hand, with
/// [`RECEIVING_SLOTS_PER_CLIENT`]: tower's concurrency limit is one queue for every client,
/// with no share per address and no bound on the wait.
pub const RECEIVING_SLOTS: usize = 16;
/// Receiving slots one client address holds at once. The room's code is the class's, so
/// every seat holds it: without this, one holder sending [`RECEIVING_SLOTS`] uploads at
/// just over the minimum rate would take every slot; with it, others keep three quarters.
/// More uploads from one address wait their turn, as uploads wait for a slot of the room's.
pub const RECEIVING_SLOTS_PER_CLIENT: usize = 4;
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
    /// The class code: a seat's own runs and guesses.
    pub code: String,
    /// The teacher key: anything the room does ([`super::keys`]).
    pub teacher_key: String,
    pub max_upload: u64,
    pub receiving: Semaphore,
    /// Per client address: its receiving slots, and the uploads holding or waiting for one.
    /// An address with none is not listed, so the table is bounded by the connections.
    receiving_by_client: Mutex<HashMap<IpAddr, (Arc<Semaphore>, usize)>>,
    pub checking: Semaphore,
    /// Numbers the staged uploads.
    pub staged: AtomicU64,
}

impl App {
    pub fn new(room: Room, secrets: (String, String), options: &super::RoomOptions, addressed: Addressed) -> Self {
        let (code, teacher_key) = secrets;
        let (max_upload, per_minute) = (options.max_upload, options.max_uploads_per_minute);
        Self {
            room: Arc::new(RwLock::new(room)),
            pages: Pages::new(options.roster.clone(), max_upload),
            limit: RateLimit::new(per_minute),
            addressed,
            code,
            teacher_key,
            max_upload,
            receiving: Semaphore::new(RECEIVING_SLOTS),
            receiving_by_client: Mutex::default(),
            checking: Semaphore::new(CHECKING_SLOTS),
            staged: AtomicU64::new(1),
        }
    }
}

impl App {
    /// One of `client`'s [`RECEIVING_SLOTS_PER_CLIENT`], waited for at most `wait` and held
    /// until the guard is dropped; `None` when its address held them all that long.
    pub async fn client_slot(&self, client: IpAddr, wait: Duration) -> Option<ClientSlot<'_>> {
        let semaphore = {
            let mut clients = self.receiving_by_client.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let (semaphore, users) =
                clients.entry(client).or_insert_with(|| (Arc::new(Semaphore::new(RECEIVING_SLOTS_PER_CLIENT)), 0));
            *users += 1;
            semaphore.clone()
        };
        let mut slot = ClientSlot { app: self, client, permit: None };
        slot.permit = Some(tokio::time::timeout(wait, semaphore.acquire_owned()).await.ok()?.ok()?);
        Some(slot)
    }
}

/// A client's hold on (or wait for) one of its receiving slots.
pub struct ClientSlot<'a> {
    app: &'a App,
    client: IpAddr,
    permit: Option<OwnedSemaphorePermit>,
}

impl Drop for ClientSlot<'_> {
    fn drop(&mut self) {
        drop(self.permit.take());
        let mut clients = self.app.receiving_by_client.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, users)) = clients.get_mut(&self.client) {
            *users = users.saturating_sub(1);
            if *users == 0 {
                clients.remove(&self.client);
            }
        }
    }
}
