//! What the room answers: a line of text, a refusal with its status and why, the seat's
//! token beside an answer, and whom a request came from. A leaf of the room's modules, so
//! the handlers, the keys and the pages all build on it and none of them on each other.

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::say;

/// How long an upload waits for one of the upload slots before it is told to retry.
pub const SLOT_WAIT: Duration = Duration::from_secs(5);

/// Whom the room takes a request from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The class code: a seat's own work.
    Student,
    /// The teacher key: anything.
    Teacher,
}

/// The header a seat's token travels in, both ways.
pub const TOKEN_HEADER: &str = "x-seat-token";

/// Why an upload was not kept, as its status and one line.
pub struct Refusal {
    pub status: StatusCode,
    pub why: String,
    /// When the client may try again (429, 503).
    retry_after: Option<Duration>,
}

pub fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    let retry_after = (status == StatusCode::SERVICE_UNAVAILABLE).then_some(SLOT_WAIT);
    Refusal { status, why: why.into(), retry_after }
}

impl Refusal {
    pub fn retry_after(self, wait: Duration) -> Self {
        Self { retry_after: Some(wait.max(Duration::from_secs(1))), ..self }
    }
}

impl Refusal {
    /// The refusal's answer, logged as refusing `what` from `client`.
    pub fn answer(self, client: SocketAddr, what: &str) -> Response {
        let Refusal { status, why, retry_after } = self;
        say(&format!("{}: refused {what} ({}): {why}", client.ip(), status.as_u16()));
        let mut response = text(status, &format!("refused: {why}"));
        if let Some(wait) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait.as_secs()));
        }
        response
    }
}

/// A plain-text answer of one line.
pub fn text(status: StatusCode, line: &str) -> Response {
    let mut response = (status, format!("{line}\n")).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response.headers_mut().insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// `line`, and where a seat was handed a token, a second line saying so.
pub fn text_lines(status: StatusCode, line: &str, token: Option<&str>) -> Response {
    match token {
        Some(token) => text(
            status,
            &format!("{line}\nseat token: {token} (this laptop keeps it: the seat's later sends and guesses need it)"),
        ),
        None => text(status, line),
    }
}

/// The answer with the seat's new token in its [`TOKEN_HEADER`], if one was handed out.
pub fn with_token(mut response: Response, token: Option<&str>) -> Response {
    if let Some(value) = token.and_then(|token| axum::http::HeaderValue::from_str(token).ok()) {
        response.headers_mut().insert(TOKEN_HEADER, value);
    }
    response
}
