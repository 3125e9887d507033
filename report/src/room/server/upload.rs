//! `POST /runs?code=CODE`: one pack in the body, kept when it reads.
//!
//! Checks run cheapest first, and nothing is kept until every one passed: the address the
//! POST was sent to and the page it came from (403, [`super::origin`]), the client's wrong
//! codes (429), the class code or teacher key (401, [`super::keys`]), the client's rate (429), the declared size (413), the
//! room's capacity (507), then, holding one of its address's
//! [`RECEIVING_SLOTS_PER_CLIENT`] and one of the room's
//! [`RECEIVING_SLOTS`] (503 when either is not free within [`SLOT_WAIT`]), the body itself, staged as it arrives (413 past `--max-upload`,
//! 408 below the minimum rate of [`body`]), then, holding one of [`CHECKING_SLOTS`](super::app::CHECKING_SLOTS), the
//! lib's pack reader on it (400 with the reader's reason), the seat's token (403: the run's
//! label is a seat another laptop holds, [`super::seats`]) and the room's capacity again
//! (507). The answer is one line: the label the run is shown under, or `refused: <why>`;
//! a 429 or 503 says in `Retry-After` when to try again.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use contention::runs::Run;

use super::app::{App, RECEIVING_SLOTS, RECEIVING_SLOTS_PER_CLIENT};
use super::body::{self, NotReceived};
use super::connections::client_of;
use super::keys::{authorize, token_of, Secrets};
use super::pages::pack_href;
use super::reply::{refuse, text_lines, with_token, Refusal, Role, SLOT_WAIT};
use super::state::NotKept;
use super::{disk, say};

pub async fn upload(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(secrets): Query<Secrets>,
    request: Request,
) -> Response {
    match receive(&app, client, &secrets, request).await {
        Ok(Kept { label, runs, token }) => {
            let count = if runs == 1 { "1 run".to_string() } else { format!("{runs} runs") };
            say(&format!("{}: stored {label:?} ({count} in the room)", client.ip()));
            let line = format!("stored as {label} ({count} in the room)");
            let mut response = with_token(text_lines(StatusCode::CREATED, &line, token.as_deref()), token.as_deref());
            if let Ok(location) = HeaderValue::from_str(&format!("/{}", pack_href(&label))) {
                response.headers_mut().insert(header::LOCATION, location);
            }
            response
        }
        Err(refusal) => refusal.answer(client, "an upload"),
    }
}

/// A kept upload: the label it is shown under, the room's run count, and the token its
/// seat was handed if this was the seat's first.
struct Kept {
    label: String,
    runs: usize,
    token: Option<String>,
}

/// Checks and keeps one upload.
async fn receive(app: &Arc<App>, client: SocketAddr, secrets: &Secrets, request: Request) -> Result<Kept, Refusal> {
    let role = authorize(app, client, request.headers(), secrets)?;
    let token = token_of(request.headers());
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if let Some(declared) = declared.filter(|&declared| declared > app.max_upload) {
        return Err(too_large(app, &format!("{declared} bytes")));
    }
    let dir = {
        let room = super::pages::read(&app.room);
        room.has_room_for(None, declared.unwrap_or(0)).map_err(|why| refuse(StatusCode::INSUFFICIENT_STORAGE, why))?;
        room.dir().to_path_buf()
    };
    let who = client_of(client.ip());
    let Some(_client_slot) = app.client_slot(who, SLOT_WAIT).await else {
        let why = format!(
            "{who} is sending {RECEIVING_SLOTS_PER_CLIENT} uploads at once, the most one address may: retry when one \
             has finished (--send retries by itself)"
        );
        return Err(refuse(StatusCode::SERVICE_UNAVAILABLE, why));
    };
    let receiving = match tokio::time::timeout(SLOT_WAIT, app.receiving.acquire()).await {
        Ok(Ok(slot)) => slot,
        Ok(Err(_)) => return Err(refuse(StatusCode::SERVICE_UNAVAILABLE, "the room is stopping")),
        Err(_) => {
            let why = format!(
                "the room is busy receiving {RECEIVING_SLOTS} uploads at once: retry in a few seconds (--send \
                 retries by itself)"
            );
            return Err(refuse(StatusCode::SERVICE_UNAVAILABLE, why));
        }
    };
    let staged = disk::staged_path(&dir, app.staged.fetch_add(1, Ordering::Relaxed));
    let received = stage(app, request.into_body(), &staged).await;
    drop(receiving);
    let bytes = match received {
        Ok(bytes) => bytes,
        Err(refusal) => {
            let _ = std::fs::remove_file(&staged);
            return Err(refusal);
        }
    };
    let _checking =
        app.checking.acquire().await.map_err(|_| refuse(StatusCode::SERVICE_UNAVAILABLE, "the room is stopping"))?;
    let app = app.clone();
    let checked = tokio::task::spawn_blocking({
        let staged = staged.clone();
        move || keep(&app, &staged, bytes, role, token.as_deref())
    })
    .await;
    let kept = checked
        .map_err(|error| refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("reading the upload stopped: {error}")))
        .and_then(|kept| kept);
    if kept.is_err() {
        let _ = std::fs::remove_file(&staged);
    }
    kept
}

