//! The live room's server (`contention room serve`): a thin HTTP layer (axum on tokio) over the
//! report's pieces. Uploads go through the lib's pack reader before anything is kept
//! ([`upload`]), are kept whole under a name of the server's ([`disk`]), and the page is the
//! compare page's sections, rendered again when a run arrives ([`pages`]).
//!
//! | route | what |
//! | --- | --- |
//! | `GET /?key=KEY`, `GET /projector?key=KEY` | the teacher's screens: the same with the teacher's controls |
//! | `GET /` | the class page: one sentence per effect across the class, the roster (`--seats`), a row per seat, the forms; it polls `/runs` and brings new runs in |
//! | `POST /runs?code=CODE` | one pack in the body: 201 with the label it is shown under, or 400/401/403/408/413/429/503/507 with why |
//! | `GET /runs` | JSON: each run's label, arrival, and status (shown, or skipped with why) |
//! | `GET /runs/<label>.contention-pack` | a shown run's pack |
//! | `GET /projector` | one effect per screen, for the projector: the seats' bars, the class median, the article's figure |
//! | `GET /seats/<label>` | the seat's full report, as `report --from` writes it |
//! | `GET /class.tar?key=KEY` | the teacher's: every shown run's pack and the roster in one archive; `report --from` rebuilds the class page from it ([`class_file`]) |
//! | `GET /room.html` | the room page's old address: a redirect to `/` (no page of the room draws seats x experiments sections) |
//! | `DELETE /runs/<label>`, `POST /reveal`, `POST /free`, `POST /purge`, `DELETE /guesses` | with the teacher key: remove a run, reveal the guesses, free a seat, delete superseded and removed packs, clear guesses ([`actions`]) |
//! | `POST /guesses` | with the class code and the seat's token: keep a seat's guesses ([`actions`], [`seats`]) |
//! | `POST /parts` | with the teacher key: open a part on one of its three screens ([`parts`]) |
//! | `POST /challenges?code=CODE` | with the code: a seat's checked fix of a challenge (JSON), kept in the ledger and shown on the projector's challenge board ([`challenges`]) |
//!
//! # Memory
//!
//! Bounded by the room, the uploads in flight and the connections, whatever the clients do
//! (the connection limits are in [`serve`] and [`connections`]):
//! - the room: at most [`state::MAX_RUNS`] runs and `--max-room-bytes` of packs
//!   ([`space::DEFAULT_ROOM_BYTES`], 256 MiB; at most [`space::MAX_ROOM_BYTES`]), the shown
//!   ones held as the lib's typed rows (about 2.5 times a pack's size), plus one rendering
//!   of each page: at most about 700 MiB with the defaults, if every pack were shown;
//! - uploads: [`app::RECEIVING_SLOTS`] (16) are received at once, each written to its
//!   staging file as it arrives (hyper's buffer in memory, at most `--max-upload` on disk:
//!   256 MiB of disk with the defaults); [`app::CHECKING_SLOTS`] (2) are then read and
//!   checked at once, each holding its staged file, its files and its rows: about 4 x 16 MiB
//!   with the defaults, 128 MiB for both. Other uploads wait before their body is read;
//! - connections: at most [`connections::MAX_CONNECTIONS`] (fewer under a low file limit),
//!   each reading at most [`serve::MAX_BUFFER_BYTES`] (32 KiB) ahead: 32 MiB;
//! - the class archive (`GET /class.tar`): one, of the room as it is, shared by the
//!   downloads in flight, built a pack at a time; at most the room's packs (128 MiB)
//!   (measured: 200 seats of the fixture's run, 23 MB; the server's peak 81 MiB resident
//!   with it, 57 MiB without);
//! - the rate limiter remembers at most [`limit::MAX_CLIENTS`] addresses in each of its two
//!   tables (about 100 KiB each).
//!
//! Measured (release build, loopback): 40 concurrent uploads of the fixture's pack (40 KiB)
//! and a render peak at about 82 MiB resident (78 MiB before uploads were staged as they
//! arrive); 400 half-sent request heads under `ulimit -n 256` hold 8 to 9 MiB and 80 open
//! files. Measured before that change: ten 14 MB packs kept hold 384 MiB.

mod actions;
mod app;
mod archive;
mod body;
mod challenges;
pub mod class_file;
pub mod code;
mod connections;
mod disk;
mod folder_lock;
mod kept;
mod keys;
mod ledger;
mod limit;
mod origin;
mod pages;
mod parts;
mod readiness;
mod reply;
mod routes;
mod seats;
mod serve;
mod share;
mod space;
mod state;
mod upload;
mod write_timeout;

use std::sync::Arc;

use anyhow::{Context, Result};

pub use body::MIN_BYTES_PER_SECOND;
pub use space::{Space, DEFAULT_ROOM_BYTES, DEFAULT_SEAT_BYTES, MAX_ROOM_BYTES};

use app::App;
use connections::{Connections, Limits};
use state::Room;

/// Where and how the room serves (`room serve`'s flags, checked by the options).
#[derive(Debug)]
pub struct RoomOptions {
    pub bind: std::net::IpAddr,
    pub port: u16,
    pub dir: std::path::PathBuf,
    /// `None`: a random code, drawn on start.
    pub code: Option<String>,
    /// `--teacher-key`; `None`: a random key, drawn on start.
    pub teacher_key: Option<String>,
    pub max_upload: u64,
    pub max_uploads_per_minute: u32,
    /// `--max-room-bytes` and `--max-seat-bytes`.
    pub space: space::Space,
    /// `--seats`: the seats the class expects, if given.
    pub roster: Option<contention::present::room::roster::Roster>,
}

/// How long a stop waits, after the requests in progress, for work running off the
/// runtime's threads (a page being drawn, a pack being read) before the room leaves anyway.
const BLOCKING_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Serves the room until Ctrl-C (or SIGTERM).
pub fn serve(options: &RoomOptions) -> Result<()> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the room's runtime")?;
    let served = runtime.block_on(serve_until_stopped(options));
    // Dropping the runtime would wait for every blocking task, however long it runs.
    runtime.shutdown_timeout(BLOCKING_GRACE);
    served
}

async fn serve_until_stopped(options: &RoomOptions) -> Result<()> {
    let _lock = folder_lock::lock(&options.dir)?;
    let room = Room::restore(&options.dir, options.space, options.roster.clone())?;
    let limits = Limits::from_file_limit(connections::raise_file_limit());
    let listener = tokio::net::TcpListener::bind((options.bind, options.port))
        .await
        .with_context(|| format!("listening on {}:{}", options.bind, options.port))?;
    let address = listener.local_addr().context("reading the room's address")?;
    let code = options.code.clone().unwrap_or_else(code::generate);
    let teacher_key = options.teacher_key.clone().unwrap_or_else(code::teacher_key);
    say(&share::banner(&room, address, (&code, &teacher_key), &limits.text()));
    let addressed = origin::Addressed::new(&share::shared(address));
    let app = Arc::new(App::new(room, (code, teacher_key), options, addressed));
    serve::serve(listener, app, Connections::new(limits), stop_signal()).await?;
    say("room stopped");
    Ok(())
}

/// Ctrl-C, or SIGTERM (a service manager's stop) where the OS has it.
async fn stop_signal() {
    contention::platform::stop_requested().await;
}

/// The room's log: one line per event, on stdout (what the instructor watches).
#[allow(clippy::print_stdout)]
fn say(message: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{message}");
    let _ = stdout.flush();
}
