//! A benchmark, not a test (ignored; `cargo test --release -p contention-report --test
//! room_bench -- --ignored --nocapture`): 200 seats sent from 200 loopback addresses
//! (127.0.0.2 onward) to a room with a roster of 200, then the class page's size, the
//! time of a GET of it (the first, which renders, and the median of five more, served from
//! the rendering), the class archive's size and time, and the server's peak resident memory. It prints the figures and asserts
//! only that every seat was kept and shown: timings on a shared machine are not a pass or
//! a fail.

// The figures go to its log.
#![allow(clippy::print_stdout)]
// Binding to 127.0.0.2 and onward (a source address per seat) is Linux's alone.
#![cfg(target_os = "linux")]

mod common;

use std::time::Instant;

use common::room::{connect_from, http_with, peak_rss_kib, Server, CODE};
use common::seats::{seat_label, seat_pack};
use common::*;

const SEATS: usize = 200;

#[test]
#[ignore = "a benchmark: run it with --ignored and read the figures it prints"]
fn two_hundred_seats_from_two_hundred_addresses() {
    let server = Server::start(&scratch("room-bench").join("room"), &["--seats", &SEATS.to_string()]);
    // Each laptop guesses before it measures (a guess after its run is refused) and keeps the
    // seat token its first post was handed, as `contention guess` and `send` do.
    let mut tokens = Vec::with_capacity(SEATS);
    for index in 1..=SEATS {
        let source = [127, 0, (1 + index / 250) as u8, (1 + index % 250) as u8];
        let stream = connect_from(source, server.port).expect("a loopback address of its own");
        let guesses = format!("false-sharing={} padded={}", 1.0 + index as f64 / 50.0, 1.0 + index as f64 / 100.0);
        let path = format!("/guesses?code={CODE}&seat={}", seat_label(index));
        let answer = http_with(stream, server.port, ("POST", &path), guesses.as_bytes(), &[]);
        assert_eq!(answer.status, 200, "{}", answer.body);
        tokens.push(answer.header("x-seat-token").expect("the room hands a seat's first post its token"));
    }
    for (index, token) in (1..=SEATS).zip(&tokens) {
        let source = [127, 0, (1 + index / 250) as u8, (1 + index % 250) as u8];
        let stream = connect_from(source, server.port).expect("a loopback address of its own");
        let path = format!("/runs?code={CODE}");
        let answer = http_with(stream, server.port, ("POST", &path), &seat_pack(index), &[("X-Seat-Token", token)]);
        assert_eq!(answer.status, 201, "{}", answer.body);
    }
    let timed_get = || {
        let started = Instant::now();
        let (status, page) = server.request("GET", "/", b"");
        assert_eq!(status, 200);
        (started.elapsed(), page)
    };
    let (first, page) = timed_get();
    for index in 1..=SEATS {
        assert!(page.contains(&format!("<tr data-seat=\"{}\">", seat_label(index))), "seat {index} is shown");
    }
    assert!(page.contains("200 of 200 seats have sent a run."), "the roster has every seat");
    let mut again: Vec<_> = (0..5).map(|_| timed_get().0).collect();
    again.sort();
    assert_eq!(server.request("POST", &format!("/reveal?key={}&shown=yes", common::room::KEY), b"").0, 200);
    let (started, (status, projector)) = (Instant::now(), server.request("GET", "/projector", b""));
    let projector_time = started.elapsed();
    assert_eq!(status, 200);
    let started = Instant::now();
    let (status, archive) =
        common::room::http(server.port, "GET", &format!("/class.tar?key={}", common::room::KEY), b"");
    let archive_time = started.elapsed();
    assert_eq!(status, 200);
    println!(
        "{SEATS} seats: class page {} bytes, first GET {:?} (renders), then median {:?}; projector with {SEATS} seats' \
         revealed guesses {} bytes in {:?}; \
         class.tar {} bytes in {:?}; server peak RSS {} MiB",
        page.len(),
        first,
        again[2],
        projector.len(),
        projector_time,
        archive.len(),
        archive_time,
        peak_rss_kib(server.pid()) / 1024
    );
}

#[test]
#[ignore = "a benchmark: run it with --ignored and read the figures it prints"]
fn a_full_room_restarts_from_its_ledger() {
    let dir = scratch("room-bench-full").join("room");
    let flags = ["--max-uploads-per-minute", "100000", "--max-room-bytes", "134217728", "--seats", "200"];
    let server = Server::start(&dir, &flags);
    let mut sent = 0;
    // A seat's later uploads carry the token its first was handed, as a laptop's do.
    let mut tokens: Vec<Option<String>> = vec![None; SEATS];
    'filling: for round in 0.. {
        for (index, token) in (1..=SEATS).zip(tokens.iter_mut()) {
            let source = [127, 0, (1 + index / 250) as u8, (1 + index % 250) as u8];
            let stream = connect_from(source, server.port).expect("a loopback address of its own");
            let headers: Vec<(&str, &str)> = token.iter().map(|held| ("X-Seat-Token", held.as_str())).collect();
            let path = format!("/runs?code={CODE}");
            let answer = http_with(stream, server.port, ("POST", &path), &seat_pack(index), &headers);
            match answer.status {
                201 => sent += 1,
                507 => break 'filling,
                _ => panic!("round {round}: {}", answer.body),
            }
            *token = answer.header("x-seat-token").or(token.take());
        }
    }
    assert!(server.stop().success());
    let bytes: u64 = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().metadata().unwrap().len()).sum();
    let started = Instant::now();
    let server = Server::start(&dir, &flags);
    let restart = started.elapsed();
    assert_eq!(server.runs()["runs"].as_array().unwrap().len(), sent, "every pack is listed again");
    println!("a full room: {sent} packs, {} MiB in its folder; restart to listening in {restart:?}", bytes >> 20);
}
