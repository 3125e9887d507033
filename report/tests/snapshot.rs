//! The page rendered from the fixture run, compared with the reviewed snapshot so every
//! template change shows up in review. Refresh after an intended change with
//! `UPDATE_SNAPSHOTS=1 cargo test --release -p contention-report --test snapshot` and read the diff.

use std::path::Path;
use std::process::Command;

const SNAPSHOT: &str = "tests/snapshots/report-fixture.html";

/// Replaces the render time, the only part of the page that changes between renders.
fn mask_timestamps(html: &str) -> String {
    let marker = "Generated ";
    let mut masked = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(marker) {
        let after = &rest[start + marker.len()..];
        let end = after.find('Z').map_or(0, |z| z + 1);
        masked.push_str(&rest[..start + marker.len()]);
        masked.push_str("<TIMESTAMP>");
        rest = &after[end..];
    }
    masked.push_str(rest);
    masked
}

#[test]
fn page_from_fixture_matches_snapshot() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("contention-snapshot-{}.html", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_contention"))
        .current_dir(crate_dir)
        .args(["report", "--from", "tests/fixtures/run-fixture", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rendered = mask_timestamps(&std::fs::read_to_string(&out).unwrap());
    std::fs::remove_file(&out).unwrap();
    let snapshot_path = crate_dir.join(SNAPSHOT);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot_path, &rendered).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&snapshot_path).unwrap_or_default();
    if rendered != expected {
        let line = rendered.lines().zip(expected.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
        panic!(
            "the page differs from {SNAPSHOT} (first at line {line}); if the change is intended, run \
             UPDATE_SNAPSHOTS=1 cargo test --release -p contention-report --test snapshot and review the diff"
        );
    }
}

#[test]
fn masking_hides_only_the_render_time() {
    assert_eq!(
        mask_timestamps("<p>Generated 2026-11-29T21:40:20Z from vm (2026-11-29).</p>"),
        "<p>Generated <TIMESTAMP> from vm (2026-11-29).</p>"
    );
}
