//! A proxy between Chromium and the room, so a browser test knows when the page is open
//! and polling: at the page's first `GET /runs` it calls the test back (which sends a run),
//! then lets the poll through.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Forwards each request to the room on a connection of its own (Connection: close), keeps
/// the first page served, and calls `at_first_poll` before the page's first `GET /runs`.
pub struct Proxy {
    pub port: u16,
    pub sent: Arc<Mutex<bool>>,
}

impl Proxy {
    pub fn start(
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
