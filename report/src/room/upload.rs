//! `POST /runs?code=CODE`: one pack in the body, kept when it reads.
//!
//! Checks run cheapest first, and nothing is stored until every one passed: the client's
//! rate (429), the room code (401), the declared size (413), then, holding one of
//! [`UPLOAD_SLOTS`](super::app::UPLOAD_SLOTS), the body itself (413 past `--max-upload`,
//! 408 when it does not arrive within [`BODY_TIMEOUT`]), the lib's pack reader on it (400
//! with the reader's reason), the room's capacity (507). The answer is one line: the label
//! the run is shown under, or `refused: <why>`.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use contention::runs::Run;
use serde::Deserialize;

use super::app::App;
use super::pages::{bytes_text, pack_href};
use super::routes::text;
use super::state::NotKept;
use super::{code, disk, say};

/// How long a client may take to send its pack (16 MiB at 2 Mbit/s takes about a minute).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Debug, Deserialize)]
pub struct CodeQuery {
    code: Option<String>,
}

/// Why an upload was not kept, as its status and one line.
struct Refusal {
    status: StatusCode,
    why: String,
}

fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    Refusal { status, why: why.into() }
}

pub async fn upload(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<CodeQuery>,
    request: Request,
) -> Response {
    match receive(&app, client, query.code, request).await {
        Ok((label, runs)) => {
            let count = if runs == 1 { "1 run".to_string() } else { format!("{runs} runs") };
            say(&format!("{}: stored {label:?} ({count} in the room)", client.ip()));
            let mut response = text(StatusCode::CREATED, &format!("stored as {label} ({count} in the room)"));
            if let Ok(location) = HeaderValue::from_str(&format!("/{}", pack_href(&label))) {
                response.headers_mut().insert(header::LOCATION, location);
            }
            response
        }
        Err(Refusal { status, why }) => {
            say(&format!("{}: refused an upload ({}): {why}", client.ip(), status.as_u16()));
            let mut response = text(status, &format!("refused: {why}"));
            if status == StatusCode::TOO_MANY_REQUESTS {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
            }
            response
        }
    }
}

/// Checks and keeps one upload; the label it is shown under and the room's run count.
async fn receive(
    app: &Arc<App>,
    client: SocketAddr,
    given_code: Option<String>,
    request: Request,
) -> Result<(String, usize), Refusal> {
    admit(app, client, given_code.as_deref())?;
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if let Some(declared) = declared.filter(|&declared| declared > app.max_upload) {
        return Err(too_large(app, &format!("{declared} bytes")));
    }
    let _slot = app
        .upload_slots
        .acquire()
        .await
        .map_err(|_| refuse(StatusCode::SERVICE_UNAVAILABLE, "the room is stopping"))?;
    let body = read_body(app, request).await?;
    let app = app.clone();
    tokio::task::spawn_blocking(move || keep(&app, body))
        .await
        .map_err(|error| refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("reading the upload stopped: {error}")))?
}

/// The client's rate, then the room code.
fn admit(app: &App, client: SocketAddr, given_code: Option<&str>) -> Result<(), Refusal> {
    if let Err(wait) = app.limit.admit(client.ip(), Instant::now()) {
        let why = format!(
            "more than {} uploads a minute from {}: retry in {} s (--max-uploads-per-minute on the server)",
            app.limit.per_minute(),
            client.ip(),
            wait.as_secs().max(1)
        );
        return Err(refuse(StatusCode::TOO_MANY_REQUESTS, why));
    }
    let why = match given_code {
        Some(given) if code::matches(&app.code, given) => return Ok(()),
        Some(_) => "wrong room code: use the code `contention room serve` printed",
        None => {
            "this room takes runs with its code: add ?code=CODE (with --send: --code CODE), the code `contention \
             room serve` printed"
        }
    };
    Err(refuse(StatusCode::UNAUTHORIZED, why))
}

/// The body, whole, within `--max-upload` and [`BODY_TIMEOUT`].
async fn read_body(app: &App, request: Request) -> Result<Bytes, Refusal> {
    let body = match tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(request, &())).await {
        Err(_) => {
            let why = format!("the pack did not arrive within {} s", BODY_TIMEOUT.as_secs());
            return Err(refuse(StatusCode::REQUEST_TIMEOUT, why));
        }
        Ok(Err(rejection)) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(too_large(app, "larger"))
        }
        Ok(Err(rejection)) => return Err(refuse(StatusCode::BAD_REQUEST, rejection.body_text())),
        Ok(Ok(body)) => body,
    };
    if body.is_empty() {
        let why = "the upload is empty: send one pack (written by `contention pack RUN`) as the body";
        return Err(refuse(StatusCode::BAD_REQUEST, why));
    }
    Ok(body)
}

/// 413, saying how large the upload is (`size`) and the room's limit.
fn too_large(app: &App, size: &str) -> Refusal {
    let limit = match bytes_text(app.max_upload) {
        text if text.ends_with(" bytes") => text,
        text => format!("{text} ({} bytes)", app.max_upload),
    };
    let why = format!("the upload is {size}; this room takes packs of at most {limit} (--max-upload on the server)");
    refuse(StatusCode::PAYLOAD_TOO_LARGE, why)
}

/// Stages `body`, reads it with the lib's reader, and keeps it when it reads and the room
/// has room; a refused upload leaves nothing behind.
fn keep(app: &App, body: Bytes) -> Result<(String, usize), Refusal> {
    let bytes = body.len() as u64;
    let (dir, full) = {
        let room = super::pages::read(&app.room);
        (room.dir().to_path_buf(), room.has_room_for(bytes).err())
    };
    if let Some(why) = full {
        return Err(refuse(StatusCode::INSUFFICIENT_STORAGE, why));
    }
    let failed = |error: anyhow::Error| {
        say(&format!("storing an upload failed: {error:#}"));
        refuse(StatusCode::INTERNAL_SERVER_ERROR, "the server could not store the pack; its output says why")
    };
    let staged = disk::stage(&dir, app.staged.fetch_add(1, Ordering::Relaxed), &body).map_err(failed)?;
    drop(body);
    let run = match Run::load(&staged) {
        Ok(run) => run,
        Err(error) => {
            let _ = std::fs::remove_file(&staged);
            return Err(refuse(StatusCode::BAD_REQUEST, as_upload(&error.to_string(), &staged)));
        }
    };
    let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    match room.keep(&staged, run, bytes) {
        Ok(label) => Ok((label, room.runs().len())),
        Err(not_kept) => {
            let _ = std::fs::remove_file(&staged);
            match not_kept {
                NotKept::Full(why) => Err(refuse(StatusCode::INSUFFICIENT_STORAGE, why)),
                NotKept::Failed(error) => Err(failed(error)),
            }
        }
    }
}

/// The reader's message about the staged file, naming it "the upload".
fn as_upload(message: &str, staged: &Path) -> String {
    let staged = staged.display().to_string();
    message.replace(&format!("{staged}/"), "the upload's ").replace(&staged, "the upload")
}
