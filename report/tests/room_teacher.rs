//! Who may do what in a room: a class of 25 seats and one teacher on loopback. Each seat
//! guesses, then sends its run, holding the token its first guess was handed. A student's
//! class code then tries what only the teacher may (remove a run, reveal, free a seat, open
//! a part, download the class, see the teacher's page) and what only a seat's own laptop may
//! (replace another seat's run, guess for another seat): each is refused with why, and the
//! room is read back to check nothing changed. A guess is locked once its seat's run
//! arrives and once its part is revealed. The teacher key does each, and a restart keeps
//! the part, the reveal, the guesses and the tokens. Bounded traffic (about 90 requests).
#![allow(clippy::print_stdout)] // the test prints the pages' sizes with 25 seats, for the record

mod common;

use common::room::{Server, CODE, KEY};
use common::seats::{seat_label, seat_pack};
use common::*;

const SEATS: usize = 25;

/// The statuses of the runs labelled `label`, in arrival order.
fn statuses(server: &Server, label: &str) -> Vec<String> {
    let runs = server.runs();
    let runs = runs["runs"].as_array().unwrap();
    runs.iter().filter(|run| run["label"] == label).map(|run| run["status"].as_str().unwrap().to_string()).collect()
}

/// A class of 25 whose every seat guessed false sharing (1.5x + a tenth per seat), then sent.
fn class_of_25(server: &Server) {
    for index in 1..=SEATS {
        let guess = format!("false-sharing={}", 1.5 + index as f64 / 10.0);
        let (status, answer) = server.guess(&seat_label(index), &guess);
        assert_eq!(status, 200, "{answer}");
        assert!(answer.contains("\nseat token: "), "the first guess hands a token: {answer}");
        let (status, answer) = server.upload(&seat_pack(index));
        assert_eq!(status, 201, "the seat's own laptop sends with its token: {answer}");
    }
}

