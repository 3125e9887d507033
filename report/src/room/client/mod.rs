//! `--send URL`: one HTTP/1.1 POST of a run's pack to a live room (`contention room serve`).
//!
//! Written by hand over `std::net::TcpStream` rather than with a client crate: the room is
//! a plain-HTTP server on the local network (no TLS to speak), the request is one POST
//! with a known length, and the answer is one line, so about a hundred lines replace a
//! dependency and its build time. Only `http://` URLs are taken; the client asks
//! `Expect: 100-continue`, so a refusal (a wrong code, a pack too large) arrives before
//! the pack is sent. One deadline covers connecting, sending and the answer; a 429 or 503
//! (the room busy, or this address's minute spent) is tried again after the room's
//! `Retry-After` (or 1, 2, 4 s), [`MAX_TRIES`] times in all.

use std::io::{BufRead, BufReader, Read, Write};
use std::time::{Duration, Instant};

mod connection;

use connection::{connect, timed_out, Deadlined, CONNECT_TIMEOUT};

use super::server::MIN_BYTES_PER_SECOND;
use crate::url::percent_encode;

/// How long the room has to answer, beyond connecting and the time the pack takes to send
/// at the slowest rate a room takes ([`MIN_BYTES_PER_SECOND`]): one deadline for the whole.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);
/// How long to wait for the server's go-ahead before sending the pack anyway (RFC 9110).
const CONTINUE_WAIT: Duration = Duration::from_secs(3);
/// The most of the server's answer read: it is one line.
const MAX_ANSWER_BYTES: u64 = 64 << 10;
/// Tries in all when the room answers 429 (too many uploads) or 503 (busy).
const MAX_TRIES: u32 = 4;
/// The longest wait between two tries, whatever the room's `Retry-After` says.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(30);

/// A room to send to: `http://HOST[:PORT][/PATH]`, its runs at `PATH/runs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Room {
    pub url: String,
    /// `HOST:PORT` as the Host header carries it.
    authority: String,
    host: String,
    port: u16,
    /// The path runs are posted to, e.g. "/runs".
    path: String,
}

impl Room {
    /// Parses a room's URL; the error says what is wrong with it.
    pub fn parse(url: &str) -> Result<Self, String> {
        const ONLY_HTTP: &str =
            "only http:// URLs are taken (a room serves plain HTTP on the local network), e.g. http://10.0.0.5:8765";
        let rest = url.strip_prefix("http://").ok_or_else(|| ONLY_HTTP.to_string())?;
        let (authority, path) = rest.split_once('/').map_or((rest, ""), |(authority, path)| (authority, path));
        let (host, port) = split_authority(authority)?;
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':');
        if host.is_empty() || !host.chars().all(plain) {
            return Err(format!("'{authority}' is not a host name or address"));
        }
        let path = path.trim_end_matches('/');
        if !path.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.')) {
            return Err(format!("the path '/{path}' holds characters a room's path does not"));
        }
        let path = match path {
            "" => "/runs".to_string(),
            path if path == "runs" || path.ends_with("/runs") => format!("/{path}"),
            path => format!("/{path}/runs"),
        };
        Ok(Self { url: url.to_string(), authority: authority.to_string(), host: host.to_string(), port, path })
    }
}

/// `HOST[:PORT]` or `[V6]:PORT` as the host and the port (80 when not given).
fn split_authority(authority: &str) -> Result<(&str, u16), String> {
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => {
            let (host, after) = bracketed.split_once(']').ok_or_else(|| format!("'{authority}' lacks its ']'"))?;
            (host, after.strip_prefix(':'))
        }
        None => match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    let port = match port {
        Some(port) => port.parse::<u16>().map_err(|_| format!("'{port}' is not a port number"))?,
        None => 80,
    };
    Ok((host, port))
}

/// The server's answer: its status code and its one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub line: String,
    /// Its `Retry-After`, in seconds.
    retry_after: Option<u64>,
    /// The seat token the room handed out (`X-Seat-Token`), on a seat's first send or guess.
    pub token: Option<String>,
}

