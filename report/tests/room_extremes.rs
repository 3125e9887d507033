//! No value stalls a page and no page stalls the room, over real HTTP on loopback: with the
//! reveal on, the guesses that once hung the projector for good (values near `f64::MAX` and
//! a subnormal) are refused naming the effect's plausible values; the same values kept in a
//! ledger from before that check still give a projector and a class page within a second;
//! and SIGTERM stops the room while a projector request is in flight. Traffic is bounded
//! (about 15 requests).

mod common;

use std::time::{Duration, Instant};

use common::room::{Server, KEY};
use common::seats::{seat_label, seat_pack};
use common::*;

const EXTREMES: [&str; 3] = ["1.7976931348623157e308", "1.5e308", "5e-324"];

/// `GET path`, its status and how long it took.
fn timed_get(server: &Server, path: &str) -> (u16, String, Duration) {
    let started = Instant::now();
    let (status, body) = server.request("GET", path, b"");
    (status, body, started.elapsed())
}

#[test]
fn extreme_guesses_are_refused_and_kept_ones_stall_no_page() {
    let dir = scratch("room-extremes").join("room");
    std::fs::create_dir_all(&dir).unwrap();
    // Guesses a room kept before it checked their range: the pages must still draw them.
    let kept: Vec<serde_json::Value> = EXTREMES
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let value: f64 = value.parse().unwrap();
            serde_json::json!({"seat": seat_label(index + 1), "effect": "false-sharing", "value": value})
        })
        .collect();
    let ledger = serde_json::json!({"removed": [], "revealed": true, "guesses": kept});
    std::fs::write(dir.join(".room.json"), serde_json::to_vec(&ledger).unwrap()).unwrap();
    let mut server = Server::start(&dir, &[]);
    for index in 1..=3 {
        assert_eq!(server.upload(&seat_pack(index)).0, 201);
    }
    for value in EXTREMES {
        let (status, answer) = server.request(
            "POST",
            &format!("/guesses?key={KEY}&seat=seat-04"),
            format!("false-sharing={value}").as_bytes(),
        );
        assert_eq!(status, 400, "{value}: {answer}");
        assert!(answer.contains("a machine shows from 0.001x to 1000x"), "{value}: {answer}");
    }
    for path in ["/projector", "/"] {
        let (status, body, took) = timed_get(&server, path);
        assert_eq!(status, 200, "{path}: {body}");
        assert!(took < Duration::from_secs(1), "{path} took {took:?}");
    }
    let (_, projector, _) = timed_get(&server, "/projector");
    assert!(projector.contains("Guesses: median"), "the kept guesses are drawn after the reveal");

    // A new guess makes the projector draw again; SIGTERM arrives while it is asked for.
    let guess = server.request("POST", &format!("/guesses?key={KEY}&seat=seat-05"), b"padded=2");
    assert_eq!(guess.0, 200, "{}", guess.1);
    let port = server.port;
    let asking = std::thread::spawn(move || common::room::http(port, "GET", "/projector", b""));
    std::thread::sleep(Duration::from_millis(5));
    let stopped = Instant::now();
    let status = server.signal_and_wait("-TERM", Duration::from_secs(15));
    assert!(status.is_some(), "the room still runs 15 s after SIGTERM");
    assert!(stopped.elapsed() < Duration::from_secs(12), "SIGTERM took {:?}", stopped.elapsed());
    let _ = asking.join();
}
