//! The room's ledger and its space, over real HTTP on loopback: a seat sent twice, then
//! removed, stays removed across a restart (the older, superseded run does not come back);
//! one seat's re-sends stop at its share of the room and never keep another seat from
//! sending; the teacher's purge frees the space, and the class page says what the room
//! holds. Traffic is bounded (about 25 requests).

mod common;

use common::room::{Server, KEY};
use common::seats::seat_pack;
use common::*;

/// Each status `GET /runs` lists for `label`, in arrival order.
fn statuses(server: &Server, label: &str) -> Vec<String> {
    let runs = server.runs();
    let runs = runs["runs"].as_array().unwrap().iter().filter(|run| run["label"] == label);
    runs.map(|run| run["status"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_removed_seat_stays_removed_across_a_restart() {
    let dir = scratch("room-removed").join("room");
    let server = Server::start(&dir, &["--seats", "25"]);
    assert_eq!(server.upload(&seat_pack(8)).0, 201);
    assert_eq!(server.upload(&seat_pack(8)).0, 201);
    let (status, answer) = server.request("DELETE", &format!("/runs/seat-08?key={KEY}"), b"");
    assert_eq!((status, answer.as_str()), (200, "removed seat-08\n"));
    assert_eq!(statuses(&server, "seat-08"), ["superseded", "removed"]);
    assert!(server.stop().success());
    let server = Server::start(&dir, &["--seats", "25"]);
    assert_eq!(statuses(&server, "seat-08"), ["superseded", "removed"], "the ledger's statuses, as they were");
    let (_, page) = server.request("GET", "/", b"");
    assert!(!page.contains("href=\"seats/seat-08\""), "no run of seat-08 is shown after the restart");
}

#[test]
fn one_seats_resends_stop_at_its_share_and_a_purge_frees_them() {
    let pack = seat_pack(1);
    let size = pack.len() as u64 + 1024;
    let dir = scratch("room-space").join("room");
    let flags = [size.to_string(), (3 * size).to_string(), (5 * size).to_string()];
    let server =
        Server::start(&dir, &["--max-upload", &flags[0], "--max-seat-bytes", &flags[1], "--max-room-bytes", &flags[2]]);
    assert!(server.log.lock().unwrap().contains("space: 0 B of "), "the start prints the room's space");
    let sent: Vec<(u16, String)> = (0..8).map(|_| server.upload(&pack)).collect();
    assert!(sent[..3].iter().all(|(status, _)| *status == 201), "{sent:?}");
    for (status, answer) in &sent[3..] {
        assert_eq!(*status, 507, "{answer}");
        assert!(answer.contains("seat-01 has sent ") && answer.contains("--max-seat-bytes"), "{answer}");
    }
    assert_eq!(server.upload(&seat_pack(2)).0, 201, "another seat still sends");
    let (_, page) = server.request("GET", "/", b"");
    assert!(
        page.contains("The room&#x27;s folder holds") || page.contains("The room's folder holds"),
        "the class page shows the room's use"
    );

    let (status, answer) = server.request("POST", "/purge?code=wrong-code", b"");
    assert_eq!(status, 401, "{answer}");
    let (status, answer) = server.request("POST", &format!("/purge?key={KEY}"), b"");
    assert_eq!(status, 200, "{answer}");
    assert!(answer.starts_with("purged 2 superseded or removed runs"), "{answer}");
    assert_eq!(statuses(&server, "seat-01"), ["shown"]);
    assert_eq!(server.upload(&pack).0, 201, "the purge freed seat-01's share");
    assert_eq!(server.kept().len(), 3, "seat-01's two runs and seat-02's: the purged packs left the folder");
}
