//! One part walked through its three projector screens in headless Chromium: the teacher
//! opens the four-way control's question (the count and spread of the guesses, no measured
//! figure), the projector already open on the teacher's screen turns to the runs screen
//! when the teacher moves on (who is still missing), then the reveal (the runs against the
//! guesses and the article's figure). A student's projector shows no teacher controls.
//! Chromium runs as in `room_browser.rs` (a virtual-time budget, the DOM dumped at its end,
//! the proxy calling back at the page's first poll). Skipped, with the reason printed, only
//! where Chromium is not installed (`.ci/run` installs it).

// A test's notes (a skip) go to its log: cargo test -- --nocapture.
#![allow(clippy::print_stdout)]

mod common;

use std::process::Command;
use std::sync::{Arc, Mutex};

use common::proxy::Proxy;
use common::room::{Server, KEY};
use common::seats::{seat_label, seat_pack};
use common::*;

const CHROMIUM: &str = "chromium";

fn dump(url: &str, profile: &str) -> String {
    let profile = scratch(profile);
    let output = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--virtual-time-budget=15000", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn open(server: &Server, screen: &str) {
    let (status, answer) = server.request("POST", &format!("/parts?key={KEY}&part=sharing&screen={screen}"), b"");
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn the_projector_walks_one_part_through_its_three_screens() {
    if Command::new(CHROMIUM).arg("--version").output().is_err() {
        println!("skipped: {CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it)");
        return;
    }
    let server = Server::start(&scratch("room-parts").join("room"), &["--seats", "3"]);
    for (index, guess) in [(1, "false-sharing=2"), (2, "false-sharing=8")] {
        assert_eq!(server.guess(&seat_label(index), guess).0, 200);
        assert_eq!(server.upload(&seat_pack(index)).0, 201);
    }

    open(&server, "question");
    let student = dump(&format!("{}/projector", server.url()), "room-parts-question");
    assert!(student.contains("1 of 3: the question"), "the question screen is up");
    assert!(student.contains("how many times true sharing's time does false sharing take?"));
    assert!(student.contains("2 guesses in: from 2.00x to 8.00x."), "the count and spread of the guesses");
    assert!(!student.contains("class median") && !student.contains("article (A7)"), "no answer on the question");
    assert!(!student.contains("id=\"controls\""), "a student's projector has no teacher controls");

    let first_page = Arc::new(Mutex::new(None::<String>));
    let room_url = server.url();
    let proxy = Proxy::start(server.port, first_page.clone(), move |_| {
        let url = format!("/parts?key={KEY}&part=sharing&screen=runs");
        let port: u16 = room_url.rsplit(':').next().unwrap().parse().unwrap();
        assert_eq!(common::room::http(port, "POST", &url, b"").0, 200);
    });
    let teacher = dump(&format!("http://127.0.0.1:{}/projector?key={KEY}", proxy.port), "room-parts-runs");
    assert!(*proxy.sent.lock().unwrap(), "the open projector polled, and the teacher moved on then");
    assert!(teacher.contains("id=\"controls\""), "the teacher's projector has the controls");
    assert!(teacher.contains("2 of 3: the runs"), "the open page turned to the runs screen");
    assert!(teacher.contains("2 of 3 seats' runs with sharing have arrived."), "{teacher}");
    assert!(teacher.contains("Still missing: seat-03"), "who is still missing");

    open(&server, "reveal");
    let reveal = dump(&format!("{}/projector", server.url()), "room-parts-reveal");
    let current = &reveal[reveal.find("class=\"slide current\"").expect("a slide on screen")..];
    assert!(current.contains("id=\"false-over-true\"") || current.contains("id=\"false-sharing\""), "a part's slide");
    assert!(reveal.contains("(guess 2.00x)") && reveal.contains("(guess 8.00x)"), "the runs against the guesses");
    assert!(reveal.contains("article (A7): 3.87x"), "the article's figure");
}
