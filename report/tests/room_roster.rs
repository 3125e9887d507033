//! The room's roster, its one download and a seat's guesses from the command line, over
//! real HTTP on loopback: `room serve --seats` names who is missing and who is not on the
//! roster; `GET /class.tar` read back by `report --from` (the archive, and the folder `tar
//! xf` makes of it) rebuilds the same class page; a corrupt archive, a bad roster and a bad
//! guess are refused naming the value; `room predict` keeps guesses the reveal shows.
//! Traffic is bounded (about 20 requests).

mod common;

use std::path::Path;
use std::process::Command;

use common::room::{Server, CODE, KEY};
use common::seats::seat_pack;
use common::*;

/// The class page's parts a rebuild must give again: the class's sentences, the roster, and
/// the seats' rows with their links (live only) taken out.
fn class_parts(page: &str) -> Vec<String> {
    let rows = &page[page.find("<tbody>").expect("the seats' table")..page.find("</tbody>").unwrap()];
    let mut unlinked = String::new();
    for piece in rows.split("<a href=\"") {
        match piece.split_once("\">") {
            Some((_, rest)) if !unlinked.is_empty() => unlinked.push_str(&rest.replacen("</a>", "", 1)),
            _ => unlinked.push_str(piece),
        }
    }
    vec![html_section(page, "class-summary").to_string(), html_section(page, "roster").to_string(), unlinked]
}

fn report_from(from: &Path, out: &Path) -> std::process::Output {
    contention(&["report", "--from", from.to_str().unwrap(), "--out", out.to_str().unwrap()])
}

#[test]
fn the_roster_and_the_class_download_rebuild_the_page_offline() {
    let dir = scratch("room-roster");
    let server = Server::start(&dir.join("room"), &["--seats", "4"]);
    for index in [1, 2, 30, 1] {
        assert_eq!(server.upload(&seat_pack(index)).0, 201);
    }
    let (status, page) = server.request("GET", "/", b"");
    assert_eq!(status, 200);
    let roster = html_section(&page, "roster");
    assert!(roster.contains("2 of 4 seats have sent a run."), "{roster}");
    assert!(roster.contains("<span class=\"seat\">seat-03</span>, <span class=\"seat\">seat-04</span>"), "{roster}");
    assert!(roster.contains("Sent, not on the roster: seat-30"), "{roster}");
    assert!(page.find("id=\"class-summary\"") < page.find("id=\"roster\""), "the class's comparison comes first");

    assert_eq!(common::room::http(server.port, "GET", "/class.tar", b"").0, 401, "the class download is the teacher's");
    assert_eq!(common::room::http(server.port, "GET", &format!("/class.tar?key={CODE}"), b"").0, 403);
    let (status, tar) = common::room::http(server.port, "GET", &format!("/class.tar?key={KEY}"), b"");
    assert_eq!(status, 200);
    let archive = dir.join("class.tar");
    std::fs::write(&archive, &tar).unwrap();
    let listed = Command::new("tar").arg("tf").arg(&archive).output().expect("tar runs");
    let expected =
        "class/roster.txt\nclass/0001.contention-pack\nclass/0002.contention-pack\nclass/0003.contention-pack\n";
    assert_eq!(stdout(&listed), expected, "the roster and the three shown runs, the superseded one left out");

    let offline = dir.join("offline.html");
    let output = report_from(&archive, &offline);
    assert!(output.status.success(), "{}", stderr(&output));
    let rebuilt = std::fs::read_to_string(&offline).unwrap();
    assert_eq!(class_parts(&rebuilt), class_parts(&page), "the same class page, offline");
    assert!(!rebuilt.contains("id=\"live-room\"") && !rebuilt.contains("href=\"projector\""), "no live parts offline");

    let unpacked = dir.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    assert!(Command::new("tar").arg("xf").arg(&archive).arg("-C").arg(&unpacked).status().unwrap().success());
    let from_folder = dir.join("from-folder.html");
    let output = report_from(&unpacked.join("class"), &from_folder);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(class_parts(&std::fs::read_to_string(&from_folder).unwrap()), class_parts(&page), "the folder too");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/passwd", unpacked.join("class/0009.contention-pack")).unwrap();
        let output = report_from(&unpacked.join("class"), &dir.join("linked.html"));
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains("0009.contention-pack is a symbolic link"), "{}", stderr(&output));
    }

    let mut corrupt = tar.clone();
    corrupt[0] ^= 0x20;
    std::fs::write(&archive, &corrupt).unwrap();
    let refused_out = dir.join("refused.html");
    let output = report_from(&archive, &refused_out);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("class.tar: an entry's checksum is"), "{}", stderr(&output));
    assert!(!refused_out.exists(), "nothing written for a refused archive");
    let output = contention(&["report", "--from", archive.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("invalid format = json: a class"), "{}", stderr(&output));

    let (status, _) = server.request("GET", "/room.html", b"");
    assert_eq!(status, 308, "the old page's address leads to the class page");
}

