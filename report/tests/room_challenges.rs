//! The room's challenge board: seats post their checked fixes (`POST /challenges`), each kept
//! in the ledger (a restart keeps them), shown on the projector's challenge screens sorted by
//! speed-up, the wrong ones named with what they lost, the class median and the article's fix;
//! a seat off the roster is kept and marked, as its runs are; a forged or malformed result and a
//! wrong code are refused. In headless Chromium, 25 seats' results on the board's screen (a
//! screenshot under `$CI_ARTIFACTS`, else `out/ci`); skipped only where Chromium is not
//! installed and `CI` is not set.

#![allow(clippy::print_stdout)]

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::room::{Server, CODE};
use common::*;
use contention::challenge::{Challenge, ChallengeResult};
use contention::stats::Ratio;

const CHROMIUM: &str = "chromium";

/// Seat `index`'s result: seats 23 and 24 lost adds, the others are correct with speed-ups
/// spread from 1.0x to 5.0x; seat 25 is `guest`, whom the roster of 24 does not name.
fn result(seat: &str, index: usize) -> ChallengeResult {
    let correct = !(23..=24).contains(&index);
    let value = 1.0 + (index * 7 % 25) as f64 / 6.0;
    let ratio = |value: f64| Ratio { value, low: value * 0.9, high: value * 1.1 };
    ChallengeResult {
        seat: seat.into(),
        challenge: Challenge::FalseSharing,
        wrong: (!correct).then(|| format!("every add must be counted: total() gave 799{index}00: {index}00 adds lost")),
        speedup: correct.then(|| ratio(value)),
        goal: correct.then(|| ratio(4.0)),
        reading: match (correct, value * 0.9 > 1.0) {
            (false, _) => "wrong",
            (true, true) => "faster, short of the goal",
            (true, false) => "not beyond the noise",
        }
        .into(),
        description: format!("fix number {index}"),
    }
}

fn seat(index: usize) -> String {
    if index == 25 {
        "guest".into()
    } else {
        format!("seat-{index:02}")
    }
}

fn post(server: &Server, code: &str, result: &ChallengeResult) -> (u16, String) {
    server.request("POST", &format!("/challenges?code={code}"), &serde_json::to_vec(result).unwrap())
}

/// The projector's screen of the false-sharing challenge.
fn board_screen(html: &str) -> &str {
    let screen = &html[html.find("id=\"challenge-false-sharing\"").expect("the challenge's screen")..];
    &screen[..screen.find("</section>").unwrap()]
}

fn send_class(server: &Server) {
    for index in 1..=25 {
        let (status, answer) = post(server, CODE, &result(&seat(index), index));
        assert_eq!(status, 200, "{answer}");
        assert!(answer.contains(&format!("kept {}'s fix of false-sharing", seat(index))), "{answer}");
    }
}

