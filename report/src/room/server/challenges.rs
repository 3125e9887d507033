//! `POST /challenges?code=CODE`: a seat's checked fix of a challenge, the body one
//! [`ChallengeResult`] as JSON (what `contention challenge NAME --send` posts). It is checked
//! as a guess is (the code, the address, the rate; the seat a label; every field within what a
//! check can send) and kept in the room's ledger, the latest per seat and challenge, before it
//! is answered; the projector's challenge board shows it. The seat owns its result as it owns
//! its runs and guesses ([`super::seats`]): its first result hands it a token if it holds none,
//! and a result for a seat another laptop holds is refused (the teacher key sends any seat's).
//! The seat is named as a run's is: the roster's name for it, a look-alike refused, and a seat
//! the roster does not name kept and shown, marked.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use contention::challenge::{Challenge, ChallengeResult};

use super::actions::not_kept;
use super::app::App;
use super::keys::{authorize, token_of, Secrets};
use super::ledger::{check_challenge, Ledger};
use super::reply::{refuse, text_lines, with_token, Refusal, Role};
use super::say;
use super::state::Room;

/// The largest body read: a result is a few hundred bytes.
const MAX_RESULT_BYTES: usize = 4096;
/// Seats whose results a room keeps per challenge: as many as the runs a room holds.
const MAX_SEATS_PER_CHALLENGE: usize = 500;

/// `POST /challenges?code=CODE`.
pub async fn send(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(secrets): Query<Secrets>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let result = match to_bytes(body, MAX_RESULT_BYTES).await {
        Ok(bytes) => serde_json::from_slice::<ChallengeResult>(&bytes)
            .map_err(|error| format!("the body is not a challenge result ({error}): send what a check sends")),
        Err(_) => Err(format!("the result is longer than {MAX_RESULT_BYTES} bytes")),
    };
    let result = match result.and_then(|result| check_challenge(&result).map(|()| result)) {
        Ok(result) => result,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, why).answer(client, "a challenge result"),
    };
    // The class code sends a seat's own fix, with its token once it holds one; the teacher key
    // sends any seat's (a demonstration).
    let role = match authorize(&app, client, &headers, &secrets) {
        Ok(role) => role,
        Err(refusal) => return refusal.answer(client, "a challenge result"),
    };
    let token = token_of(&headers);
    let kept = {
        let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        keep_result(&mut room, result, role, token.as_deref())
    };
    match kept {
        Ok((line, handed)) => {
            say(&format!("{}: {line}", client.ip()));
            with_token(text_lines(StatusCode::OK, &line, handed.as_deref()), handed.as_deref())
        }
        Err(refusal) => refusal.answer(client, "a challenge result"),
    }
}

/// Seats `result` as a run is seated (the roster's name for its seat; a look-alike refused),
/// checks the seat's token, then keeps the result (and the token handed to a free seat) in one
/// change of the ledger; the answer's line, and the token handed out, if one was.
fn keep_result(
    room: &mut Room,
    mut result: ChallengeResult,
    role: Role,
    token: Option<&str>,
) -> Result<(String, Option<String>), Refusal> {
    result.seat = room.seat_of(&result.seat).map_err(|why| refuse(StatusCode::BAD_REQUEST, why))?;
    let seat = result.seat.clone();
    let hand_out = room.ledger().class.may_act(&seat, role, token).map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    let line = format!("kept {seat}'s fix of {}", result.challenge);
    let mut handed = None;
    let changed = room.change_ledger(|ledger| {
        ledger.keep_challenge(result)?;
        if hand_out {
            handed = Some(ledger.class.hand_out(&seat)?);
        }
        Ok(())
    });
    changed.map_err(not_kept)?;
    Ok((line, handed))
}

impl Ledger {
    /// Keeps `result` as its seat's fix of its challenge, replacing an earlier one.
    pub fn keep_challenge(&mut self, result: ChallengeResult) -> Result<(), String> {
        check_challenge(&result)?;
        self.challenges.retain(|kept| kept.seat != result.seat || kept.challenge != result.challenge);
        let most = MAX_SEATS_PER_CHALLENGE * Challenge::ALL.len();
        if self.challenges.len() >= most {
            return Err(format!("the room holds {most} challenge results, the most it takes"));
        }
        self.challenges.push(result);
        Ok(())
    }
}
