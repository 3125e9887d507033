//! The live room over real HTTP on loopback (`contention room serve`): what it keeps, what it
//! refuses and why, 40 uploads at once, a restart, and `--send` from `run` and `pack`. Each
//! test starts its own room on a free port; traffic is bounded (at most 40 uploads).

// A test's notes (a skip, the memory measured) go to its log: cargo test -- --nocapture.
#![allow(clippy::print_stdout)]

mod common;

use std::sync::{Arc, Barrier};

use common::room::{fixture_pack, http, peak_rss_kib, Server, CODE};
use common::*;

#[test]
fn a_good_pack_is_kept_and_refusals_store_nothing() {
    let server = Server::start(&scratch("room-refusals").join("room"), &["--max-upload", "262144"]);
    let pack = fixture_pack("seat-1");
    let refusals: [(&str, &[u8], u16, &str); 4] = [
        ("/runs", &pack, 401, "refused: this room takes runs with its code"),
        ("/runs?code=wrong", &pack, 401, "refused: wrong room code"),
        (
            &format!("/runs?code={CODE}"),
            b"not a pack at all",
            400,
            "refused: the upload is not a readable run pack: does not start with 'contention-pack 1'",
        ),
        (
            &format!("/runs?code={CODE}"),
            &[b'x'; 270_000],
            413,
            "refused: the upload is 270000 bytes; this room takes packs of at most 256 KiB",
        ),
    ];
    for (path, body, status, reason) in refusals {
        let (got, answer) = server.request("POST", path, body);
        assert_eq!(got, status, "{path}: {answer}");
        assert!(answer.starts_with(reason), "{path}: {answer}");
        assert_eq!(answer.lines().count(), 1, "one line: {answer}");
    }
    let (status, answer) = chunked_upload(server.port, &[b'x'; 270_000]);
    assert_eq!(status, 413, "a body without a declared length is cut at the limit too: {answer}");
    assert!(answer.starts_with("refused: the upload is larger; this room takes packs of at most 256 KiB"), "{answer}");
    assert!(server.kept().is_empty(), "a refused upload stores nothing: {:?}", server.kept());
    assert_eq!(std::fs::read_dir(server.dir.join(".incoming")).unwrap().count(), 0, "nor leaves a staged file");

    let (status, answer) = server.upload(&pack);
    assert_eq!(status, 201, "{answer}");
    assert!(
        answer.starts_with("stored as seat-1 (1 run in the room)\nseat token: "),
        "a seat's first run hands it a token: {answer}"
    );
    assert_eq!(server.kept(), ["0001-seat-1.contention-pack"]);
    let runs = server.runs();
    assert_eq!(runs["runs"][0]["label"], "seat-1");
    assert_eq!(runs["runs"][0]["status"], "shown");
    let (status, served) = http(server.port, "GET", "/runs/seat-1.contention-pack", b"");
    assert_eq!((status, served), (200, pack), "the pack comes back as sent");
    for (path, expected) in [("/", "id=\"live-room\""), ("/seats/seat-1", "id=\"stride\"")] {
        let (status, page) = server.request("GET", path, b"");
        assert_eq!(status, 200, "{path}");
        assert!(page.contains("seat-1") && page.contains(expected), "{path}");
    }
    assert!(!server.request("GET", "/seats/seat-1", b"").1.contains("id=\"live-room\""), "a seat's page has no form");
    assert_eq!(server.request("GET", "/room.html", b"").0, 308, "the old page's address leads to the class page");
    for path in ["/runs/..%2F..%2Fetc%2Fpasswd.contention-pack", "/../../etc/passwd", "/runs/seat-1.csv"] {
        assert_eq!(server.request("GET", path, b"").0, 404, "{path}");
    }
}

#[test]
fn forty_concurrent_uploads_are_all_kept_and_listed() {
    // Forty laptops, here from one address: its per-address rate is lifted (each busy answer
    // retried counts as an upload; report/tests/room_limits.rs tests the rate itself).
    let server = Arc::new(Server::start(&scratch("room-forty").join("room"), &["--max-uploads-per-minute", "1000"]));
    let start = Arc::new(Barrier::new(40));
    let uploads: Vec<_> = (0..40)
        .map(|seat| {
            let (server, start) = (server.clone(), start.clone());
            let pack = fixture_pack(&format!("seat-{seat:02}"));
            std::thread::spawn(move || {
                start.wait();
                upload_as_send_does(&server, &pack)
            })
        })
        .collect();
    for upload in uploads {
        let (status, answer) = upload.join().unwrap();
        assert_eq!(status, 201, "{answer}");
    }
    let runs = server.runs();
    let mut labels: Vec<&str> =
        runs["runs"].as_array().unwrap().iter().map(|run| run["label"].as_str().unwrap()).collect();
    assert_eq!(labels.len(), 40);
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), 40, "every run keeps a label of its own");
    assert!(labels.contains(&"seat-00") && labels.contains(&"seat-39"), "{labels:?}");
    assert_eq!(server.kept().len(), 40);
    let (status, page) = server.request("GET", "/", b"");
    assert!(status == 200 && page.contains("seat-39"));
    let peak_mib = peak_rss_kib(server.pid()) / 1024;
    println!("room server's peak resident memory after 40 concurrent uploads and a render: {peak_mib} MiB");
    assert!(peak_mib < 512, "the room's memory is bounded: {peak_mib} MiB");
}

/// Uploads `pack`, and again after a 503 (a busy room: its connections from one address or
/// its receiving slots are full), as `--send` does: forty uploads at once from one address
/// may meet the per-address caps (32 connections where the file limit is unknown, as on the
/// platform fallback). Every upload must be kept in the end.
fn upload_as_send_does(server: &Server, pack: &[u8]) -> (u16, String) {
    let mut answer = server.upload(pack);
    for _ in 0..20 {
        if answer.0 != 503 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
        answer = server.upload(pack);
    }
    answer
}

