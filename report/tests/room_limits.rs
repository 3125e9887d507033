//! The live room on an open network (loopback here): a flood of half-sent request heads
//! from one address, under a laptop's file limit, does not keep another address out;
//! trickling uploads do not hold up the others, nor can one address's take every receiving
//! slot; a client that never reads its answer is closed after the write timeout. Traffic is
//! bounded: 400 sockets, a few uploads, 600 pipelined GETs of one pack on one connection.

// A test's figures (times, memory, open files) go to its log: cargo test -- --nocapture.
#![allow(clippy::print_stdout)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::room::{fixture_pack, Server, CODE};
use common::*;

/// The file limit the room starts under: macOS's default.
const FILE_LIMIT: u32 = 256;
/// The server's header timeout, plus a margin for a loaded machine.
const HEADER_TIMEOUT_AND_MARGIN: Duration = Duration::from_secs(8);

#[cfg(target_os = "linux")]
#[test]
fn half_sent_heads_from_one_address_do_not_keep_another_out() {
    use common::room::{connect_from, http, http_on, rss_kib_and_open_files};
    let server = Server::start_with_file_limit(&scratch("room-flood").join("room"), &[], FILE_LIMIT);
    let banner = server.log.lock().unwrap().clone();
    assert!(
        banner.contains(
            "room code: test-room (the class code, for the students; at most 128 connections at once, 32 from one \
             address, under a file limit of 256)"
        ),
        "the caps are printed beside the code: {banner}"
    );
    let flood_started = Instant::now();
    // Connections that send nothing, from an address of their own, are closed as idle.
    let mut flood: Vec<TcpStream> = (0..3).map(|_| connect_from([127, 0, 0, 3], server.port).unwrap()).collect();
    for _ in 0..400 {
        if let Ok(mut socket) = TcpStream::connect(("127.0.0.1", server.port)) {
            let _ = socket.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n");
            flood.push(socket);
        }
    }
    let flood_ended = Instant::now();
    println!("400 half-sent heads opened in {:?} ({} connected)", flood_started.elapsed(), flood.len());
    let pack = fixture_pack("seat-far");
    let started = Instant::now();
    let (status, listing) =
        http_on(connect_from([127, 0, 0, 2], server.port).unwrap(), server.port, "GET", "/runs", b"");
    let listed_in = started.elapsed();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&listing));
    let started = Instant::now();
    let path = format!("/runs?code={CODE}");
    let (status, answer) =
        http_on(connect_from([127, 0, 0, 2], server.port).unwrap(), server.port, "POST", &path, &pack);
    let uploaded_in = started.elapsed();
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&answer));
    let (rss_kib, open_files) = rss_kib_and_open_files(server.pid());
    println!(
        "during the flood: GET /runs from 127.0.0.2 in {listed_in:?}, its upload in {uploaded_in:?}; server \
         {} MiB resident, {open_files} files open",
        rss_kib / 1024
    );
    assert!(listed_in < Duration::from_secs(2) && uploaded_in < Duration::from_secs(2));
    assert!(open_files <= FILE_LIMIT as usize, "{open_files} files open");
    assert!(rss_kib < 256 << 10, "the connections' memory is bounded: {} MiB", rss_kib / 1024);

    // The refusals in progress (at most 32, each given a second to read its answer) are over.
    std::thread::sleep(Duration::from_millis(1200).saturating_sub(flood_ended.elapsed()));
    let (status, refusal) = http(server.port, "GET", "/runs", b"");
    assert_eq!(status, 503, "the flooding address is refused with why");
    let refusal = String::from_utf8_lossy(&refusal).into_owned();
    assert!(refusal.starts_with("refused: 127.0.0.1 has 32 connections open, the most this room keeps"), "{refusal}");
    std::thread::sleep(HEADER_TIMEOUT_AND_MARGIN.saturating_sub(flood_started.elapsed()));
    let mut still_open = 0;
    for socket in &mut flood {
        socket.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
        let mut answer = Vec::new();
        if matches!(socket.read_to_end(&mut answer), Err(error) if error.kind() == std::io::ErrorKind::WouldBlock) {
            still_open += 1;
        }
    }
    assert_eq!(still_open, 0, "the server closed every half-sent head and idle connection after its header timeout");
    let log = server.log.lock().unwrap().clone();
    assert_eq!(log.matches("connection(s) since the last note").count(), 1, "named once a minute: {log}");
    assert_eq!(server.kept().len(), 1, "the upload is kept once: {:?}", server.kept());
    assert_eq!(server.runs()["runs"].as_array().unwrap().len(), 1);
}

