//! Before the day, each laptop's `contention check --room URL --code CODE --label SEAT`
//! sends its verdict line here, as the seat's own (its token, as a send or guess), so the
//! teacher reads the class's readiness on the roster ([`Roster::readiness`]) and knows that
//! the laptop reached the room over the network it will use. The ledger keeps the line
//! ([`super::seats::Readiness`]).
//!
//! [`Roster::readiness`]: contention::present::room::roster::Roster::readiness

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::actions::{as_seat, not_kept, GuessQuery};
use super::app::App;
use super::keys::Secrets;
use super::reply::{refuse, Refusal, Role};
use super::seats::{check_readiness_line, Readiness, MAX_LINE_CHARS};
use super::state::Room;

/// `POST /ready?code=CODE&seat=SEAT`, the body the check's verdict line: kept as the seat's
/// (its token in `X-Seat-Token` once it holds one), or any seat's with `?key=KEY`.
pub async fn ready(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<GuessQuery>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let Some(seat) = query.seat else {
        return refuse(StatusCode::BAD_REQUEST, "say whose check this is: ?seat=SEAT (the seat's label)")
            .answer(client, "readiness");
    };
    let line = match to_bytes(body, MAX_LINE_CHARS * 4).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => {
            return refuse(StatusCode::BAD_REQUEST, "the verdict is longer than one line").answer(client, "readiness")
        }
    };
    if let Err(why) = check_readiness_line(&line) {
        return refuse(StatusCode::BAD_REQUEST, why).answer(client, "readiness");
    }
    let secrets = Secrets { code: query.code, key: query.key };
    as_seat(&app, (client, &headers), &secrets, "readiness", |room, role, token| {
        let (seat, handed) = keep(room, &seat, line, role, token)?;
        Ok((format!("kept {seat}'s check"), handed))
    })
}

/// Checks the seat and its token, then keeps its line (replacing its last one) and the token
/// handed to a free seat in one change of the ledger.
fn keep(
    room: &mut Room,
    seat: &str,
    line: String,
    role: Role,
    token: Option<&str>,
) -> Result<(String, Option<String>), Refusal> {
    let seat = room.guessing_seat(seat).map_err(|why| refuse(StatusCode::BAD_REQUEST, why))?;
    let hand_out = room.ledger().class.may_act(&seat, role, token).map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    let mut handed = None;
    room.change_ledger(|ledger| {
        let readiness = &mut ledger.class.readiness;
        readiness.retain(|checked| checked.seat != seat);
        readiness.push(Readiness { seat: seat.clone(), line });
        if hand_out {
            handed = Some(ledger.class.hand_out(&seat)?);
        }
        Ok(())
    })
    .map_err(not_kept)?;
    Ok((seat, handed))
}
