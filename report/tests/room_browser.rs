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

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    assert!(dom.contains("Contention Lab: 2 machines compared"), "its sections now compare the two runs");
}

/// The text of the table with `id`.
fn html_table<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html.find(&format!("<table id=\"{id}\"")).unwrap_or_else(|| panic!("no table {id} in the page"));
    let end = html[start..].find("</table>").map_or(html.len(), |end| start + end);
    &html[start..end]
}

/// Forwards each request to the room on a connection of its own (Connection: close), keeps
/// the first page served, and calls `at_first_poll` before the page's first `GET /runs`.
struct Proxy {
    port: u16,
    sent: Arc<Mutex<bool>>,
}

impl Proxy {
    fn start(
        room_port: u16,
        first_page: Arc<Mutex<Option<String>>>,
        at_first_poll: impl FnOnce(u16) + Send + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let sent = Arc::new(Mutex::new(false));
        let trigger = Arc::new(Mutex::new(Some(at_first_poll)));
        let polled = sent.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().take(200).map_while(Result::ok) {
                let (trigger, polled, first_page) = (trigger.clone(), polled.clone(), first_page.clone());
                std::thread::spawn(move || {
                    let _ = forward(client, room_port, &trigger, &polled, &first_page);
                });
            }
        });
        Self { port, sent }
    }
}

fn forward<F: FnOnce(u16) + Send>(
    mut client: TcpStream,
    room_port: u16,
    trigger: &Mutex<Option<F>>,
    polled: &Mutex<bool>,
    first_page: &Mutex<Option<String>>,
) -> std::io::Result<()> {
    client.set_read_timeout(Some(Duration::from_secs(30)))?;
    let head = read_head(&mut client)?;
    let request_line = head.lines().next().unwrap_or("").to_string();
    if request_line.starts_with("GET /runs ") {
        if let Some(at_first_poll) = trigger.lock().unwrap().take() {
            at_first_poll(room_port);
            *polled.lock().unwrap() = true;
        }
    }
    let mut lines: Vec<&str> =
        head.lines().filter(|line| !line.to_ascii_lowercase().starts_with("connection:")).collect();
    lines.push("Connection: close");
    let mut room = TcpStream::connect(("127.0.0.1", room_port))?;
    room.write_all(format!("{}\r\n\r\n", lines.join("\r\n")).as_bytes())?;
    let mut answer = Vec::new();
    room.read_to_end(&mut answer)?;
    if request_line.starts_with("GET / ") {
        first_page.lock().unwrap().get_or_insert_with(|| String::from_utf8_lossy(&answer).into_owned());
    }
    client.write_all(&answer)
}

/// A GET request's head, up to its blank line.
fn read_head(client: &mut TcpStream) -> std::io::Result<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 << 10 {
        if client.read(&mut byte)? == 0 {
            break;
        }
        head.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&head).trim_end().to_string())
}
