//! Who the room takes a run or a guess from, over real HTTP on loopback: on a roster of 25,
//! 490 guesses from made-up seats are refused and a roster seat still guesses; a seat typed
//! another way (`Seat 3`) is the roster's seat, and a look-alike (`seat-O1`, a Cyrillic
//! `ѕеаt-01`) is refused naming the seat it looks like; without a roster a seat's first guess
//! claims it (before its run), another laptop's guess for it is refused; the teacher clears guesses. And the smaller guards: a removal's path names
//! one label, a manifest with a key twice is refused naming it, a seat's page names no server
//! path, and the pages carry a Content-Security-Policy. Traffic is bounded (about 520
//! requests, 490 of them one-line guesses).

mod common;

use std::io::{Read as _, Write as _};

use common::packs::{edit_manifest, file_mut, fixture_files};
use common::room::{Server, CODE, KEY};
use common::seats::seat_pack;
use common::*;

/// The fixture's pack labelled `label`.
fn labelled(label: &str) -> Vec<u8> {
    let mut files = fixture_files();
    edit_manifest(&mut files, |manifest| manifest["label"] = label.into());
    contention::runs::pack::encode(&files).unwrap().into_bytes()
}

/// `seat`'s guesses with the class code, as its laptop sends them: with the seat's token once
/// it holds one (its run's upload, through [`Server::upload`], keeps it).
fn guess(server: &Server, seat: &str, body: &str) -> (u16, String) {
    let token = server.token(seat);
    let headers: Vec<(&str, &str)> = token.iter().map(|token| ("X-Seat-Token", token.as_str())).collect();
    let path = format!("/guesses?code={CODE}&seat={}", percent(seat));
    let answer = server.request_with("POST", &path, body.as_bytes(), &headers);
    (answer.status, answer.body)
}

fn percent(text: &str) -> String {
    text.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || byte == b'-' {
                (byte as char).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

#[test]
fn ghosts_and_look_alikes_are_refused_and_roster_seats_guess() {
    let dir = scratch("room-seats").join("room");
    let server = Server::start(&dir, &["--seats", "25", "--max-uploads-per-minute", "2000"]);
    for ghost in 1..=490 {
        let (status, answer) = guess(&server, &format!("ghost-{ghost:03}"), "false-sharing=2");
        assert_eq!(status, 400, "{answer}");
        assert!(answer.contains("is not on the roster"), "{answer}");
    }
    let (status, answer) = guess(&server, "seat-01", "false-sharing=2");
    assert_eq!(status, 200, "a roster seat guesses before it runs: {answer}");
    assert!(answer.starts_with("kept 1 guesses of seat-01\n"), "{answer}");
    let (status, answer) = guess(&server, "Seat 7", "padded=1.5");
    assert_eq!(status, 200, "a seat typed another way: {answer}");
    assert!(answer.starts_with("kept 1 guesses of seat-07\n"), "{answer}");

    for look_alike in ["ѕеаt-01", "seat-O1"] {
        let (status, answer) = server.upload(&labelled(look_alike));
        assert_eq!(status, 400, "{look_alike}: {answer}");
        assert!(answer.contains("looks like the roster's seat seat-01 but is not it"), "{answer}");
        let (status, answer) = guess(&server, look_alike, "false-sharing=2");
        assert_eq!(status, 400, "{look_alike}: {answer}");
    }
    let (status, answer) = server.upload(&labelled("Seat 3"));
    assert_eq!(status, 201, "{answer}");
    assert!(answer.starts_with("stored as seat-03 (1 run in the room)\n"), "{answer}");
    let (_, answer) = server.upload(&labelled("ｓｅａｔ-05"));
    assert!(answer.starts_with("stored as seat-05 (2 runs in the room)\n"), "{answer}");

    let (status, answer) = server.request("DELETE", &format!("/guesses?key={KEY}&seat=seat-07"), b"");
    assert_eq!((status, answer.as_str()), (200, "cleared 1 guesses\n"));
    let (status, answer) = server.request("DELETE", &format!("/guesses?key={KEY}"), b"");
    assert_eq!((status, answer.as_str()), (200, "cleared 1 guesses\n"));
    assert_eq!(server.request("DELETE", "/guesses?code=wrong", b"").0, 401);
}

#[test]
fn without_a_roster_a_seats_first_guess_claims_it_before_its_run() {
    let dir = scratch("room-seats-open").join("room");
    let server = Server::start(&dir, &[]);
    // Before anything is measured: the first guess claims seat-01 and hands its laptop a token.
    let (status, answer) = server.guess("seat-01", "false-sharing=2");
    assert_eq!(status, 200, "{answer}");
    assert!(server.token("seat-01").is_some(), "the seat's first guess hands out its token");
    // Another laptop guessing for seat-01, without that token, is refused.
    let (status, answer) = guess_without_token(&server, "seat-01", "false-sharing=9");
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("seat-01 is held by the laptop that first sent or guessed for it"), "{answer}");
    // A label no run could carry is no seat.
    let (status, answer) = guess_without_token(&server, "\u{202e}seat-02", "false-sharing=2");
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("invalid seat"), "{answer}");
    // The seat's own run arrives with its token: its guess is locked from then on (a guess is
    // written before the measurement).
    assert_eq!(server.upload(&seat_pack(1)).0, 201);
    let (status, answer) = server.guess("seat-01", "false-sharing=3");
    assert_eq!(status, 409, "{answer}");
    assert!(answer.contains("seat-01's guess is locked"), "{answer}");
}

/// `seat`'s guesses with the class code and no seat token, as a second laptop sends them.
fn guess_without_token(server: &Server, seat: &str, body: &str) -> (u16, String) {
    let path = format!("/guesses?code={CODE}&seat={}", percent(seat));
    server.request("POST", &path, body.as_bytes())
}

/// The head of the answer to `GET path`, lowercase.
fn head_of(server: &Server, path: &str) -> String {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", server.port);
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer).to_lowercase();
    answer.split("\r\n\r\n").next().unwrap().to_string()
}

#[test]
fn the_smaller_guards_hold() {
    let dir = scratch("room-small-guards").join("room");
    let server = Server::start(&dir, &[]);
    assert_eq!(server.upload(&seat_pack(1)).0, 201);

    let (status, answer) = server.request("DELETE", &format!("/runs/seat-01.contention-pack?key={KEY}"), b"");
    assert_eq!(status, 400, "{answer}");
    assert_eq!(server.runs()["runs"][0]["status"], "shown", "the removal named another label");

    let mut files = fixture_files();
    let manifest = file_mut(&mut files, "manifest.json");
    *manifest = manifest.replacen('{', "{\n  \"label\": \"seat-02\",\n  \"label\": \"seat-01\",", 1);
    let (status, answer) = server.upload(&contention::runs::pack::encode(&files).unwrap().into_bytes());
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer.contains("the key \\\"label\\\" is given twice") || answer.contains("the key \"label\" is given twice"),
        "{answer}"
    );

    let (status, page) = server.request("GET", "/seats/seat-01", b"");
    assert_eq!(status, 200);
    let folder = std::fs::canonicalize(&dir).unwrap();
    for path in [dir.display().to_string(), folder.display().to_string()] {
        assert!(!page.contains(&path), "the seat's page names the server's folder {path}");
    }
    for path in ["/", "/projector", "/seats/seat-01"] {
        let head = head_of(&server, path);
        assert!(
            head.contains("content-security-policy: default-src 'none'; script-src 'unsafe-inline'"),
            "{path}: {head}"
        );
    }
}
