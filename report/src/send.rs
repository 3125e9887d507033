//! `--send URL`: one HTTP/1.1 POST of a run's pack to a live room (`contention room serve`).
//!
//! Written by hand over `std::net::TcpStream` rather than with a client crate: the room is
//! a plain-HTTP server on the local network (no TLS to speak), the request is one POST
//! with a known length, and the answer is one line, so about a hundred lines replace a
//! dependency and its build time. Only `http://` URLs are taken; the client asks
//! `Expect: 100-continue`, so a refusal (a wrong code, a pack too large) arrives before
//! the pack is sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// How long connecting, and then each read or write, may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const IO_TIMEOUT: Duration = Duration::from_secs(60);
/// How long to wait for the server's go-ahead before sending the pack anyway (RFC 9110).
const CONTINUE_WAIT: Duration = Duration::from_secs(3);
/// The most of the server's answer read: it is one line.
const MAX_ANSWER_BYTES: u64 = 64 << 10;

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
}

/// Posts `pack` to `room` with `code`; `Err` says why nothing was answered, an `Answer`
/// with a status other than 201 is a refusal with the server's reason.
pub fn post_pack(room: &Room, code: Option<&str>, pack: &[u8]) -> Result<Answer, String> {
    let mut stream = connect(room)?;
    let query = code.map_or(String::new(), |code| format!("?code={}", percent_encode(code)));
    let head = format!(
        "POST {}{query} HTTP/1.1\r\nHost: {}\r\nUser-Agent: contention/{}\r\nContent-Type: application/octet-stream\r\n\
         Content-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        room.path,
        room.authority,
        env!("CARGO_PKG_VERSION"),
        pack.len()
    );
    stream.write_all(head.as_bytes()).map_err(|error| format!("sending to {}: {error}", room.url))?;
    let mut reader = BufReader::new(stream.try_clone().map_err(|error| error.to_string())?);
    stream.set_read_timeout(Some(CONTINUE_WAIT)).map_err(|error| error.to_string())?;
    match read_status(&mut reader) {
        // 100 Continue: the server wants the pack; skip the interim answer's blank line.
        Ok(100) => {
            let mut blank = String::new();
            reader.read_line(&mut blank).map_err(|error| error.to_string())?;
        }
        Ok(status) => return read_answer(reader, status),
        // No go-ahead in time: a server that ignores Expect; send anyway.
        Err(error)
            if error.kind() == std::io::ErrorKind::WouldBlock || error.kind() == std::io::ErrorKind::TimedOut => {}
        Err(error) => return Err(format!("reading {}'s answer: {error}", room.url)),
    }
    stream.set_read_timeout(Some(IO_TIMEOUT)).map_err(|error| error.to_string())?;
    let sent = stream.write_all(pack);
    match read_status(&mut reader) {
        Ok(status) => read_answer(reader, status),
        Err(error) => match sent {
            Err(sending) => Err(format!("sending the pack to {}: {sending}", room.url)),
            Ok(()) => Err(format!("reading {}'s answer: {error}", room.url)),
        },
    }
}

fn connect(room: &Room) -> Result<TcpStream, String> {
    let addresses = (room.host.as_str(), room.port)
        .to_socket_addrs()
        .map_err(|error| format!("{} cannot be resolved: {error}", room.host))?;
    let mut last = format!("{} has no address", room.host);
    for address in addresses {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => {
                stream.set_write_timeout(Some(IO_TIMEOUT)).map_err(|error| error.to_string())?;
                return Ok(stream);
            }
            Err(error) => {
                last = format!("no room answers at {address}: {error} (is `contention room serve` running there?)")
            }
        }
    }
    Err(last)
}

/// The status code of the status line `HTTP/1.1 NNN Reason`.
fn read_status(reader: &mut impl BufRead) -> std::io::Result<u16> {
    let mut line = String::new();
    reader.by_ref().take(1024).read_line(&mut line)?;
    let status = line.split(' ').nth(1).and_then(|code| code.parse().ok());
    status.ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not an HTTP answer: {line:?}")))
}

/// The rest of an answer after its status line: headers skipped, the body's first line.
fn read_answer(reader: impl BufRead, status: u16) -> Result<Answer, String> {
    let mut text = String::new();
    reader.take(MAX_ANSWER_BYTES).read_to_string(&mut text).map_err(|error| format!("reading the answer: {error}"))?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    Ok(Answer { status, line: body.lines().next().unwrap_or("").trim().to_string() })
}

/// `text` with every byte but `A-Z a-z 0-9 - . _ ~` written `%XX` (RFC 3986's unreserved).
pub fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn codes_are_percent_encoded() {
        assert_eq!(percent_encode("ab-C_9"), "ab-C_9");
        assert_eq!(percent_encode("a b&c=é"), "a%20b%26c%3D%C3%A9");
    }
}
