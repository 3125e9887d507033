//! What the room's code lets a POST or DELETE change beside sending a run, each checked as
//! an upload is (address and page, wrong codes, the code, the rate; [`authorize`]) and kept
//! in the room's ledger before it is answered:
//!
//! | request | what |
//! | --- | --- |
//! | `DELETE /runs/<label>?code=CODE` | the teacher removes a seat's shown run (its pack stays on disk) |
//! | `POST /reveal?code=CODE&shown=yes` (or `no`) | shows (hides) the guesses on the projector |
//! | `POST /guesses?code=CODE&seat=SEAT` | the body: `effect=figure` pairs (`false-sharing=3 padded=2`) |
//! | `DELETE /guesses?code=CODE` (`&seat=SEAT`: one seat's) | the teacher clears the guesses |
//! | `POST /purge?code=CODE` | the teacher deletes the superseded and removed packs, freeing their space |
//!
//! A guess comes from a seat that can exist ([`Room::guessing_seat`]). The teacher's
//! actions (removal, reveal, clearing guesses, purge) pass [`authorize_teacher`], the one place
//! that says who the teacher is.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use super::app::App;
use super::routes::text;
use super::say;
use super::state::{NotKept, Room};
use super::upload::{authorize, refuse, CodeQuery, Refusal};

/// The largest body of guesses read: every effect's pair, with room to spare.
const MAX_GUESS_BYTES: usize = 4096;

/// `DELETE /runs/<label>?code=CODE`: the path names exactly one label.
pub async fn remove(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(file): Path<String>,
    Query(query): Query<CodeQuery>,
    headers: HeaderMap,
) -> Response {
    // The path is the label, whole: `seat-01.contention-pack` is not `seat-01`.
    let label = file;
    let done = as_teacher(&app, client, &headers, query.code.as_deref(), |room| room.remove(&label));
    answer(done, client, "a removal", &format!("removed {label}"))
}

/// `POST /purge?code=CODE`: the superseded and removed packs deleted.
pub async fn purge(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<CodeQuery>,
    headers: HeaderMap,
) -> Response {
    let mut purged = (0, 0);
    let done = as_teacher(&app, client, &headers, query.code.as_deref(), |room| {
        purged = room.purge()?;
        Ok(())
    });
    let (count, bytes) = purged;
    answer(
        done,
        client,
        "a purge",
        &format!("purged {count} superseded or removed runs, {}", contention::format::bytes(bytes)),
    )
}

#[derive(Debug, Deserialize)]
pub struct RevealQuery {
    code: Option<String>,
    shown: Option<String>,
}

/// `POST /reveal?code=CODE&shown=yes|no`.
pub async fn reveal(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<RevealQuery>,
    headers: HeaderMap,
) -> Response {
    let shown = match query.shown.as_deref() {
        Some("yes") | None => true,
        Some("no") => false,
        Some(other) => {
            return refuse(StatusCode::BAD_REQUEST, format!("invalid shown = {other:?}: yes or no"))
                .answer(client, "a reveal")
        }
    };
    let done = as_teacher(&app, client, &headers, query.code.as_deref(), |room| {
        room.change_ledger(|ledger| {
            ledger.revealed = shown;
            Ok(())
        })
    });
    answer(done, client, "a reveal", if shown { "the guesses are shown" } else { "the guesses are hidden" })
}

#[derive(Debug, Deserialize)]
pub struct GuessQuery {
    code: Option<String>,
    seat: Option<String>,
}

/// `POST /guesses?code=CODE&seat=SEAT`, the body `effect=figure` pairs.
pub async fn guesses(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<GuessQuery>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let Some(seat) = query.seat else {
        return refuse(StatusCode::BAD_REQUEST, "say whose guesses these are: ?seat=SEAT (the seat's run label)")
            .answer(client, "guesses");
    };
    let pairs = match to_bytes(body, MAX_GUESS_BYTES).await {
        Ok(bytes) => parse_guesses(&String::from_utf8_lossy(&bytes)),
        Err(_) => Err(format!("the guesses are longer than {MAX_GUESS_BYTES} bytes")),
    };
    let pairs = match pairs {
        Ok(pairs) => pairs,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, why).answer(client, "guesses"),
    };
    let count = pairs.len();
    let mut seated = seat.clone();
    let done = change(&app, client, &headers, query.code.as_deref(), |room| {
        seated = room.guessing_seat(&seat).map_err(NotKept::Refused)?;
        room.change_ledger(|ledger| pairs.iter().try_for_each(|(effect, value)| ledger.guess(&seated, effect, *value)))
    });
    answer(done, client, "guesses", &format!("kept {count} guesses of {seated}"))
}

