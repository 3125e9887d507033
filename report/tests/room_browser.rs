//! The live room page in headless Chromium: a run that arrives after the page was opened
//! appears on it without a reload.
//!
//! Chromium opens the page through a small proxy in this test, so the test knows when the
//! page is open and polling: at the page's first `GET /runs` the proxy sends a run to the
//! room, then lets the poll through. Chromium runs with a virtual-time budget (timers run
//! as fast as the page allows, network waits pause the clock) and dumps the DOM at its
//! end: the dump shows the page as its script left it. Skipped, with the reason printed,
//! only where Chromium is not installed (`.ci/run` installs it).

// A test's notes (a skip, the memory measured) go to its log: cargo test -- --nocapture.
#![allow(clippy::print_stdout)]

mod common;

use std::process::Command;
use std::sync::{Arc, Mutex};

use common::proxy::Proxy;
use common::room::{fixture_pack, Server};
use common::*;

const CHROMIUM: &str = "chromium";

#[test]
fn the_live_page_shows_a_run_sent_after_it_was_opened() {
    if Command::new(CHROMIUM).arg("--version").output().is_err() {
        println!("skipped: {CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it)");
        return;
    }
    let server = Server::start(&scratch("room-browser").join("room"), &[]);
    assert_eq!(server.upload(&fixture_pack("seat-early")).0, 201);
    let late = fixture_pack("seat-late");
    let first_page = Arc::new(Mutex::new(None::<String>));
    let proxy = Proxy::start(server.port, first_page.clone(), move |room_port| {
        let (status, answer) =
            common::room::http(room_port, "POST", &format!("/runs?code={}", common::room::CODE), &late);
        assert_eq!(status, 201, "{}", String::from_utf8_lossy(&answer));
    });
    let profile = scratch("room-browser-profile");
    let dump = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--virtual-time-budget=15000", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://127.0.0.1:{}/", proxy.port))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dump.stdout);
    let opened = first_page.lock().unwrap().clone().expect("chromium asked for the page");
    assert!(opened.contains("seat-early") && !opened.contains("seat-late"), "the page opened before seat-late arrived");
    assert!(*proxy.sent.lock().unwrap(), "the page polled /runs");
    let runs = html_table(&dom, "room-runs");
    assert!(runs.contains("seat-early") && runs.contains("seat-late"), "the open page lists the late run: {runs}");
    assert!(dom.contains("Contention Lab: a class of 2 seats"), "its class now holds the two seats");
}

/// The text of the table with `id`.
fn html_table<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html.find(&format!("<table id=\"{id}\"")).unwrap_or_else(|| panic!("no table {id} in the page"));
    let end = html[start..].find("</table>").map_or(html.len(), |end| start + end);
    &html[start..end]
}
