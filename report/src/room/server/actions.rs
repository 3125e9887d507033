//! What a POST or DELETE changes beside sending a run, each checked as an upload is
//! (address and page, wrong secrets, the secret, the rate: [`super::keys`]) and kept in the
//! room's ledger before it is answered. Only the teacher key changes the room; the class
//! code sends a seat's own guesses, with the seat's token once it holds one
//! ([`super::seats`]):
//!
//! | request | what |
//! | --- | --- |
//! | `DELETE /runs/<label>?key=KEY` | the teacher removes a seat's shown run (its pack stays on disk) |
//! | `POST /reveal?key=KEY&shown=yes` (or `no`) | shows (hides) every guess on the projector; the first reveal locks them |
//! | `POST /free?key=KEY&seat=SEAT` | frees a seat: its next send or guess gets a new token |
//! | `POST /guesses?code=CODE&seat=SEAT` | the body: `effect=figure` pairs (`false-sharing=3 padded=2`); the seat's token in `X-Seat-Token` |
//! | `DELETE /guesses?key=KEY` (`&seat=SEAT`: one seat's) | the teacher clears the guesses |
//! | `POST /ready?code=CODE&seat=SEAT` | the body: the seat's `contention check` verdict line ([`super::readiness`]) |
//! | `POST /purge?key=KEY` | the teacher deletes the superseded and removed packs, freeing their space |
//!
//! A guess comes from a seat that can exist ([`Room::guessing_seat`]). The teacher's
//! actions pass [`change`], which takes the teacher key ([`super::keys::authorize_teacher`]).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use super::app::App;
use super::keys::{authorize, authorize_teacher, token_of, Secrets};
use super::reply::{refuse, text, text_lines, with_token, Refusal};
use super::say;
use super::state::{NotKept, Room};

/// The largest body of guesses read: every effect's pair, with room to spare.
const MAX_GUESS_BYTES: usize = 4096;

#[derive(Debug, Deserialize)]
pub struct KeyQuery {
    pub key: Option<String>,
}

/// `DELETE /runs/<label>?key=KEY`.
pub async fn remove(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(file): Path<String>,
    Query(query): Query<KeyQuery>,
    headers: HeaderMap,
) -> Response {
    // The path is the label, whole: `seat-01.contention-pack` is not `seat-01`.
    let label = file;
    let done = change(&app, client, &headers, query.key.as_deref(), |room| room.remove(&label));
    answer(done, client, "a removal", &format!("removed {label}"))
}