/// Writes the body to the staging file `staged`, within `--max-upload` and the minimum rate.
async fn stage(app: &App, body: axum::body::Body, staged: &Path) -> Result<u64, Refusal> {
    let failed = |error: std::io::Error| {
        say(&format!("staging an upload in {} failed: {error}", staged.display()));
        refuse(StatusCode::INTERNAL_SERVER_ERROR, "the server could not store the pack; its output says why")
    };
    let mut file = tokio::fs::OpenOptions::new().write(true).create_new(true).open(staged).await.map_err(failed)?;
    match body::receive(body, app.max_upload, &mut file).await {
        Ok(0) => {
            let why = "the upload is empty: send one pack (written by `contention pack RUN`) as the body";
            Err(refuse(StatusCode::BAD_REQUEST, why))
        }
        Ok(bytes) => Ok(bytes),
        Err(NotReceived::TooSlow { received }) => {
            let why = format!(
                "the pack arrived too slowly: {received} bytes in {} s; a room takes {} s plus 1 s per {} KiB",
                body::allowed(received).as_secs(),
                body::BODY_GRACE.as_secs(),
                body::MIN_BYTES_PER_SECOND >> 10
            );
            Err(refuse(StatusCode::REQUEST_TIMEOUT, why))
        }
        Err(NotReceived::TooLarge) => Err(too_large(app, "larger")),
        Err(NotReceived::Broken(why)) => Err(refuse(StatusCode::BAD_REQUEST, format!("the upload broke off: {why}"))),
        Err(NotReceived::Disk(error)) => Err(failed(error)),
    }
}

/// 413, saying how large the upload is (`size`) and the room's limit.
fn too_large(app: &App, size: &str) -> Refusal {
    let limit = match contention::format::exact_bytes(app.max_upload) {
        text if text.ends_with(" bytes") => text,
        text => format!("{text} ({} bytes)", app.max_upload),
    };
    let why = format!("the upload is {size}; this room takes packs of at most {limit} (--max-upload on the server)");
    refuse(StatusCode::PAYLOAD_TOO_LARGE, why)
}

/// Reads the staged upload with the lib's reader, and keeps it when it reads, its seat is
/// the sender's ([`super::seats`]) and the room has room; the caller removes what is not
/// kept. A seat's first run hands it a token.
fn keep(app: &App, staged: &Path, bytes: u64, role: Role, token: Option<&str>) -> Result<Kept, Refusal> {
    let failed = |error: anyhow::Error| {
        say(&format!("storing an upload failed: {error:#}"));
        refuse(StatusCode::INTERNAL_SERVER_ERROR, "the server could not store the pack; its output says why")
    };
    let run =
        Run::load(staged).map_err(|error| refuse(StatusCode::BAD_REQUEST, as_upload(&error.to_string(), staged)))?;
    let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    let hand_out =
        room.ledger().class.may_act(&run.label, role, token).map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    let label = match room.keep(staged, run, bytes) {
        Ok(label) => label,
        Err(NotKept::Full(why)) => return Err(refuse(StatusCode::INSUFFICIENT_STORAGE, why)),
        Err(NotKept::Refused(why)) => return Err(refuse(StatusCode::BAD_REQUEST, why)),
        Err(NotKept::Failed(error)) => return Err(failed(error)),
    };
    let mut token = None;
    if hand_out {
        // The run is kept either way; a seat left without a token is free for its next send.
        let handed = room.change_ledger(|ledger| ledger.class.hand_out(&label).map(|handed| token = Some(handed)));
        if let Err(not_kept) = handed {
            say(&format!("{label}'s run is kept, but its seat token was not: {:?}", not_kept_text(not_kept)));
        }
    }
    Ok(Kept { label, runs: room.runs().len(), token })
}

fn not_kept_text(not_kept: NotKept) -> String {
    match not_kept {
        NotKept::Full(why) | NotKept::Refused(why) => why,
        NotKept::Failed(error) => format!("{error:#}"),
    }
}

/// The reader's message about the staged file, naming it "the upload".
fn as_upload(message: &str, staged: &Path) -> String {
    let staged = staged.display().to_string();
    message.replace(&format!("{staged}/"), "the upload's ").replace(&staged, "the upload")
}