#[test]
fn a_students_code_changes_only_its_own_seat_and_the_teachers_key_does_the_rest() {
    let dir = scratch("room-teacher").join("room");
    let server = Server::start(&dir, &["--seats", "25", "--max-uploads-per-minute", "500"]);
    let banner = server.log.lock().unwrap().clone();
    assert!(banner.contains(&format!("teacher key: {KEY} (yours alone")), "{banner}");
    class_of_25(&server);
    let (class_page, projector) = (server.request("GET", "/", b"").1, server.request("GET", "/projector", b"").1);
    println!("with {SEATS} seats: class page {} bytes, projector {} bytes", class_page.len(), projector.len());
    assert!(!class_page.contains("id=\"teacher\"") && !class_page.contains("class.tar"), "no teacher controls");
    assert!(!projector.contains("id=\"controls\""), "no teacher controls on a student's projector");

    // What only the teacher does, with the class code: refused, and the room unchanged.
    let refusals = [
        ("DELETE", format!("/runs/seat-02.contention-pack?key={CODE}"), 403, "that is the class code"),
        ("DELETE", format!("/runs/seat-02?code={CODE}"), 401, "only the teacher does this"),
        ("POST", format!("/reveal?code={CODE}&shown=yes"), 401, "only the teacher does this"),
        ("POST", format!("/reveal?key={CODE}&shown=yes"), 403, "that is the class code"),
        ("POST", format!("/free?key={CODE}&seat=seat-02"), 403, "that is the class code"),
        ("POST", format!("/parts?key={CODE}&part=sharing&screen=reveal"), 403, "that is the class code"),
        ("GET", format!("/class.tar?key={CODE}"), 403, "that is the class code"),
        ("GET", "/class.tar".to_string(), 401, "only the teacher does this"),
        ("GET", format!("/?key={CODE}"), 403, "that is the class code"),
    ];
    for (method, path, status, why) in refusals {
        let (got, answer) = server.request(method, &path, b"");
        assert_eq!(got, status, "{method} {path}: {answer}");
        assert!(answer.starts_with(&format!("refused: {why}")), "{method} {path}: {answer}");
    }
    assert_eq!(statuses(&server, "seat-02"), ["shown"], "seat-02's run is still shown");
    let hidden = server.request("GET", "/projector", b"").1;
    assert!(!hidden.contains("(guess "), "the guesses are still hidden");
    assert!(hidden.contains("25 seats guessed this effect; the guesses are shown at the reveal."), "no part opened");

    // What only a seat's own laptop does, from another laptop: refused, the seat unchanged.
    let (status, answer) = server.request("POST", &format!("/runs?code={CODE}"), &seat_pack(2));
    assert_eq!(status, 403, "{answer}");
    assert!(answer.starts_with("refused: seat-02 is held by the laptop that first sent or guessed for it, and this request carries no seat token"), "{answer}");
    let other = server.request_with(
        "POST",
        &format!("/runs?code={CODE}"),
        &seat_pack(2),
        &[("X-Seat-Token", "abcdefghjkmnpqrs")],
    );
    assert_eq!(other.status, 403);
    assert!(other.body.contains("carries another seat token"), "{}", other.body);
    assert!(other.header("x-seat-token").is_none(), "a refusal hands out no token");
    assert_eq!(statuses(&server, "seat-02"), ["shown"], "no second run of seat-02 was kept");
    let (status, answer) = server.request("POST", &format!("/guesses?code={CODE}&seat=seat-02"), b"stride=9");
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("seat-02 is held by the laptop"), "{answer}");

    // A seat's own guess is locked once its run with that effect has arrived.
    let (status, answer) = server.guess("seat-01", "false-sharing=9");
    assert_eq!(status, 409, "{answer}");
    assert!(answer.starts_with("refused: seat-01's guess is locked: seat-01's run with false-sharing has arrived"));

    // The teacher key does each.
    let (status, answer) = server.request("DELETE", &format!("/runs/seat-03?key={KEY}"), b"");
    assert_eq!((status, answer.as_str()), (200, "removed seat-03\n"));
    let (status, answer) = server.request("POST", &format!("/guesses?key={KEY}&seat=seat-03"), b"false-sharing=7");
    assert_eq!((status, answer.as_str()), (200, "kept 1 guesses of seat-03\n"), "for another seat, no token handed");
    let (status, answer) = server.request("POST", &format!("/runs?key={KEY}"), &seat_pack(4));
    assert_eq!(status, 201, "{answer}");
    assert_eq!(statuses(&server, "seat-04"), ["superseded", "shown"], "the teacher replaced seat-04's run");
    let (status, answer) = server.request("POST", &format!("/free?key={KEY}&seat=seat-06"), b"");
    assert_eq!((status, answer.as_str()), (200, "freed seat-06: its next send or guess gets a new token\n"));
    let (status, answer) = server.request("POST", &format!("/runs?code={CODE}"), &seat_pack(6));
    assert_eq!(status, 201, "a freed seat takes a new laptop's run: {answer}");
    assert!(answer.contains("seat token: "), "{answer}");
    let (status, class_tar) = server.request("GET", &format!("/class.tar?key={KEY}"), b"");
    assert!(status == 200 && !class_tar.is_empty());
    let teacher_page = server.request("GET", &format!("/?key={KEY}"), b"").1;
    assert!(teacher_page.contains("id=\"teacher\"") && teacher_page.contains("class.tar"), "the teacher's controls");
    let (status, answer) = server.request("POST", &format!("/parts?key={KEY}&part=sharing&screen=question"), b"");
    assert_eq!((status, answer.as_str()), (200, "part sharing open on its question screen\n"));
    let question = server.request("GET", "/projector", b"").1;
    assert!(question.contains("25 guesses in: from 1.60x to 7.00x"), "the spread, no answer");
    assert!(!question.contains("class median"), "the question screen shows no measured figure");
    let (status, _) = server.request("POST", &format!("/parts?key={KEY}&part=sharing&screen=reveal"), b"");
    assert_eq!(status, 200);
    let (status, answer) = server.request("POST", &format!("/guesses?key={KEY}&seat=seat-03"), b"false-over-true=1");
    assert_eq!(status, 409, "the part's reveal locks its guesses: {answer}");
    let revealed = server.request("GET", "/projector", b"").1;
    assert!(revealed.contains("(guess 1.70x)"), "the reveal shows seat-02's guess beside its run");
    let seat_01_token = server.token("seat-01").expect("seat-01 holds a token");
    drop(server);

    // A restart keeps the part, the reveal, the guesses and the tokens.
    let server = Server::start(&dir, &["--seats", "25"]);
    let after = server.request("GET", "/projector", b"").1;
    assert!(after.contains("data-shown=\"sharing-reveal\"") && after.contains("(guess 1.70x)"), "part and reveal kept");
    let (status, answer) = server.request("POST", &format!("/runs?code={CODE}"), &seat_pack(1));
    assert_eq!(status, 403, "seat-01's token survived the restart: {answer}");
    let own =
        server.request_with("POST", &format!("/runs?code={CODE}"), &seat_pack(1), &[("X-Seat-Token", &seat_01_token)]);
    assert_eq!(own.status, 201, "seat-01's laptop sends again with its token: {}", own.body);
    let (status, answer) = server.request("POST", &format!("/guesses?key={KEY}&seat=seat-03"), b"false-over-true=1");
    assert_eq!(status, 409, "still locked after the restart: {answer}");
}