#[test]
fn a_bad_roster_is_refused_naming_it() {
    let dir = scratch("room-roster-bad");
    let names = dir.join("names.txt");
    std::fs::write(&names, "ada\ngrace\nada\n").unwrap();
    for (given, expected) in [
        ("0", "invalid seats = 0: 1 to 500 seats, or a file of names"),
        ("501", "invalid seats = 501: 1 to 500 seats"),
        (names.to_str().unwrap(), "names.txt: line 3: \"ada\" is named twice; each seat once"),
        ("no-such-file.txt", "invalid seats = no-such-file.txt: "),
    ] {
        let output = contention(&["room", "serve", "--port", "0", "--dir", dir.to_str().unwrap(), "--seats", given]);
        assert_eq!(output.status.code(), Some(2), "{given}: {}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{given}: {}", stderr(&output));
    }
}

#[test]
fn room_predict_sends_guesses_the_reveal_shows() {
    let dir = scratch("room-predict");
    let server = Server::start(&dir.join("room"), &["--seats", "3"]);
    let url = server.url();
    let predict = |code: &str, guesses: &[&str]| {
        let mut args = vec!["room", "predict", "--send", &url, "--code", code, "--seat", "seat-01"];
        args.extend_from_slice(guesses);
        contention(&args)
    };
    let output = predict(CODE, &["false-sharing=2.5", "stride=1.5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("kept 2 guesses of seat-01"), "{}", stdout(&output));

    let output = predict(CODE, &["speed=2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("invalid effect = speed: one of two-threads, stride, false-sharing"),
        "{}",
        stderr(&output)
    );
    let output = predict(CODE, &["false-sharing=-1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("invalid guess = false-sharing=-1: a positive number"), "{}", stderr(&output));
    let output = predict(CODE, &["false-sharing"]);
    assert!(stderr(&output).contains("EFFECT=VALUE, EFFECT one of two-threads, stride, "), "{}", stderr(&output));
    let output = predict("wrong-code", &["false-sharing=9"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("answered 401: refused: wrong room code"), "{}", stderr(&output));
    // The seat's run, sent after its guesses from the laptop that holds the seat's token.
    let pack = dir.join("seat-01.contention-pack");
    std::fs::write(&pack, seat_pack(1)).unwrap();
    let output = contention(&["pack", pack.to_str().unwrap(), "--send", &url, "--code", CODE]);
    assert!(output.status.success(), "the guessing laptop's token sends its run: {}", stderr(&output));
    let output = predict(CODE, &["false-sharing=3"]);
    assert!(stderr(&output).contains("answered 409: refused: seat-01's guess is locked"), "{}", stderr(&output));

    assert_eq!(server.request("POST", &format!("/reveal?key={KEY}&shown=yes"), b"").0, 200);
    let projector = server.request("GET", "/projector", b"").1;
    assert!(projector.contains("(guess 2.50x)"), "the guess sent from the command line shows after the reveal");
}
