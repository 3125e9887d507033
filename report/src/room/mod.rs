//! The live room (`contention room serve`): a thin HTTP layer (axum on tokio) over the
//! report's pieces. Uploads go through the lib's pack reader before anything is kept
//! ([`upload`]), are kept whole under a name of the server's ([`disk`]), and the page is the
//! compare page's sections, rendered again when a run arrives ([`pages`]).
//!
//! | route | what |
//! | --- | --- |
//! | `GET /` | the room page: the runs as they arrived, the compare page's sections, an upload form; it polls `/runs` and brings new runs in |
//! | `POST /runs?code=CODE` | one pack in the body: 201 with the label it is shown under, or 400/401/408/413/429/507 with why |
//! | `GET /runs` | JSON: each run's label, arrival, and status (shown, or skipped with why) |
//! | `GET /runs/<label>.contention-pack` | a shown run's pack |
//! | `GET /room.html` | the standalone page, as `report --compare` writes it |
//!
//! # Memory
//!
//! Bounded by the room and the uploads in flight, whatever the clients do:
//! - the room: at most [`state::MAX_RUNS`] runs and [`state::MAX_KEPT_BYTES`] (128 MiB) of
//!   packs, held as the lib's typed rows (about 2.5 times a pack's size), plus one
//!   rendering of each page: at most about 350 MiB;
//! - uploads: [`app::UPLOAD_SLOTS`] (2) are read and checked at once; each holds its body
//!   (up to `--max-upload`, twice while it is gathered), then the staged file, its files and
//!   its rows: about 5 x 16 MiB with the defaults, 160 MiB for both slots. Other uploads
//!   wait before their body is read (hyper buffers at most a few hundred KiB of each);
//! - the rate limiter remembers at most [`limit::MAX_CLIENTS`] addresses (about 100 KiB).
//!
//! Measured (release build, loopback): 40 concurrent uploads of the fixture's pack (40 KiB)
//! peak at about 41 MiB resident; 40 concurrent 15 MB uploads that the reader refuses peak at
//! 192 MiB; ten 14 MB packs kept hold 384 MiB.

mod app;
pub mod code;
mod disk;
mod limit;
mod pages;
mod routes;
mod share;
mod state;
mod upload;

use std::future::IntoFuture;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use app::App;
use state::Room;

/// How long a stop waits for requests in progress (an upload being read) before it leaves.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// Where and how the room serves (`room serve`'s flags, checked by the options).
#[derive(Debug)]
pub struct RoomOptions {
    pub bind: std::net::IpAddr,
    pub port: u16,
    pub dir: std::path::PathBuf,
    /// `None`: a random code, drawn on start.
    pub code: Option<String>,
    pub max_upload: u64,
    pub max_uploads_per_minute: u32,
}

/// Serves the room until Ctrl-C (or SIGTERM).
pub fn serve(options: &RoomOptions) -> Result<()> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the room's runtime")?;
    runtime.block_on(serve_until_stopped(options))
}

async fn serve_until_stopped(options: &RoomOptions) -> Result<()> {
    let room = Room::restore(&options.dir)?;
    let listener = tokio::net::TcpListener::bind((options.bind, options.port))
        .await
        .with_context(|| format!("listening on {}:{}", options.bind, options.port))?;
    let address = listener.local_addr().context("reading the room's address")?;
    let code = options.code.clone().unwrap_or_else(code::generate);
    say(&share::banner(&room, address, &code));
    let app = Arc::new(App::new(room, code, options.max_upload, options.max_uploads_per_minute));
    let stop = Arc::new(tokio::sync::Notify::new());
    let stopping = stop.clone();
    let serving = axum::serve(listener, app::router(app)).with_graceful_shutdown(async move {
        stop_signal().await;
        say("stopping: finishing the requests in progress (the room's runs stay in its folder)");
        stopping.notify_one();
    });
    tokio::select! {
        served = serving.into_future() => served.context("serving the room")?,
        () = async { stop.notified().await; tokio::time::sleep(STOP_GRACE).await } => {
            let seconds = STOP_GRACE.as_secs();
            say(&format!("stopped after {seconds} s with requests still open; an upload not yet kept was dropped"));
        }
    }
    say("room stopped");
    Ok(())
}

/// Ctrl-C, or SIGTERM (a service manager's stop).
async fn stop_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}

/// The room's log: one line per event, on stdout (what the instructor watches).
#[allow(clippy::print_stdout)]
fn say(message: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{message}");
    let _ = stdout.flush();
}
