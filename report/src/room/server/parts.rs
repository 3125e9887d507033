//! The part the teacher opened and its screen (`POST /parts?key=KEY&part=ID&screen=SCREEN`),
//! kept in the ledger so a restart keeps it. The parts are the lib's
//! ([`contention::present::room::quantities::PARTS`], in the guide's order); opening a
//! part's reveal shows its guesses and locks them.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use contention::present::room::part_screen::Screen;
use contention::present::room::quantities::{part, PARTS};
use serde::Deserialize;

use super::actions::{answer, change};
use super::app::App;
use super::reply::refuse;
use super::seats::OpenPart;

#[derive(Debug, Deserialize)]
pub struct PartQuery {
    key: Option<String>,
    part: Option<String>,
    screen: Option<String>,
}

/// `POST /parts?key=KEY&part=ID&screen=question|runs|reveal` (the screen: question when
/// not given).
pub async fn open(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Query(query): Query<PartQuery>,
    headers: HeaderMap,
) -> Response {
    let ids: Vec<&str> = PARTS.iter().map(|part| part.id).collect();
    let Some(id) = query.part.as_deref().filter(|id| part(id).is_some()) else {
        let given = query.part.as_deref().unwrap_or("");
        let why = format!("invalid part = {given:?}: one of {} (the guide's order)", ids.join(", "));
        return refuse(StatusCode::BAD_REQUEST, why).answer(client, "a part");
    };
    let Some(screen) = Screen::parse(query.screen.as_deref().unwrap_or("question")) else {
        let why = format!("invalid screen = {:?}: question, runs or reveal", query.screen.unwrap_or_default());
        return refuse(StatusCode::BAD_REQUEST, why).answer(client, "a part");
    };
    let done = change(&app, client, &headers, query.key.as_deref(), |room| {
        room.change_ledger(|ledger| {
            let class = &mut ledger.class;
            class.part = Some(OpenPart { id: id.to_string(), screen });
            if screen == Screen::Reveal && !class.revealed_parts.iter().any(|revealed| revealed == id) {
                class.revealed_parts.push(id.to_string());
            }
            Ok(())
        })
    });
    answer(done, client, "a part", &format!("part {id} open on its {} screen", screen.word()))
}