/// Posts `pack` to `room` with `code`, trying again on a 429 or 503 (each retry told to
/// `on_retry` first); `Err` says why nothing was answered, an `Answer` with a status other
/// than 201 is a refusal with the server's reason.
pub fn post_pack(
    room: &Room,
    secrets: (Option<&str>, Option<&str>),
    pack: &[u8],
    on_retry: &mut dyn FnMut(&str),
) -> Result<Answer, String> {
    let (code, token) = secrets;
    let mut tries = 1;
    loop {
        let query = code.map_or(String::new(), |code| format!("?code={}", percent_encode(code)));
        let answer = post_once(room, &format!("{}{query}", room.path), (pack, token), time_allowed(pack.len()))?;
        if !matches!(answer.status, 429 | 503) || tries >= MAX_TRIES {
            return Ok(answer);
        }
        let backoff = Duration::from_secs(1 << (tries - 1));
        let wait = answer.retry_after.map_or(backoff, Duration::from_secs).clamp(backoff, MAX_RETRY_WAIT);
        on_retry(&format!(
            "the room answered {}: {}; trying again in {} s ({} of {MAX_TRIES})",
            answer.status,
            answer.line,
            wait.as_secs(),
            tries + 1
        ));
        std::thread::sleep(wait);
        tries += 1;
    }
}

/// How long `contention check --room` waits for the room's list of runs, connecting included.
const LIST_TIMEOUT: Duration = Duration::from_secs(15);
/// The most of the list read: 500 runs' entries.
const MAX_LIST_BYTES: u64 = 4 << 20;

/// `GET PATH/runs`: the room's status and the body of its answer (the JSON list of runs),
/// within one deadline; `Err` says why nothing was answered.
pub fn list_runs(room: &Room) -> Result<(u16, String), String> {
    let stream = Deadlined { stream: connect(room)?, deadline: Instant::now() + LIST_TIMEOUT };
    let mut writer = stream.try_clone().map_err(|error| error.to_string())?;
    let head = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: contention/{}\r\nConnection: close\r\n\r\n",
        room.path,
        room.authority,
        env!("CARGO_PKG_VERSION")
    );
    writer.write_all(head.as_bytes()).map_err(|error| format!("asking {} for its runs: {error}", room.url))?;
    let mut reader = BufReader::new(stream);
    let status = read_status(&mut reader).map_err(|error| match timed_out(&error) {
        true => format!("the room accepted the connection but did not answer within {} s", LIST_TIMEOUT.as_secs()),
        false => format!("reading {}'s answer: {error}", room.url),
    })?;
    let mut text = String::new();
    reader
        .take(MAX_LIST_BYTES)
        .read_to_string(&mut text)
        .map_err(|error| format!("reading {}'s list of runs: {error}", room.url))?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    Ok((status, body.to_string()))
}

/// The one deadline for sending `bytes`: connecting, the pack at the slowest rate a room
/// takes, and the answer.
fn time_allowed(bytes: usize) -> Duration {
    CONNECT_TIMEOUT + ANSWER_TIMEOUT + Duration::from_secs_f64(bytes as f64 / MIN_BYTES_PER_SECOND as f64)
}

/// Posts `seat`'s guesses (`effect=figure` pairs joined by `&`) to the room's `/guesses`,
/// once; `Err` says why nothing was answered.
pub fn post_guesses(room: &Room, code: &str, seat: &str, pairs: &str, token: Option<&str>) -> Result<Answer, String> {
    post_as_seat(room, ("guesses", code, Some(seat)), pairs.as_bytes(), token)
}

/// Posts `seat`'s `contention check` verdict line to the room's `/ready`, once; `Err` says
/// why nothing was answered.
pub fn post_ready(room: &Room, code: &str, seat: &str, line: &str, token: Option<&str>) -> Result<Answer, String> {
    post_as_seat(room, ("ready", code, Some(seat)), line.as_bytes(), token)
}