#[test]
fn a_restarted_room_keeps_its_runs_and_names_a_corrupt_file() {
    let dir = scratch("room-restart").join("room");
    let server = Server::start(&dir, &[]);
    for label in ["seat-a", "seat-b", "seat-a"] {
        assert_eq!(server.upload(&fixture_pack(label)).0, 201);
    }
    let before = server.runs();
    let status = server.stop();
    assert!(status.success(), "Ctrl-C stops the room cleanly: {status:?}");
    std::fs::write(dir.join("0009-broken.contention-pack"), "contention-pack 1\nfile manifest.json 99\n{").unwrap();
    std::fs::write(dir.join(".incoming/7.contention-pack"), "an upload a stop interrupted").unwrap();

    let server = Server::start(&dir, &[]);
    let after = server.runs();
    let labels = |runs: &serde_json::Value| -> Vec<String> {
        runs["runs"].as_array().unwrap().iter().map(|run| run["label"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(labels(&after)[..3], labels(&before)[..], "the same runs, labels and order");
    assert_eq!(labels(&before), ["seat-a", "seat-b", "seat-a"]);
    let statuses: Vec<&str> =
        after["runs"].as_array().unwrap()[..3].iter().map(|run| run["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["superseded", "shown", "shown"], "seat-a's second run replaced its first");
    let broken = &after["runs"][3];
    assert_eq!(
        (broken["label"].as_str(), broken["status"].as_str()),
        (Some("0009-broken.contention-pack"), Some("skipped"))
    );
    assert!(broken["why"].as_str().unwrap().contains("is not a readable run pack"), "{broken}");
    assert!(server.request("GET", "/", b"").1.contains("Not shown: 0009-broken.contention-pack"));
    assert_eq!(std::fs::read_dir(dir.join(".incoming")).unwrap().count(), 0, "the interrupted upload is removed");
    let answer = server.upload(&fixture_pack("seat-c")).1;
    assert!(
        answer.starts_with("stored as seat-c (3 runs in the room)\n"),
        "seat-a's first run is superseded: {answer}"
    );
    assert!(server.kept().contains(&"0010-seat-c.contention-pack".to_string()), "{:?}", server.kept());
}

#[test]
fn uploads_past_the_rate_limit_are_refused() {
    let server = Server::start(&scratch("room-rate").join("room"), &["--max-uploads-per-minute", "2"]);
    assert_eq!(server.request("POST", "/runs", b"").0, 401, "a wrong code is counted apart");
    let pack = fixture_pack("seat-rate");
    assert_eq!(server.upload(&pack).0, 201);
    assert_eq!(server.upload(&pack).0, 201);
    let (status, answer) = server.upload(&pack);
    assert_eq!(status, 429, "{answer}");
    assert!(answer.starts_with("refused: more than 2 uploads a minute from 127.0.0.1: retry in "), "{answer}");
}

#[test]
fn run_and_pack_send_to_the_room_and_say_how_to_retry() {
    let scratch_dir = scratch("room-send");
    let server = Server::start(&scratch_dir.join("room"), &["--max-upload", "16384"]);
    let out = scratch_dir.join("runs");
    let sent = contention(&[
        "run",
        "stride",
        "--quick",
        "--label",
        "seat-send",
        "--out",
        out.to_str().unwrap(),
        "--send",
        &server.url(),
        "--code",
        CODE,
    ]);
    // The stride run's pack is small enough; the fixture's (every experiment) is not.
    assert!(sent.status.success(), "{}", stderr(&sent));
    assert!(stdout(&sent).contains(&format!("sent to {}: stored as seat-send (1 run in the room)", server.url())));
    assert_eq!(server.runs()["runs"][0]["label"], "seat-send");

    let fixture = fixture();
    let refused = contention(&["pack", fixture.to_str().unwrap(), "--send", &server.url(), "--code", CODE]);
    assert_eq!(refused.status.code(), Some(1));
    let error = stderr(&refused);
    assert!(
        error.contains("was not sent to") && error.contains("the room answered 413: refused: the upload is"),
        "{error}"
    );
    assert!(error.contains(&format!("send it again with: contention pack {} --send", fixture.display())), "{error}");
    let wrong =
        contention(&["pack", only_run_folder(&out).to_str().unwrap(), "--send", &server.url(), "--code", "nope1"]);
    assert!(stderr(&wrong).contains("the room answered 401: refused: wrong room code"), "{}", stderr(&wrong));
    assert_eq!(server.kept().len(), 1, "refused sends store nothing");

    let port = server.port;
    drop(server);
    let nobody = contention(&["pack", fixture.to_str().unwrap(), "--send", &format!("http://127.0.0.1:{port}")]);
    assert!(stderr(&nobody).contains("no room answers at 127.0.0.1"), "{}", stderr(&nobody));
    let https = contention(&["pack", fixture.to_str().unwrap(), "--send", "https://room.example"]);
    assert_eq!(https.status.code(), Some(2));
    assert!(stderr(&https).contains("invalid send = https://room.example: only http:// URLs"), "{}", stderr(&https));
}

/// Posts `body` in chunks of 8 KiB, without a declared length: the status and the answer.
fn chunked_upload(port: u16, body: &[u8]) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let head = format!(
        "POST /runs?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let mut request = head.into_bytes();
    for chunk in body.chunks(8192) {
        request.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        request.extend_from_slice(chunk);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let _ = stream.write_all(&request);
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    (status, answer.split_once("\r\n\r\n").map_or(String::new(), |(_, body)| body.to_string()))
}
