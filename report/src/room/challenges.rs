//! `POST /challenges?code=CODE`: a seat's checked fix of a challenge, the body one
//! [`ChallengeResult`] as JSON (what `contention challenge NAME --send` posts). It is checked
//! as a guess is (the code, the address, the rate; the seat a label; every field within what a
//! check can send) and kept in the room's ledger, the latest per seat and challenge, before it
//! is answered; the projector's challenge board shows it. A seat the roster does not name is
//! kept and shown, marked, as its runs are.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use contention::challenge::{Challenge, ChallengeResult};

use super::actions::{answer, not_kept};
use super::app::App;
use super::keys::{authorize, Secrets};
use super::ledger::{check_challenge, Ledger};
use super::reply::refuse;

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
    let line = format!("kept {}'s fix of {}", result.seat, result.challenge);
    // The class code (a seat's own fix) or the teacher key (a demonstration) sends one.
    let done = authorize(&app, client, &headers, &secrets).and_then(|_role| {
        let mut room = app.room.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        room.change_ledger(|ledger| ledger.keep_challenge(result)).map_err(not_kept)
    });
    answer(done, client, "a challenge result", &line)
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