/// `POST /purge?key=KEY`: the superseded and removed packs deleted.
pub async fn purge(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<KeyQuery>,
    headers: HeaderMap,
) -> Response {
    let mut purged = (0, 0);
    let done = change(&app, client, &headers, query.key.as_deref(), |room| {
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

/// `DELETE /guesses?key=KEY` (every seat's) or `&seat=SEAT` (one seat's): the teacher
/// clears guesses.
pub async fn clear_guesses(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<SeatQuery>,
    headers: HeaderMap,
) -> Response {
    let mut cleared = 0;
    let done = change(&app, client, &headers, query.key.as_deref(), |room| {
        room.change_ledger(|ledger| {
            let before = ledger.guesses.len();
            ledger.guesses.retain(|guess| query.seat.as_ref().is_some_and(|seat| *seat != guess.seat));
            cleared = before - ledger.guesses.len();
            Ok(())
        })
    });
    answer(done, client, "clearing guesses", &format!("cleared {cleared} guesses"))
}

#[derive(Debug, Deserialize)]
pub struct SeatQuery {
    key: Option<String>,
    seat: Option<String>,
}

/// `POST /free?key=KEY&seat=SEAT`.
pub async fn free(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<SeatQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(seat) = query.seat else {
        return refuse(StatusCode::BAD_REQUEST, "say which seat to free: ?seat=SEAT").answer(client, "a freeing");
    };
    let done = change(&app, client, &headers, query.key.as_deref(), |room| {
        room.change_ledger(|ledger| ledger.class.free(&seat))
    });
    answer(done, client, "a freeing", &format!("freed {seat}: its next send or guess gets a new token"))
}

#[derive(Debug, Deserialize)]
pub struct RevealQuery {
    key: Option<String>,
    shown: Option<String>,
}

/// `POST /reveal?key=KEY&shown=yes|no`.
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
    let done = change(&app, client, &headers, query.key.as_deref(), |room| {
        room.change_ledger(|ledger| {
            ledger.revealed = shown;
            ledger.class.sealed |= shown;
            Ok(())
        })
    });
    answer(done, client, "a reveal", if shown { "the guesses are shown" } else { "the guesses are hidden" })
}

#[derive(Debug, Deserialize)]
pub struct GuessQuery {
    pub code: Option<String>,
    pub key: Option<String>,
    pub seat: Option<String>,
}

/// `POST /guesses?code=CODE&seat=SEAT`, the body `effect=figure` pairs: the seat's own
/// guesses (its token in `X-Seat-Token` once it holds one), or any seat's with `?key=KEY`.
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
    let secrets = Secrets { code: query.code, key: query.key };
    as_seat(&app, (client, &headers), &secrets, "guesses", |room, role, token| {
        let (seat, handed) = keep_guesses(room, &seat, &pairs, role, token)?;
        Ok((format!("kept {} guesses of {seat}", pairs.len()), handed))
    })
}

/// A seat's own change, as the room takes it from the seat's laptop (the class code and its
/// token) or the teacher (the key): `keep` runs under the room's lock with the role and the
/// token, and says what it kept and the token it handed a free seat, which the answer carries.
pub fn as_seat(
    app: &App,
    (client, headers): (SocketAddr, &HeaderMap),
    secrets: &Secrets,
    what: &str,
    keep: impl FnOnce(&mut Room, super::reply::Role, Option<&str>) -> Result<(String, Option<String>), Refusal>,
) -> Response {
    let role = match authorize(app, client, headers, secrets) {
        Ok(role) => role,
        Err(refusal) => return refusal.answer(client, what),
    };
    let token = token_of(headers);
    let kept = {
        let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        keep(&mut room, role, token.as_deref())
    };
    match kept {
        Ok((line, handed)) => {
            say(&format!("{}: {line}", client.ip()));
            with_token(text_lines(StatusCode::OK, &line, handed.as_deref()), handed.as_deref())
        }
        Err(refusal) => refusal.answer(client, what),
    }
}

/// Checks the seat (one that can exist), its token and each guess's lock, then keeps the
/// guesses (and the token handed to a free seat) in one change of the ledger; the seat as
/// the room names it, and the token handed out, if one was.
fn keep_guesses(
    room: &mut Room,
    seat: &str,
    pairs: &[(String, f64)],
    role: super::reply::Role,
    token: Option<&str>,
) -> Result<(String, Option<String>), Refusal> {
    let seat = room.guessing_seat(seat).map_err(|why| refuse(StatusCode::BAD_REQUEST, why))?;
    let seat = seat.as_str();
    let hand_out = room.ledger().class.may_act(seat, role, token).map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    if let Some(why) = pairs.iter().find_map(|(effect, _)| guess_locked(room, seat, effect)) {
        return Err(refuse(StatusCode::CONFLICT, format!("{seat}'s guess is locked: {why}")));
    }
    let mut handed = None;
    let changed = room.change_ledger(|ledger| {
        pairs.iter().try_for_each(|(effect, value)| ledger.guess(seat, effect, *value))?;
        if hand_out {
            handed = Some(ledger.class.hand_out(seat)?);
        }
        Ok(())
    });
    changed.map_err(not_kept)?;
    Ok((seat.to_string(), handed))
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

/// A teacher's change: checks the teacher key (`key`), then applies `apply` to the room
/// under its lock.
pub fn change(
    app: &App,
    client: SocketAddr,
    headers: &HeaderMap,
    key: Option<&str>,
    apply: impl FnOnce(&mut Room) -> Result<(), NotKept>,
) -> Result<(), Refusal> {
    authorize_teacher(app, client, headers, key)?;
    let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    apply(&mut room).map_err(not_kept)
}

/// The refusal for a change the room did not keep.
pub fn not_kept(not_kept: NotKept) -> Refusal {
    match not_kept {
        NotKept::Refused(why) => refuse(StatusCode::BAD_REQUEST, why),
        NotKept::Full(why) => refuse(StatusCode::INSUFFICIENT_STORAGE, why),
        NotKept::Failed(error) => {
            say(&format!("keeping the room's ledger failed: {error:#}"));
            refuse(StatusCode::INTERNAL_SERVER_ERROR, "the server could not keep the change; its output says why")
        }
    }
}

pub fn answer(done: Result<(), Refusal>, client: SocketAddr, what: &str, line: &str) -> Response {
    match done {
        Ok(()) => {
            say(&format!("{}: {line}", client.ip()));
            text(StatusCode::OK, line)
        }
        Err(refusal) => refusal.answer(client, what),
    }
}

/// Why `seat`'s guess of `effect` can no longer change, if it cannot.
pub fn guess_locked(room: &Room, seat: &str, effect: &str) -> Option<String> {
    if room.ledger().class.sealed {
        return Some("the teacher has revealed the guesses: a guess is written before the answer is seen".into());
    }
    if let Some(part) = room.ledger().class.revealed_in(effect) {
        return Some(format!("the teacher has opened the reveal of part {part}: a guess is written before it"));
    }
    let measured = room
        .seats()
        .iter()
        .filter(|shown| shown.label() == seat)
        .any(|shown| shown.effects.effect(effect).is_some_and(|value| value.value.is_some()));
    measured.then(|| format!("{seat}'s run with {effect} has arrived: a guess is written before the measurement"))
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
