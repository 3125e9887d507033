//! `contention check`: one line per check, then "ready" or what to fix, within a minute;
//! `--room` against a room on loopback (with `--code --label`, the verdict on its roster), and a
//! bad or silent room named.

mod common;

use std::path::Path;
use std::time::Duration;

use common::room::{Server, CODE, KEY};
use common::{scratch, stderr, stdout, timed};

const CHECKS: [&str; 7] = ["build", "threads", "timer", "kernel settings", "Go", "JDK", "quick report"];

fn examples() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/examples").to_string_lossy().into_owned()
}

#[test]
fn each_check_has_a_line_and_the_last_says_ready_or_what_to_fix() {
    let (output, took) = timed(&["check", "--examples", &examples()]);
    assert!(took < Duration::from_secs(60), "the check took {took:?}");
    let printed = stdout(&output);
    for name in CHECKS {
        let line = printed.lines().find(|line| line.get(5..).is_some_and(|rest| rest.starts_with(name)));
        assert!(line.is_some(), "no line for {name}:\n{printed}");
    }
    // A line that is not fine says what to do on the next line.
    let lines: Vec<&str> = printed.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        if line.starts_with("[!]") || line.starts_with("[x]") {
            assert!(lines.get(index + 1).is_some_and(|next| next.trim_start().starts_with("to do: ")), "{printed}");
        }
    }
    match output.status.code() {
        Some(0) => assert_eq!(lines.last(), Some(&"ready"), "{printed}"),
        _ => assert!(stderr(&output).trim_end().starts_with("error: not ready: fix "), "{}", stderr(&output)),
    }
    // The kept quick run under data/examples gives the estimate.
    assert!(printed.contains("quick report     about "), "{printed}");
}

#[test]
fn a_room_on_loopback_answers_the_check() {
    let room = Server::start(&scratch("check-room"), &[]);
    let output = common::contention(&["check", "--room", &room.url(), "--examples", &examples()]);
    let printed = stdout(&output);
    let line = printed.lines().find(|line| line.contains(" room ")).unwrap_or_else(|| panic!("{printed}"));
    assert_eq!(line, format!("[ok] room             {} answers: 0 runs in the room", room.url()));
    room.stop();
}

#[test]
fn a_checks_verdict_reaches_the_roster_as_its_seats_own() {
    let dir = scratch("check-ready");
    let room = Server::start(&dir.join("room"), &["--seats", "3"]);
    let url = room.url();
    let send = ["check", "--room", url.as_str(), "--code", CODE, "--label", "Seat 2", "--examples"];
    let output = common::contention(&[&send[..], &[examples().as_str()]].concat());
    let printed = stdout(&output);
    assert!(printed.contains(&format!("sent to {url}: kept seat-02's check")), "{printed}{}", stderr(&output));
    let (status, page) = room.request("GET", &format!("/?key={KEY}"), b"");
    assert_eq!(status, 200);
    let verdict = match output.status.code() {
        Some(0) => "Checked before the day: 1 of 3 seats ready; not checked: seat-01, seat-03.".to_string(),
        _ => "Checked before the day: 0 of 3 seats ready; not ready: seat-02 (".to_string(),
    };
    assert!(page.contains(&verdict), "the roster shows the check: {verdict}");
    // Another laptop (no seat token) cannot send seat-02's check; a line that is no verdict is refused.
    let (status, answer) = room.request("POST", &format!("/ready?code={CODE}&seat=seat-02"), b"ready");
    assert_eq!(status, 403, "{answer}");
    let (status, answer) = room.request("POST", &format!("/ready?code={CODE}&seat=seat-03"), b"all good <b>");
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("invalid readiness = \"all good <b>\": `ready` or `not ready: ...`"), "{answer}");
    room.stop();
}

#[test]
fn a_bad_room_url_is_refused_before_any_check() {
    let output = common::contention(&["check", "--room", "https://10.0.0.5:8765"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).is_empty());
    assert_eq!(
        stderr(&output).trim_end(),
        "error: invalid room = https://10.0.0.5:8765: only http:// URLs are taken (a room serves plain HTTP on the \
         local network), e.g. http://10.0.0.5:8765"
    );
}

#[test]
fn a_room_that_does_not_answer_is_what_to_fix() {
    // A port just freed on loopback: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let output = common::contention(&["check", "--room", &format!("http://127.0.0.1:{port}")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("[x]  room             no room answers at 127.0.0.1:"), "{}", stdout(&output));
    assert!(stderr(&output).trim_end().ends_with("error: not ready: fix room (the lines marked [x] above say how)"));
}