#[test]
fn the_board_shows_each_seats_fix_and_names_the_wrong_ones() {
    let dir = scratch("room-challenges").join("room");
    let server = Server::start(&dir, &["--seats", "24"]);
    send_class(&server);
    let (status, answer) = post(&server, "wrong-code", &result("seat-01", 1));
    assert_eq!(status, 401);
    assert!(answer.starts_with("refused: wrong room code"), "{answer}");
    let forged = ChallengeResult { speedup: result("seat-01", 1).speedup, ..result("seat-23", 23) };
    let (status, answer) = post(&server, CODE, &forged);
    assert_eq!(status, 400);
    assert!(answer.contains("invalid speedup = present: none for a fix refused on correctness"), "{answer}");
    let (status, answer) = server.request("POST", &format!("/challenges?code={CODE}"), b"{\"seat\": \"x\"}");
    assert_eq!(status, 400);
    assert!(answer.starts_with("refused: the body is not a challenge result"), "{answer}");

    let (_, html) = server.request("GET", "/projector", b"");
    let screen = board_screen(&html);
    let seats: Vec<&str> = screen.split("data-seat=\"").skip(1).map(|row| &row[..row.find('"').unwrap()]).collect();
    assert_eq!(seats.len(), 23, "every correct fix has its bar");
    let figures: Vec<f64> = screen
        .split("<span class=\"figure\"")
        .skip(1)
        .map(|figure| {
            let text = &figure[figure.find('>').unwrap() + 1..];
            text[..text.find('x').unwrap()].parse().unwrap()
        })
        .collect();
    assert!(figures.windows(2).all(|pair| pair[0] >= pair[1]), "highest speed-up first: {figures:?}");
    assert!(screen.contains("Wrong: <b>seat-23</b> (every add must be counted"), "{screen}");
    assert!(screen.contains("<b>seat-24</b>"), "both wrong fixes are named");
    assert!(screen.contains("guest*") && screen.contains("* not on the roster"), "the guest is kept and marked");
    assert!(screen.contains("class median "), "the class median");
    assert!(screen.contains("median goal 4.00x"), "the seats' goals");
    assert!(screen.contains("fix (A8): 50.95x"), "the article's fix");
    assert!(screen.contains("23 correct fixes, 2 wrong; 22 read faster"), "{screen}");
    assert!(screen.contains("class=\"bar fix unproven\" data-seat=\"guest\""), "a fix in the noise is drawn grey");

    server.stop();
    let server = Server::start(&dir, &["--seats", "24"]);
    let (_, html) = server.request("GET", "/projector", b"");
    assert_eq!(board_screen(&html).matches("data-seat=\"").count(), 23, "the ledger kept every fix over a restart");
}

#[test]
fn a_saved_result_is_sent_from_the_command_line() {
    let dir = scratch("room-challenges-send");
    let server = Server::start(&dir.join("room"), &[]);
    let saved = dir.join("false-sharing.json");
    std::fs::write(&saved, serde_json::to_vec(&result("seat-07", 7)).unwrap()).unwrap();
    let url = server.url();
    let send = |name: &str| {
        contention(&["challenge", name, "--result", saved.to_str().unwrap(), "--send", &url, "--code", CODE])
    };
    let output = send("false-sharing");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("kept seat-07's fix of false-sharing"), "{}", stdout(&output));
    let output = send("allocation");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("holds a result of false-sharing, not of allocation"), "{}", stderr(&output));
    let output = contention(&["challenge", "padding"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("invalid challenge = padding: one of false-sharing, allocation, lock-across-wait"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn twenty_five_seats_fixes_on_the_projector_in_a_browser() {
    if Command::new(CHROMIUM).arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "{CHROMIUM} is not installed, and CI must run this test");
        println!("skipped: {CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it)");
        return;
    }
    let server = Server::start(&scratch("room-challenges-browser").join("room"), &["--seats", "24"]);
    send_class(&server);
    let projector = format!("{}/projector#challenge-false-sharing", server.url().trim_end_matches('/'));
    let profile = scratch("room-challenges-profile");
    let dom = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--virtual-time-budget=3000"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &projector])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    let current = &dom[dom.find("class=\"slide board current\"").expect("the board's screen is on screen")..];
    let current = &current[..current.find("</section>").unwrap()];
    assert!(current.contains("id=\"challenge-false-sharing\""), "the URL's screen");
    assert_eq!(current.matches("data-seat=\"").count(), 23, "23 correct fixes drawn");
    assert!(current.contains("seat-23") && current.contains("seat-24"), "the 2 wrong ones named");

    let artifacts = std::env::var_os("CI_ARTIFACTS").map_or_else(|| PathBuf::from("../out/ci"), PathBuf::from);
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("room-challenge-board.png");
    let status = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--virtual-time-budget=3000"])
        .arg(format!("--user-data-dir={}", scratch("room-challenges-shot").display()))
        .args([format!("--screenshot={}", shot.display()), "--window-size=1920,1080".into(), projector])
        .status()
        .expect("chromium runs");
    assert!(status.success() && std::fs::metadata(&shot).is_ok_and(|meta| meta.len() > 0), "{}", shot.display());
    println!("challenge board screenshot: {}", shot.display());
}
