//! The report rendered from the fixture run (every experiment at quick sizes), compared with
//! the reviewed snapshots: each HTML section, the markdown and the JSON, so every change to
//! a section shows up in review. Refresh after an intended change with
//! `UPDATE_SNAPSHOTS=1 cargo test --release -p contention-report --test snapshot` and read the diff.

mod common;

use std::path::Path;

use common::*;

/// The page's sections: the summary, every experiment's (as the JSON export lists them,
/// from the lib's registry), the environment.
fn sections() -> Vec<String> {
    let json: serde_json::Value = serde_json::from_str(&render("json")).unwrap();
    let experiments =
        json["sections"].as_array().unwrap().iter().map(|section| section["experiment"].as_str().unwrap());
    let mut sections = vec!["summary".to_string()];
    sections.extend(experiments.map(str::to_string));
    sections.push("environment".into());
    sections
}

/// Replaces the render time, the only part of a report that changes between renders.
fn mask_timestamps(text: &str) -> String {
    let mut masked = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) =
        ["Generated ", "\"generated_utc\": \""].iter().filter_map(|m| rest.find(m).map(|at| at + m.len())).min()
    {
        let after = &rest[start..];
        let end = after.find('Z').map_or(0, |z| z + 1);
        masked.push_str(&rest[..start]);
        masked.push_str("<TIMESTAMP>");
        rest = &after[end..];
    }
    masked.push_str(rest);
    masked
}

/// The fixture's report in `format` (html, markdown, json), timestamps masked.
fn render(format: &str) -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contention"))
        .current_dir(crate_dir)
        .args(["report", "--from", "tests/fixtures/run-fixture", "--format", format, "--out", "-"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    mask_timestamps(&stdout(&output))
}

/// Compares `rendered` with the snapshot `name`, or rewrites it under UPDATE_SNAPSHOTS.
fn check(name: &str, rendered: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, rendered).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if rendered != expected {
        let line = rendered.lines().zip(expected.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
        panic!(
            "{name} differs from its snapshot (first at line {line}); if the change is intended, run \
             UPDATE_SNAPSHOTS=1 cargo test --release -p contention-report --test snapshot and review the diff"
        );
    }
}

#[test]
fn every_html_section_matches_its_snapshot() {
    let html = render("html");
    for id in sections() {
        check(&format!("html/{id}.html"), html_section(&html, &id));
    }
}

#[test]
fn every_section_is_measured_in_the_fixture() {
    let html = render("html");
    let sections = sections();
    assert!(sections.len() > 2, "{sections:?}");
    for id in &sections[1..sections.len() - 1] {
        assert!(!html_section(&html, id).contains("Not measured"), "the fixture measured {id}");
    }
}

#[test]
fn markdown_matches_its_snapshot() {
    check("report.md", &render("markdown"));
}

#[test]
fn json_matches_its_snapshot() {
    check("report.json", &render("json"));
}

#[test]
fn masking_hides_only_the_render_time() {
    assert_eq!(
        mask_timestamps("<p>Generated 2026-11-29T21:40:20Z from vm (2026-11-29).</p>"),
        "<p>Generated <TIMESTAMP> from vm (2026-11-29).</p>"
    );
    assert_eq!(mask_timestamps("\"generated_utc\": \"2026-11-29T21:40:20Z\","), "\"generated_utc\": \"<TIMESTAMP>\",");
}

#[test]
fn no_two_series_of_any_figure_share_colour_and_dash() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/run-fixture");
    let load = || contention::runs::Run::load(&fixture).unwrap();
    for runs in [vec![load()], vec![load(), load()]] {
        let sections = contention::present::sections(&runs).unwrap();
        let figures: Vec<_> = sections.iter().flat_map(|section| &section.figures).collect();
        assert!(figures.len() >= 7, "{} figures", figures.len());
        for figure in figures {
            let legend = &figure.legend;
            for (i, a) in legend.iter().enumerate() {
                let twin = legend[..i].iter().find(|b| (b.style.color, b.style.dash) == (a.style.color, a.style.dash));
                assert!(twin.is_none(), "{}: {} and {:?} share colour and dash", figure.title, a.label, twin);
            }
        }
    }
}
