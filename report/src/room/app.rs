//! What every request of the room shares, and the routes: the only paths the server
//! answers. No path of a request reaches the file system: a pack is found by its label
//! among the room's runs, and served from the name the server gave it.

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, RwLock};

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;
use tokio::sync::Semaphore;

use super::limit::RateLimit;
use super::pages::Pages;
use super::state::Room;
use super::{routes, upload};

/// Uploads read and checked at once; more wait their turn before their body is read, so
/// at most this many packs are in memory beside the room.
pub const UPLOAD_SLOTS: usize = 2;

#[derive(Debug)]
pub struct App {
    pub room: Arc<RwLock<Room>>,
    pub pages: Pages,
    pub limit: RateLimit,
    pub code: String,
    pub max_upload: u64,
    pub upload_slots: Semaphore,
    /// Numbers the staged uploads.
    pub staged: AtomicU64,
}

impl App {
    pub fn new(room: Room, code: String, max_upload: u64, per_minute: u32) -> Self {
        Self {
            room: Arc::new(RwLock::new(room)),
            pages: Pages::default(),
            limit: RateLimit::new(per_minute),
            code,
            max_upload,
            upload_slots: Semaphore::new(UPLOAD_SLOTS),
            staged: AtomicU64::new(1),
        }
    }
}

/// The room's routes, with each request's client address.
pub fn router(app: Arc<App>) -> axum::extract::connect_info::IntoMakeServiceWithConnectInfo<Router, SocketAddr> {
    let body_limit = usize::try_from(app.max_upload).unwrap_or(usize::MAX);
    Router::new()
        .route("/", get(routes::live_page))
        .route("/room.html", get(routes::standalone_page))
        .route("/runs", get(routes::list).post(upload::upload).layer(DefaultBodyLimit::max(body_limit)))
        .route("/runs/{file}", get(routes::pack))
        .fallback(routes::not_found)
        .with_state(app)
        .into_make_service_with_connect_info::<SocketAddr>()
}