/// Posts a seat's checked fix (a challenge result as JSON) to the room's `/challenges`, once,
/// with the seat's token if this laptop holds one; `Err` says why nothing was answered.
pub fn post_challenge(room: &Room, code: &str, result: &[u8], token: Option<&str>) -> Result<Answer, String> {
    post_as_seat(room, ("challenges", code, None), result, token)
}

/// One POST of `body` to the room's `route` (beside its `/runs`) with the class code and the
/// seat, where the route names it in its query.
fn post_as_seat(
    room: &Room,
    (route, code, seat): (&str, &str, Option<&str>),
    body: &[u8],
    token: Option<&str>,
) -> Result<Answer, String> {
    let base = room.path.strip_suffix("runs").unwrap_or(&room.path);
    let seat = seat.map_or(String::new(), |seat| format!("&seat={}", percent_encode(seat)));
    let target = format!("{base}{route}?code={}{seat}", percent_encode(code));
    post_once(room, &target, (body, token), time_allowed(body.len()))
}

/// One POST of `pack` to `target` (path and query), with the seat's token if one is held,
/// connecting, sending and the answer all `within` one deadline.
fn post_once(room: &Room, target: &str, body: (&[u8], Option<&str>), within: Duration) -> Result<Answer, String> {
    let (pack, token) = body;
    let token = token.filter(|token| token.chars().all(|c| c.is_ascii_alphanumeric()));
    let token_line = token.map_or(String::new(), |token| format!("X-Seat-Token: {token}\r\n"));
    let deadline = Instant::now() + within;
    let silent = || format!("the room accepted the connection but did not answer within {} s", within.as_secs());
    let stream = Deadlined { stream: connect(room)?, deadline };
    let mut writer = stream.try_clone().map_err(|error| error.to_string())?;
    let mut reader = BufReader::new(stream);
    let head = format!(
        "POST {target} HTTP/1.1\r\nHost: {}\r\nUser-Agent: contention/{}\r\nContent-Type: application/octet-stream\r\n\
         Content-Length: {}\r\n{token_line}Expect: 100-continue\r\nConnection: close\r\n\r\n",
        room.authority,
        env!("CARGO_PKG_VERSION"),
        pack.len()
    );
    writer.write_all(head.as_bytes()).map_err(|error| format!("sending to {}: {error}", room.url))?;
    // A short deadline for the go-ahead; no go-ahead in time: a server that ignores Expect.
    reader.get_mut().deadline = deadline.min(Instant::now() + CONTINUE_WAIT);
    let first = read_status(&mut reader);
    reader.get_mut().deadline = deadline;
    match first {
        // 100 Continue: the server wants the pack; skip the interim answer's blank line.
        Ok(100) => {
            let mut blank = String::new();
            reader.read_line(&mut blank).map_err(|error| error.to_string())?;
        }
        Ok(status) => return read_answer(reader, status),
        Err(error) if timed_out(&error) => {}
        Err(error) => return Err(format!("reading {}'s answer: {error}", room.url)),
    }
    let sent = writer.write_all(pack);
    match read_status(&mut reader) {
        Ok(status) => read_answer(reader, status),
        Err(error) => match sent {
            Err(sending) if timed_out(&sending) => {
                Err(format!("the room accepted the connection but did not take the pack within {} s", within.as_secs()))
            }
            Err(sending) => Err(format!("sending the pack to {}: {sending}", room.url)),
            Ok(()) if timed_out(&error) => Err(silent()),
            Ok(()) => Err(format!("reading {}'s answer: {error}", room.url)),
        },
    }
}

/// The status code of the status line `HTTP/1.1 NNN Reason`.
fn read_status(reader: &mut impl BufRead) -> std::io::Result<u16> {
    let mut line = String::new();
    reader.by_ref().take(1024).read_line(&mut line)?;
    let status = line.split(' ').nth(1).and_then(|code| code.parse().ok());
    status.ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not an HTTP answer: {line:?}")))
}

