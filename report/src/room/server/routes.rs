//! The room's answers to GET: the pages, the list of runs as JSON, a run's pack.

use std::sync::Arc;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use contention::runs::pack::PACK_EXTENSION;
use serde::Serialize;

use super::actions::KeyQuery;
use super::app::App;
use super::keys::{authorize_teacher_get, viewer};
use super::pages::{pack_href, read, Kind};
use super::reply::text;
use super::say;

/// `GET /` (a student's), `GET /?key=KEY` (the teacher's): the live page.
pub async fn live_page(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<KeyQuery>,
) -> Response {
    page(&app, client, query, Kind::Live).await
}

/// `GET /projector`, `GET /projector?key=KEY`: one effect per screen, or the open part's.
pub async fn projector_page(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<KeyQuery>,
) -> Response {
    page(&app, client, query, Kind::Projector).await
}

/// `GET /seats/<label>`: the full report of the seat's shown run.
pub async fn seat_page(State(app): State<Arc<App>>, Path(label): Path<String>) -> Response {
    let Some(run) = read(&app.room).run(&label) else {
        return text(StatusCode::NOT_FOUND, "no seat of the room has that label (GET /runs lists them)");
    };
    let dir = read(&app.room).dir().to_path_buf();
    let rendered = tokio::task::spawn_blocking(move || super::pages::seat_page(&run, &dir)).await;
    match rendered {
        Ok(Ok(html)) => fresh("text/html; charset=utf-8", html.into_bytes()),
        Ok(Err(error)) => {
            say(&format!("rendering a seat's page failed: {error:#}"));
            text(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the seat's page could not be rendered; the server's output says why",
            )
        }
        Err(error) => text(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string()),
    }
}

/// `GET /room.html`, the old address of the room's page: the class page at `/`.
pub async fn old_page() -> Response {
    axum::response::Redirect::permanent("./").into_response()
}

/// `GET /class.tar?key=KEY`: every shown run's pack and the roster, to rebuild the page
/// offline (`report --from class.tar`); the teacher's only.
pub async fn class_tar(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<KeyQuery>,
) -> Response {
    if let Err(refusal) = authorize_teacher_get(&app, client, query.key.as_deref()) {
        return refusal.answer(client, "the class download");
    }
    match app.pages.class_tar(&app.room).await {
        Ok(tar) => {
            let mut response = fresh("application/x-tar", tar);
            let disposition = HeaderValue::from_static("attachment; filename=\"class.tar\"");
            response.headers_mut().insert(header::CONTENT_DISPOSITION, disposition);
            response
        }
        Err(why) => {
            say(&format!("writing the class archive failed: {why}"));
            text(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the class archive could not be written; the server's output says why",
            )
        }
    }
}

async fn page(app: &App, client: SocketAddr, query: KeyQuery, kind: Kind) -> Response {
    let role = match viewer(app, client, query.key.as_deref()) {
        Ok(role) => role,
        Err(refusal) => return refusal.answer(client, "a teacher's page"),
    };
    match app.pages.get(&app.room, kind, role).await {
        Ok(html) => fresh("text/html; charset=utf-8", html.as_bytes().to_vec()),
        Err(error) => {
            say(&format!("rendering the room's page failed: {error:#}"));
            text(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the room's page could not be rendered; the server's output says why",
            )
        }
    }
}

/// The room's runs as `GET /runs` lists them.
#[derive(Debug, Serialize)]
struct Listing {
    /// Changes whenever a run arrives (the page polls it).
    version: u64,
    runs: Vec<Listed>,
}

#[derive(Debug, Serialize)]
struct Listed {
    label: String,
    arrived_utc: String,
    /// "shown", "skipped", "superseded" or "removed".
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    /// Where its pack is downloaded, for a shown run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pack: Option<String>,
}

/// `GET /runs`: every run of the room in arrival order, shown or skipped with why.
pub async fn list(State(app): State<Arc<App>>) -> Response {
    let listing = {
        let room = read(&app.room);
        let runs = room
            .entries()
            .iter()
            .map(|entry| Listed {
                label: entry.label.clone(),
                arrived_utc: contention::machine::utc_timestamp(entry.arrived),
                status: entry.status_word(),
                why: entry.why().map(String::from),
                pack: entry.is_shown().then(|| format!("/{}", pack_href(&entry.label))),
            })
            .collect();
        Listing { version: room.version(), runs }
    };
    match serde_json::to_vec_pretty(&listing) {
        Ok(json) => fresh("application/json", json),
        Err(error) => text(StatusCode::INTERNAL_SERVER_ERROR, &format!("encoding the list: {error}")),
    }
}

/// `GET /runs/<label>.contention-pack`: the pack of the shown run labelled so. The label
/// only finds the run among the room's; the file read is the one the server named.
pub async fn pack(State(app): State<Arc<App>>, Path(file): Path<String>) -> Response {
    let found = file.strip_suffix(&format!(".{PACK_EXTENSION}")).and_then(|label| {
        let room = read(&app.room);
        room.shown(label).map(|entry| (room.dir().join(&entry.file), super::disk::download_name(&entry.label)))
    });
    let Some((path, download)) = found else {
        return text(StatusCode::NOT_FOUND, "no run of the room has that label (GET /runs lists them)");
    };
    let loaded = tokio::task::spawn_blocking(move || super::disk::pack_bytes(&path)).await;
    match loaded {
        Ok(Ok(bytes)) => {
            let mut response = fresh("application/octet-stream", bytes);
            let disposition = format!("attachment; filename=\"{download}\"");
            if let Ok(value) = HeaderValue::from_str(&disposition) {
                response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
            }
            response
        }
        Ok(Err(why)) => {
            say(&format!("serving a pack failed: {why}"));
            text(StatusCode::INTERNAL_SERVER_ERROR, "the pack could not be read; the server's output says why")
        }
        Err(error) => text(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string()),
    }
}

/// Any other path.
pub async fn not_found() -> Response {
    text(StatusCode::NOT_FOUND, "no such page: the room serves /, /projector, /seats/<label>, /class.tar, /runs and /runs/<label>.contention-pack")
}

/// What the room's pages may load: their own inline scripts and styles (the templates'),
/// charts as inline SVG or `data:` images, and requests to the room itself; nothing from
/// elsewhere, and no page may frame them.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src \
     'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// A 200 answer of `content_type` that browsers must not cache (the room changes); a page
/// carries the room's [`CONTENT_SECURITY_POLICY`].
fn fresh(content_type: &'static str, body: impl IntoResponse) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    if content_type.starts_with("text/html") {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    }
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}