#[test]
fn trickling_uploads_are_cut_and_do_not_hold_up_another() {
    let server = Server::start_with_file_limit(&scratch("room-trickle").join("room"), &[], FILE_LIMIT);
    let port = server.port;
    let tricklers: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(move || {
                let started = Instant::now();
                (trickle(port), started.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    let started = Instant::now();
    let (status, answer) = server.upload(&fixture_pack("seat-fast"));
    let waited = started.elapsed();
    println!("an upload beside two trickling ones took {waited:?}");
    assert_eq!((status, answer.lines().next()), (201, Some("stored as seat-fast (1 run in the room)")));
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    for trickler in tricklers {
        let (answer, took) = trickler.join().unwrap();
        println!("a trickling upload was answered after {took:?}: {answer}");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("refused: the pack arrived too slowly"), "{answer}");
        assert!(took < HEADER_TIMEOUT_AND_MARGIN, "cut within seconds: {took:?}");
    }
    assert_eq!(server.kept(), ["0001-seat-fast.contention-pack"], "nothing else stored");
    assert_eq!(std::fs::read_dir(server.dir.join(".incoming")).unwrap().count(), 0, "no staged file left");
}

#[cfg(target_os = "linux")]
#[test]
fn one_address_holds_at_most_four_receiving_slots() {
    use common::room::{connect_from, http_on};
    use std::sync::atomic::{AtomicBool, Ordering};
    let server = Server::start(&scratch("room-slots").join("room"), &[]);
    let (port, stop) = (server.port, std::sync::Arc::new(AtomicBool::new(false)));
    let tricklers: Vec<_> = (0..4)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || steady_trickle(port, &stop))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    let (status, answer) = server.upload(&fixture_pack("seat-fifth"));
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer.starts_with("refused: 127.0.0.1 is sending 4 uploads at once, the most one address may"),
        "{answer}"
    );
    let path = format!("/runs?code={CODE}");
    let started = Instant::now();
    let (status, answer) =
        http_on(connect_from([127, 0, 0, 2], port).unwrap(), port, "POST", &path, &fixture_pack("seat-other"));
    assert_eq!(status, 201, "another address still sends: {}", String::from_utf8_lossy(&answer));
    println!("an upload from another address beside four steady trickles took {:?}", started.elapsed());
    stop.store(true, Ordering::Relaxed);
    tricklers.into_iter().for_each(|trickler| trickler.join().unwrap());
    assert_eq!(server.upload(&fixture_pack("seat-fifth")).0, 201, "the address's slots are free again");
}

/// An upload's head, then its body at just over the room's minimum rate (36 KiB a second),
/// until `stop`: it holds its receiving slot all the while.
#[cfg(target_os = "linux")] // as its one caller
fn steady_trickle(port: u16, stop: &std::sync::atomic::AtomicBool) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let head = format!("POST /runs?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 4000000\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        if stream.write_all(&[b'c'; 36 << 10]).is_err() {
            return;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

#[test]
fn a_client_that_never_reads_its_answer_is_closed() {
    let server = Server::start(&scratch("room-unread").join("room"), &[]);
    assert_eq!(server.upload(&fixture_pack("seat-big")).0, 201);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // Pipelined asks for the pack (tens of MB in all), none of it read: the server's writes stall.
    let ask = "GET /runs/seat-big.contention-pack HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".repeat(600);
    stream.write_all(ask.as_bytes()).unwrap();
    let started = Instant::now();
    let closed = "closed a connection that read nothing of its answer for 10 s";
    while !server.log.lock().unwrap().contains(closed) {
        assert!(started.elapsed() < Duration::from_secs(60), "no close within 60 s: {}", server.log.lock().unwrap());
        std::thread::sleep(Duration::from_millis(200));
    }
    println!("the unread connection was closed {:?} after its asks", started.elapsed());
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut sink = vec![0u8; 1 << 16];
    let ended = loop {
        match stream.read(&mut sink) {
            Ok(0) => break Ok(()),
            Ok(_) => continue,
            Err(error) => break Err(error),
        }
    };
    assert!(
        !matches!(&ended, Err(error) if matches!(error.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
        "the connection ended (closed or reset), not left open: {ended:?}"
    );
    assert_eq!(server.request("GET", "/runs", b"").0, 200, "the room still answers");
}

/// Sends an upload's head, then its body a byte a second, until the room answers: the answer.
fn trickle(port: u16) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let head = format!(
        "POST /runs?code={CODE} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    let mut answer = Vec::new();
    for _ in 0..30 {
        if stream.write_all(b"c").is_err() {
            break;
        }
        let mut chunk = [0u8; 4096];
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => {
                answer.extend_from_slice(&chunk[..read]);
                let _ = stream.read_to_end(&mut answer);
                break;
            }
            Err(_) => {}
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}
