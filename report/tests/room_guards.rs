//! What the live room refuses so that strangers and other rooms cannot spoil it: a second
//! server on its folder, links in the folder, look-alike labels, POSTs from other pages or
//! to other hosts, and guessed codes (which cannot lock out a participant). Each test starts
//! its own room; traffic is bounded (a few dozen requests).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::room::{fixture_pack, Server, CODE};
use common::*;

/// Sends `request` as it is: the status and the answer's body.
fn raw(port: u16, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let _ = stream.write_all(request);
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    (status, answer.split_once("\r\n\r\n").map_or(String::new(), |(_, body)| body.to_string()))
}

/// A POST of `body` with the room's code and `headers` (each ending in CRLF).
fn post(port: u16, headers: &str, body: &[u8]) -> (u16, String) {
    let head = format!(
        "POST /runs?code={CODE} HTTP/1.1\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    raw(port, &[head.as_bytes(), body].concat())
}

#[test]
fn a_second_room_on_the_same_folder_refuses_to_start_naming_the_first() {
    let dir = scratch("room-twice").join("room");
    let first = Server::start(&dir, &[]);
    let staged = dir.join(".incoming/99.contention-pack");
    std::fs::write(&staged, "an upload being read").unwrap();
    let started = Instant::now();
    let second = contention(&["room", "serve", "--port", "0", "--dir", dir.to_str().unwrap()]);
    assert!(!second.status.success() && started.elapsed() < Duration::from_secs(10), "{second:?}");
    let expected = format!("another room is serving {} (PID {})", dir.display(), first.pid());
    assert!(stderr(&second).contains(&expected), "{}", stderr(&second));
    assert!(staged.exists(), "the first room's staging folder is left alone");
    assert_eq!(first.upload(&fixture_pack("seat-one")).0, 201, "the first room goes on");
    assert!(first.stop().success());
    let again = Server::start(&dir, &[]);
    assert_eq!(again.runs()["runs"][0]["label"], "seat-one", "a stopped room gives its folder back");
}

#[test]
#[cfg(unix)] // a symbolic link made as Unix makes one
fn a_link_in_the_room_folder_is_skipped_and_named() {
    let scratch_dir = scratch("room-link");
    let dir = scratch_dir.join("room");
    std::fs::create_dir_all(&dir).unwrap();
    let outside = scratch_dir.join("outside.contention-pack");
    std::fs::write(&outside, fixture_pack("seat-outside")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("0001-link.contention-pack")).unwrap();
    let server = Server::start(&dir, &[]);
    let runs = server.runs();
    let link = &runs["runs"][0];
    assert_eq!((link["label"].as_str(), link["status"].as_str()), (Some("0001-link.contention-pack"), Some("skipped")));
    assert!(link["why"].as_str().unwrap().contains("is a symbolic link"), "{link}");
    assert_eq!(server.upload(&fixture_pack("seat-in")).1.lines().next(), Some("stored as seat-in (1 run in the room)"));
}

#[test]
fn labels_are_kept_composed_and_invisible_characters_refused() {
    let server = Server::start(&scratch("room-labels").join("room"), &[]);
    let (status, answer) = server.upload(&fixture_pack("cafe\u{301}"));
    assert_eq!((status, answer.lines().next()), (201, Some("stored as caf\u{e9} (1 run in the room)")));
    let (status, answer) = server.upload(&fixture_pack("caf\u{e9}"));
    // The same seat once composed: its second run replaces the first (kept on disk, superseded).
    assert_eq!((status, answer.lines().next()), (201, Some("stored as caf\u{e9} (1 run in the room)")), "one seat");
    let runs = server.runs();
    let statuses: Vec<&str> =
        runs["runs"].as_array().unwrap().iter().map(|run| run["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["superseded", "shown"]);
    // The label spliced in keeps the pack's byte counts: "se\u{200B}zw" is as long as "seat-zw".
    let pack = String::from_utf8(fixture_pack("seat-zw")).unwrap().replace("\"seat-zw\"", "\"se\u{200B}zw\"");
    let (status, answer) = server.upload(pack.as_bytes());
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("invisible format characters"), "{answer}");
    assert!(answer.contains("se\\u{200b}zw"), "the hidden character is shown: {answer}");
    assert_eq!(server.kept().len(), 2);
}

#[test]
fn posts_from_other_pages_or_to_other_hosts_are_refused_and_cost_nothing() {
    let server = Server::start(&scratch("room-origin").join("room"), &["--max-uploads-per-minute", "1"]);
    let port = server.port;
    let pack = fixture_pack("seat-origin");
    let foreign = [
        (format!("Host: evil.example:{port}\r\n"), "not to Host \"evil.example:"),
        (format!("Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n"), "a page from \"http://evil.example\""),
    ];
    for _ in 0..12 {
        for (headers, why) in &foreign {
            let (status, answer) = post(port, headers, &pack);
            assert_eq!(status, 403, "{answer}");
            assert!(answer.contains(why) && answer.contains(&format!("http://127.0.0.1:{port}")), "{answer}");
        }
    }
    let (_, page) = server.request("GET", "/", b"");
    assert!(
        page.contains("body: body, headers: headers, credentials: \"omit\""),
        "the page's form posts without cookies"
    );
    let own = format!("Host: localhost:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n");
    let (status, answer) = post(port, &own, &pack);
    assert_eq!(status, 201, "refused POSTs spent none of the minute: {answer}");
    assert_eq!(server.kept().len(), 1);
}

#[test]
fn wrong_codes_stop_the_guesser_only() {
    let server = Server::start(&scratch("room-guess").join("room"), &[]);
    for guess in 0..10 {
        let (status, answer) = server.request("POST", &format!("/runs?code=guess{guess}"), b"x");
        assert_eq!(status, 401, "{answer}");
    }
    let pack = fixture_pack("seat-guess");
    let (status, answer) = server.upload(&pack);
    assert_eq!(status, 429, "past 10 wrong codes even the right one is refused: {answer}");
    assert!(
        answer.starts_with("refused: more than 10 wrong room codes a minute from 127.0.0.1: retry in "),
        "{answer}"
    );
    #[cfg(target_os = "linux")]
    {
        let elsewhere = common::room::connect_from([127, 0, 0, 2], server.port).unwrap();
        let path = format!("/runs?code={CODE}");
        let (status, answer) = common::room::http_on(elsewhere, server.port, "POST", &path, &pack);
        assert_eq!(status, 201, "another address is admitted: {}", String::from_utf8_lossy(&answer));
    }
}
