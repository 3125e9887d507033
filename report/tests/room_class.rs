//! The room as a class's instrument, over real HTTP on loopback: 25 seats of different
//! machines make a class page under 1 MB with one row and one link per seat, a projector
//! view whose bars run highest first, a seat's resent run supersedes its old one, the
//! teacher removes a run with the code, and guesses stay hidden until the reveal, all
//! across a restart. Traffic is bounded (about 40 requests).

mod common;

use common::room::{Server, CODE, KEY};
use common::seats::{seat_label, seat_pack, slowdown};
use common::*;

const SEATS: usize = 25;

fn class_of(name: &str) -> (std::path::PathBuf, Server) {
    let dir = scratch(name).join("room");
    let server = Server::start(&dir, &[]);
    for index in 1..=SEATS {
        let (status, answer) = server.upload(&seat_pack(index));
        assert_eq!(status, 201, "{answer}");
    }
    (dir, server)
}

/// The seats in the order the projector's first slide draws their bars.
fn first_slide_order(projector: &str) -> Vec<String> {
    let first = &projector[projector.find("<section class=\"slide\"").expect("a slide")..];
    let first = &first[..first.find("</section>").unwrap()];
    first.split("data-seat=\"").skip(1).map(|rest| rest[..rest.find('"').unwrap()].to_string()).collect()
}

#[test]
fn a_class_of_25_is_one_page_under_1_mb_and_a_projector_in_order() {
    let (_dir, server) = class_of("room-class");
    let (status, page) = server.request("GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.len() < 1 << 20, "the class page is {} bytes", page.len());
    assert!(page.contains("Contention Lab: a class of 25 seats"));
    assert!(page.contains("False sharing over no sharing: median "), "one sentence per effect");
    assert!(page.contains("by architecture: aarch64 "), "the class is grouped by its two architectures");
    for index in 1..=SEATS {
        let label = seat_label(index);
        assert!(page.contains(&format!("<tr data-seat=\"{label}\">")), "{label} has its row");
        // The template escapes the slash, as HTML allows.
        assert!(page.contains(&format!("href=\"seats&#x2f;{label}\"")), "{label} has its link");
    }
    assert!(!page.contains("id=\"stride\""), "no seat's sections on the class page");
    assert!(page.contains("Apple M2") && page.contains("aarch64"), "the hardware columns");

    let (status, projector) = server.request("GET", "/projector", b"");
    assert_eq!(status, 200);
    assert!(projector.contains("<section class=\"slide\" id=\"stride\""), "the first effect's slide comes first");
    let (status, projector_page) = server.request("GET", "/", b"");
    assert!(status == 200 && projector_page.contains("href=\"projector\""), "the class page links the projector");
    let false_sharing = &projector[projector.find("<section class=\"slide\" id=\"false-sharing\"").unwrap()..];
    let order = first_slide_order(false_sharing);
    let mut expected: Vec<usize> = (1..=SEATS).collect();
    expected.sort_by(|a, b| slowdown(*b).total_cmp(&slowdown(*a)));
    assert_eq!(order, expected.into_iter().map(seat_label).collect::<Vec<_>>(), "bars run highest first");
    assert!(false_sharing.contains("article (A7): 3.87x"), "the article's figure as a line");

    let (status, seat) = server.request("GET", "/seats/seat-07", b"");
    assert_eq!(status, 200);
    assert!(seat.contains("id=\"stride\"") && seat.contains("seat-07"), "the seat's own report");
    assert_eq!(server.request("GET", "/seats/seat-99", b"").0, 404);
}

#[test]
fn a_resent_run_supersedes_a_removal_and_guesses_survive_a_restart() {
    let dir = scratch("room-class-ledger").join("room");
    // A roster: a seat guesses before its run arrives.
    let server = Server::start(&dir, &["--seats", "3"]);
    // Guessed before its run arrives: a guess is locked once the seat's run with it has.
    let (status, answer) = server.guess("seat-01", "false-sharing=2.5");
    assert_eq!(status, 200);
    assert!(answer.starts_with("kept 1 guesses of seat-01\nseat token: "), "{answer}");
    let (status, answer) = server.guess("seat-01", "speed=2");
    assert_eq!(status, 400);
    assert!(
        answer.starts_with("refused: invalid effect = \"speed\": one of two-threads, stride, false-sharing"),
        "{answer}"
    );
    for index in [1, 2, 1] {
        assert_eq!(server.upload(&seat_pack(index)).0, 201);
    }
    let statuses = |server: &Server| -> Vec<String> {
        let runs = server.runs();
        runs["runs"].as_array().unwrap().iter().map(|run| format!("{} {}", run["label"], run["status"])).collect()
    };
    let superseded = ["\"seat-01\" \"superseded\"", "\"seat-02\" \"shown\"", "\"seat-01\" \"shown\""];
    assert_eq!(statuses(&server), superseded);
    assert_eq!(server.kept().len(), 3, "the superseded pack stays on disk");

    assert_eq!(server.request("DELETE", "/runs/seat-02?key=wrong", b"").0, 401);
    assert_eq!(
        server.request("DELETE", &format!("/runs/seat-02?key={CODE}"), b"").0,
        403,
        "the class code removes nothing"
    );
    let (status, answer) = server.request("DELETE", &format!("/runs/seat-02?key={KEY}"), b"");
    assert_eq!((status, answer.as_str()), (200, "removed seat-02\n"));
    let hidden = server.request("GET", "/projector", b"").1;
    assert!(!hidden.contains("guess 2.50x"), "a guess is hidden before the reveal");
    assert!(hidden.contains("1 seat guessed this effect; the guesses are shown at the reveal."));
    drop(server);

    let server = Server::start(&dir, &[]);
    let removed = ["\"seat-01\" \"superseded\"", "\"seat-02\" \"removed\"", "\"seat-01\" \"shown\""];
    assert_eq!(statuses(&server), removed, "supersession and removal hold across a restart");
    assert_eq!(server.request("POST", &format!("/reveal?key={KEY}&shown=yes"), b"").0, 200);
    drop(server);
    let server = Server::start(&dir, &[]);
    let shown = server.request("GET", "/projector", b"").1;
    assert!(shown.contains("(guess 2.50x)"), "the guess kept across two restarts shows after the reveal");
    assert!(shown.contains("Guesses: median 2.50x from 1 seat"), "the class's guesses against its results");
}