/// `DELETE /guesses?code=CODE` (every seat's) or `&seat=SEAT` (one seat's): the teacher
/// clears guesses.
pub async fn clear_guesses(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<GuessQuery>,
    headers: HeaderMap,
) -> Response {
    let mut cleared = 0;
    let done = as_teacher(&app, client, &headers, query.code.as_deref(), |room| {
        room.change_ledger(|ledger| {
            let before = ledger.guesses.len();
            ledger.guesses.retain(|guess| query.seat.as_ref().is_some_and(|seat| *seat != guess.seat));
            cleared = before - ledger.guesses.len();
            Ok(())
        })
    });
    answer(done, client, "clearing guesses", &format!("cleared {cleared} guesses"))
}

/// `effect=figure` pairs separated by spaces, `&` or new lines; at least one.
pub fn parse_guesses(text: &str) -> Result<Vec<(String, f64)>, String> {
    let pairs: Vec<&str> = text.split([' ', '&', '\n', '\r']).filter(|pair| !pair.is_empty()).collect();
    if pairs.is_empty() {
        return Err("no guess given: send effect=figure pairs, e.g. false-sharing=3".into());
    }
    pairs
        .into_iter()
        .map(|pair| {
            let (effect, figure) = pair
                .split_once('=')
                .ok_or_else(|| format!("invalid guess = {pair:?}: effect=figure, e.g. false-sharing=3"))?;
            let value = figure.parse::<f64>().map_err(|_| format!("invalid guess = {figure:?}: a positive number"))?;
            Ok((effect.to_string(), value))
        })
        .collect()
}

/// Whether the request may act as the teacher: for now, with the room's code.
pub fn authorize_teacher(
    app: &App,
    client: SocketAddr,
    headers: &HeaderMap,
    code: Option<&str>,
) -> Result<(), Refusal> {
    authorize(app, client, headers, code)
}

/// [`authorize_teacher`], then applies `apply` to the room under its lock.
fn as_teacher(
    app: &App,
    client: SocketAddr,
    headers: &HeaderMap,
    code: Option<&str>,
    apply: impl FnOnce(&mut Room) -> Result<(), NotKept>,
) -> Result<(), Refusal> {
    authorize_teacher(app, client, headers, code)?;
    apply_to(app, apply)
}

/// Checks the code, then applies `apply` to the room under its lock.
pub(super) fn change(
    app: &App,
    client: SocketAddr,
    headers: &HeaderMap,
    code: Option<&str>,
    apply: impl FnOnce(&mut Room) -> Result<(), NotKept>,
) -> Result<(), Refusal> {
    authorize(app, client, headers, code)?;
    apply_to(app, apply)
}

/// Applies `apply` to the room under its lock, its refusal as an answer.
fn apply_to(app: &App, apply: impl FnOnce(&mut Room) -> Result<(), NotKept>) -> Result<(), Refusal> {
    let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    apply(&mut room).map_err(|not_kept| match not_kept {
        NotKept::Refused(why) => refuse(StatusCode::BAD_REQUEST, why),
        NotKept::Full(why) => refuse(StatusCode::INSUFFICIENT_STORAGE, why),
        NotKept::Failed(error) => {
            say(&format!("keeping the room's ledger failed: {error:#}"));
            refuse(StatusCode::INTERNAL_SERVER_ERROR, "the server could not keep the change; its output says why")
        }
    })
}

pub(super) fn answer(done: Result<(), Refusal>, client: SocketAddr, what: &str, line: &str) -> Response {
    match done {
        Ok(()) => {
            say(&format!("{}: {line}", client.ip()));
            text(StatusCode::OK, line)
        }
        Err(refusal) => refusal.answer(client, what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_are_effect_figure_pairs() {
        let parsed = parse_guesses("false-sharing=3&padded=2.5\n").unwrap();
        assert_eq!(parsed, [("false-sharing".to_string(), 3.0), ("padded".to_string(), 2.5)]);
        assert_eq!(parse_guesses(" ").unwrap_err(), "no guess given: send effect=figure pairs, e.g. false-sharing=3");
        assert_eq!(
            parse_guesses("padded").unwrap_err(),
            "invalid guess = \"padded\": effect=figure, e.g. false-sharing=3"
        );
        assert_eq!(parse_guesses("padded=lots").unwrap_err(), "invalid guess = \"lots\": a positive number");
    }
}