/// The rest of an answer after its status line: its `Retry-After`, the body's first line.
fn read_answer(reader: impl BufRead, status: u16) -> Result<Answer, String> {
    let mut text = String::new();
    reader.take(MAX_ANSWER_BYTES).read_to_string(&mut text).map_err(|error| match timed_out(&error) {
        true => "the room began its answer but did not finish it in time".to_string(),
        false => format!("reading the answer: {error}"),
    })?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let header = |wanted: &str| {
        head.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim().eq_ignore_ascii_case(wanted).then(|| value.trim().to_string())
        })
    };
    let retry_after = header("retry-after").and_then(|value| value.parse().ok());
    let token = header("x-seat-token").filter(|token| !token.is_empty());
    Ok(Answer { status, line: body.lines().next().unwrap_or("").trim().to_string(), retry_after, token })
}

#[cfg(test)]
mod tests {
    use std::net::TcpStream;

    use super::*;

    #[test]
    fn room_urls_name_host_port_and_the_runs_path() {
        let room = Room::parse("http://192.168.1.20:8765").unwrap();
        assert_eq!((room.host.as_str(), room.port, room.path.as_str()), ("192.168.1.20", 8765, "/runs"));
        assert_eq!(Room::parse("http://room.local/").unwrap().port, 80);
        assert_eq!(Room::parse("http://h:1/runs").unwrap().path, "/runs");
        assert_eq!(Room::parse("http://h:1/lab/").unwrap().path, "/lab/runs");
        assert_eq!(Room::parse("http://[::1]:9/").unwrap().host, "::1");
        for bad in ["https://h", "h:1", "http://:1", "http://h:port", "http://h/a b", "http://u@h"] {
            assert!(Room::parse(bad).is_err(), "{bad}");
        }
    }

    /// A server on loopback that accepts, reads the request head, then runs `answer` on the
    /// connection; its address.
    fn fake_room(answer: fn(&mut TcpStream)) -> Room {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut head = [0u8; 1024];
            let _ = stream.read(&mut head);
            answer(&mut stream);
        });
        Room::parse(&format!("http://127.0.0.1:{port}")).unwrap()
    }

    #[test]
    fn one_deadline_covers_a_room_that_answers_a_byte_at_a_time() {
        let room = fake_room(|stream| {
            let _ = stream.write_all(b"HTTP/1.1 201 Created\r\n");
            for byte in b"X-Slow: yes\r\n".iter().cycle().take(200) {
                if stream.write_all(&[*byte]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        });
        let started = Instant::now();
        let error = post_once(&room, "/runs", (b"pack", None), Duration::from_secs(2)).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
        assert_eq!(error, "the room began its answer but did not finish it in time");
    }

    #[test]
    fn a_silent_room_is_named_with_the_time_it_had() {
        let room = fake_room(|stream| {
            let mut sink = Vec::new();
            let _ = stream.read_to_end(&mut sink);
        });
        let error = post_once(&room, "/runs", (b"pack", None), Duration::from_secs(4)).unwrap_err();
        assert_eq!(error, "the room accepted the connection but did not answer within 4 s");
        assert_eq!(time_allowed(0), Duration::from_secs(70));
    }

    #[test]
    fn a_busy_room_is_tried_again_after_its_retry_after() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let room = Room::parse(&format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port())).unwrap();
        std::thread::spawn(move || {
            for status in ["503 Service Unavailable\r\nRetry-After: 1", "201 Created"] {
                let (mut stream, _) = listener.accept().unwrap();
                let mut head = [0u8; 1024];
                let _ = stream.read(&mut head);
                let line = if status.starts_with("503") { "refused: busy" } else { "stored as x (1 run in the room)" };
                let _ = write!(stream, "HTTP/1.1 {status}\r\nConnection: close\r\n\r\n{line}\n");
            }
        });
        let mut notes = Vec::new();
        let answer = post_pack(&room, (None, None), b"pack", &mut |note| notes.push(note.to_string())).unwrap();
        assert_eq!((answer.status, answer.line.as_str()), (201, "stored as x (1 run in the room)"));
        assert_eq!(notes, ["the room answered 503: refused: busy; trying again in 1 s (2 of 4)"]);
    }
}
