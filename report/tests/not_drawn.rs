//! Issue 35, item 1, end to end: a run whose rows leave a chart nothing to draw (the locks
//! at read share 0, a documented value) is valid input. `run` saves it and exits 0; the
//! page, markdown, JSON, `--compare` (two runs, and the room of three) render it with a
//! note where the chart would be and every other run whole; the live room stores it and
//! keeps serving `/` and the seat's page.

mod common;

use std::path::{Path, PathBuf};

use common::room::{fixture_pack, Server};
use common::*;

const NOTE: &str = "is not drawn: no reads to chart at read share 0";

/// `run locks` at read share 0 into `out`: it exits 0, the chart's note in what it printed.
fn read_share_zero_run(out: &Path) -> PathBuf {
    let out_arg = out.to_str().unwrap();
    let args =
        ["run", "locks", "--quick", "--no-java", "--cases", "read-mostly", "--read-share", "0", "--out", out_arg];
    let output = contention(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(NOTE), "{}", stdout(&output));
    only_run_folder(out)
}

fn report(args: &[&str]) -> String {
    let output = contention(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

#[test]
fn every_renderer_notes_the_chart_and_shows_the_other_runs_whole() {
    let out = scratch("not-drawn-pages");
    let run = read_share_zero_run(&out.join("runs"));
    let run_arg = run.to_str().unwrap();
    for format in ["html", "markdown", "json"] {
        let text = report(&["report", "--from", run_arg, "--format", format, "--out", "-"]);
        assert!(text.contains(NOTE), "{format}: no note");
    }
    // Beside the fixture, whose every chart is still drawn; three runs make the room.
    let second_fixture = fixture_copy("not-drawn-second");
    let fixture_arg = fixture().to_str().unwrap().to_string();
    let json = report(&["report", "--compare", &fixture_arg, run_arg, "--format", "json", "--out", "-"]);
    let alone = report(&["report", "--from", &fixture_arg, "--format", "json", "--out", "-"]);
    assert!(json.contains(NOTE), "the compare page notes the chart");
    let figures = |text: &str| text.matches("\"svg\":").count();
    assert!(figures(&json) >= figures(&alone), "the fixture's figures are all drawn beside it");
    let mut three = vec!["report", "--compare", &fixture_arg, run_arg];
    three.extend([second_fixture.to_str().unwrap(), "--out", "-"]);
    let html = report(&three);
    assert!(html.contains(NOTE) && html.contains("<section id=\"room\""), "the room section renders");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_room_keeps_and_serves_such_a_run() {
    let out = scratch("not-drawn-room");
    let run = read_share_zero_run(&out.join("runs"));
    let pack = out.join("zero.contention-pack");
    let packed = contention(&["pack", run.to_str().unwrap(), "--out", pack.to_str().unwrap()]);
    assert!(packed.status.success(), "{}", stderr(&packed));
    let server = Server::start(&out.join("room"), &[]);
    for body in [fixture_pack("seat-1"), std::fs::read(&pack).unwrap(), fixture_pack("seat-2")] {
        let (status, answer) = server.upload(&body);
        assert_eq!(status, 201, "{answer}");
    }
    assert_eq!(server.kept().len(), 3, "{:?}", server.kept());
    // The class page names no seat's charts; the seat's own page does.
    let pack_path = server.runs()["runs"][1]["pack"].as_str().unwrap().to_string();
    let seat_page = pack_path.replace("/runs/", "/seats/").replace(".contention-pack", "");
    let (status, page) = server.request("GET", &seat_page, b"");
    assert_eq!(status, 200, "{seat_page}: {page}");
    assert!(page.contains(NOTE), "{seat_page} notes the chart");
    drop(server);
    // Across a restart too: the stored run is read back and served.
    let server = Server::start(&out.join("room"), &[]);
    assert_eq!(server.request("GET", &seat_page, b"").0, 200);
    drop(server);
    std::fs::remove_dir_all(&out).unwrap();
}
