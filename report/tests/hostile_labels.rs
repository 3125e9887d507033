//! Issue 25, items 6 and 7: a label read from a pack is checked as `--label` is (length,
//! control characters, bidirectional overrides, the room's own "room median"), and every
//! text from outside is escaped for markdown: no raw HTML, no link, no heading, no row.

mod common;

use common::packs::*;
use common::*;

#[test]
fn labels_from_packs_are_checked_as_the_flag_is() {
    let dir = scratch("hostile-labels");
    let long = "x".repeat(10_000);
    let labels = ["a\nb", long.as_str(), "a\u{7}b", "seat \u{202E}21", "room median", "Room Median", "  "];
    for label in labels {
        let mut files = fixture_files();
        edit_manifest(&mut files, |manifest| manifest["label"] = label.into());
        let pack = write_pack(&dir, "label.contention-pack", &files);
        let twin = write_pack(&dir, "twin.contention-pack", &fixture_files());
        let args = ["report", "--compare", pack.to_str().unwrap(), twin.to_str().unwrap()];
        let output = contention(&[&args[..], &["--out", "-", "--format", "markdown"]].concat());
        assert_eq!(output.status.code(), Some(0), "{label:?}: {}", stderr(&output));
        let said = stderr(&output);
        assert!(said.contains("label.contention-pack/manifest.json, label: "), "{label:?}: {said}");
        let page = stdout(&output);
        let machines = page.lines().find(|line| line.starts_with("Measured on ")).unwrap();
        assert_eq!(machines, "Measured on vm (2026-12-01 18:01 UTC).", "{label:?}: only the twin is shown");
        // The room table (three runs read) names its own row: a run may not take its label.
        let mut args = args.to_vec();
        let (fixture, third) = (fixture(), write_pack(&dir, "third.contention-pack", &fixture_files()));
        args.extend([fixture.to_str().unwrap(), third.to_str().unwrap()]);
        let output = contention(&[&args[..], &["--out", "-", "--format", "markdown"]].concat());
        assert_eq!(output.status.code(), Some(0), "{label:?}: {}", stderr(&output));
        assert_eq!(stdout(&output).matches("| room median |").count(), 1, "{label:?}");
    }
    for label in ["seat \u{202E}21", "room median", "a\u{7}b"] {
        let output = contention(&["run", "stride", "--quick", "--label", label, "--out", dir.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{label:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("invalid label = \""), "{}", stderr(&output));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn markdown_escapes_labels_and_failure_texts() {
    let dir = scratch("hostile-markdown");
    let mut script = fixture_files();
    edit_manifest(&mut script, |manifest| {
        manifest["label"] = "<script>alert(1)</script>".into();
        manifest["experiments"][1]["state"] = "failed".into();
        manifest["experiments"][1]["failure"] =
            "<script>x</script>\n# injected\n| a | b |\n[x](javascript:alert(1))".into();
    });
    let mut link = fixture_files();
    edit_manifest(&mut link, |manifest| manifest["label"] = "[x](javascript:alert(1))".into());
    let script = write_pack(&dir, "script.contention-pack", &script);
    let link = write_pack(&dir, "link.contention-pack", &link);
    let out = dir.join("report.md");
    let output = contention(&[
        "report",
        "--compare",
        script.to_str().unwrap(),
        link.to_str().unwrap(),
        "--format",
        "markdown",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let markdown = std::fs::read_to_string(&out).unwrap();
    assert!(markdown.contains("\\<script\\>alert(1)\\</script\\>"), "the label is shown, escaped");
    assert!(!markdown.contains("<script>"), "no raw HTML");
    assert!(!markdown.contains("[x]("), "no link");
    assert!(!markdown.lines().any(|line| line.starts_with("# injected") || line.starts_with("| a | b |")));
    std::fs::remove_dir_all(&dir).unwrap();
}
