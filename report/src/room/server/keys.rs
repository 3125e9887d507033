//! Who may do what in the room. Two secrets are printed on start: the class code, which
//! every student holds and which sends a seat's own run and guesses, and the teacher key,
//! the teacher's alone, which does that for any seat and besides removes runs, frees seats,
//! reveals or hides the guesses, opens parts and downloads the class. A request carries
//! `?code=CODE` or `?key=KEY`; each is checked as an upload is (address and page, the
//! client's wrong secrets, the secret, the client's rate), and a wrong one of either counts
//! against the client's minute of wrong codes. A seat's own token ([`super::seats`]) is
//! checked later, once the seat is known.

use std::net::SocketAddr;
use std::time::Instant;

use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;

use super::app::App;
use super::code;
use super::connections::client_of;
use super::limit::GUESSES_PER_MINUTE;
use super::reply::{refuse, Refusal, Role, TOKEN_HEADER};

/// The secrets a request may carry in its query.
#[derive(Debug, Default, Deserialize)]
pub struct Secrets {
    pub code: Option<String>,
    pub key: Option<String>,
}

/// A POST's address and page, then its secret: the class code or the teacher key.
pub fn authorize(app: &App, client: SocketAddr, headers: &HeaderMap, given: &Secrets) -> Result<Role, Refusal> {
    app.addressed.check(headers).map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    let role = identify(app, client, given)?;
    admit_rate(app, client).map(|()| role)
}

/// A POST only the teacher may send: its address and page, then the teacher key.
pub fn authorize_teacher(app: &App, client: SocketAddr, headers: &HeaderMap, key: Option<&str>) -> Result<(), Refusal> {
    app.addressed.check(headers).map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    teacher_only(app, client, key)?;
    admit_rate(app, client)
}

/// A GET only the teacher may send (the class download): the teacher key.
pub fn authorize_teacher_get(app: &App, client: SocketAddr, key: Option<&str>) -> Result<(), Refusal> {
    teacher_only(app, client, key)
}

/// A page's viewer: the teacher where `key` is the teacher key, a student where none is
/// given; a wrong key is refused and counted, as a wrong code is.
pub fn viewer(app: &App, client: SocketAddr, key: Option<&str>) -> Result<Role, Refusal> {
    match key {
        None => Ok(Role::Student),
        Some(_) => teacher_only(app, client, key).map(|()| Role::Teacher),
    }
}

/// The teacher key, or a refusal saying that the class code does not do this.
fn teacher_only(app: &App, client: SocketAddr, key: Option<&str>) -> Result<(), Refusal> {
    check_wrong_count(app, client)?;
    let why = match key {
        Some(given) if code::matches(&app.teacher_key, given) => return Ok(()),
        Some(given) if code::matches(&app.code, given) => {
            "that is the class code: only the teacher key (printed by `contention room serve`, not the class code) \
             does this"
        }
        Some(_) => "wrong teacher key: use the teacher key `contention room serve` printed",
        None => {
            "only the teacher does this: add ?key=KEY, the teacher key `contention room serve` printed (the class \
             code does not do it)"
        }
    };
    Err(wrong(app, client, why))
}

/// The class code or the teacher key, whichever is given.
fn identify(app: &App, client: SocketAddr, given: &Secrets) -> Result<Role, Refusal> {
    check_wrong_count(app, client)?;
    if let Some(key) = given.key.as_deref() {
        return match code::matches(&app.teacher_key, key) {
            true => Ok(Role::Teacher),
            false => Err(wrong(app, client, "wrong teacher key: use the teacher key `contention room serve` printed")),
        };
    }
    let why = match given.code.as_deref() {
        Some(given) if code::matches(&app.code, given) => return Ok(Role::Student),
        Some(_) => "wrong room code: use the class code `contention room serve` printed",
        None => {
            "this room takes runs with its code: add ?code=CODE (with --send: --code CODE), the class code \
             `contention room serve` printed"
        }
    };
    Err(wrong(app, client, why))
}

/// 429 while the client has sent more than [`GUESSES_PER_MINUTE`] wrong secrets this minute.
fn check_wrong_count(app: &App, client: SocketAddr) -> Result<(), Refusal> {
    let (who, now) = (client_of(client.ip()), Instant::now());
    app.limit.guesses_left(who, now).map_err(|wait| {
        let why = format!(
            "more than {GUESSES_PER_MINUTE} wrong room codes a minute from {who}: retry in {} s with the code \
             `contention room serve` printed",
            wait.as_secs().max(1)
        );
        refuse(StatusCode::TOO_MANY_REQUESTS, why).retry_after(wait)
    })
}

/// A wrong secret (or none): counted against the client, 401 with why (403 for the class
/// code where the teacher key is needed: the code is right, the request is not its to send).
fn wrong(app: &App, client: SocketAddr, why: &str) -> Refusal {
    let (who, now) = (client_of(client.ip()), Instant::now());
    if why.starts_with("that is the class code") {
        return refuse(StatusCode::FORBIDDEN, why);
    }
    app.limit.count_guess(who, now);
    refuse(StatusCode::UNAUTHORIZED, why)
}

/// The client's rate of admitted POSTs.
fn admit_rate(app: &App, client: SocketAddr) -> Result<(), Refusal> {
    let (who, now) = (client_of(client.ip()), Instant::now());
    app.limit.admit(who, now).map_err(|wait| {
        let why = format!(
            "more than {} uploads a minute from {who}: retry in {} s (--max-uploads-per-minute on the server)",
            app.limit.per_minute(),
            wait.as_secs().max(1)
        );
        refuse(StatusCode::TOO_MANY_REQUESTS, why).retry_after(wait)
    })
}

/// The seat token a request carries in [`TOKEN_HEADER`], if any.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    headers.get(TOKEN_HEADER).and_then(|value| value.to_str().ok()).map(|token| token.trim().to_string())
}
