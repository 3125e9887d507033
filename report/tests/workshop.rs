//! The workshop: runs labelled apart, packed into one file, compared in a room page; the
//! binary works from any folder.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// A short stride run into `out`, as a child process (so several can start at once).
fn quick_stride_run(out: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
    command.args(["run", "stride", "--strides", "8,64", "--iters", "2000", "--trials", "2", "--out"]);
    command.arg(out).args(extra);
    command
}

fn manifest_of(run: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap()
}

fn run_folders(out: &Path) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    folders
}

#[test]
fn runs_started_together_get_different_labels_and_folders() {
    let out = scratch("labels");
    let children: Vec<_> = (0..3).map(|_| quick_stride_run(&out, &[]).spawn().unwrap()).collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let folders = run_folders(&out);
    assert_eq!(folders.len(), 3, "{folders:?}");
    let mut labels: Vec<String> =
        folders.iter().map(|run| manifest_of(run)["label"].as_str().unwrap().to_string()).collect();
    let hostname = manifest_of(&folders[0])["machine"]["hostname"].as_str().unwrap().to_string();
    assert!(labels.iter().all(|label| label.starts_with(&format!("{hostname}-"))), "{labels:?}");
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), 3, "labels differ: {labels:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_given_label_names_the_run_and_a_bad_one_is_refused() {
    let out = scratch("label-given");
    let output = quick_stride_run(&out, &["--label", "seat 12"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let run = only_run_folder(&out);
    assert_eq!(manifest_of(&run)["label"], "seat 12");
    assert!(run.file_name().unwrap().to_str().unwrap().starts_with("seat_12-"), "{}", run.display());
    let output = quick_stride_run(&out, &["--label", " "]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("invalid label = \" \": 1 to 64 printable characters"), "{}", stderr(&output));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_same_run_twice_reads_as_two_machines() {
    let out = scratch("label-twice");
    let page = out.join("page.md");
    let fixture = fixture();
    let from = fixture.to_str().unwrap();
    let output =
        contention(&["report", "--compare", from, from, "--format", "markdown", "--out", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.contains("Measured on vm (2026-12-01 18:01 UTC), vm (2026-12-01 18:01 UTC) (2)."), "{text}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// Packs `run` into `pack` with the binary.
fn pack(run: &Path, pack: &Path) {
    let output = contention(&["pack", run.to_str().unwrap(), "-o", pack.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("run packed into"), "{}", stdout(&output));
}

#[test]
fn a_pack_reads_back_to_the_same_rows() {
    let out = scratch("pack");
    let packed = out.join("fixture.contention-pack");
    pack(&fixture(), &packed);
    let text = std::fs::read_to_string(&packed).unwrap();
    assert!(text.starts_with("contention-pack 1\nfile manifest.json "), "{}", &text[..80]);
    let folder = contention::runs::Run::load(fixture()).unwrap();
    let mut unpacked = contention::runs::Run::load(&packed).unwrap();
    assert!(contention::Experiment::ALL.iter().all(|&experiment| folder.holds(experiment)), "the fixture holds all");
    // The same run in every respect but where it was read from.
    unpacked.dir = folder.dir.clone();
    assert_eq!(unpacked, folder);
    // A pack of the pack is the same file.
    let again = out.join("again.contention-pack");
    pack(&packed, &again);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_broken_pack_among_good_runs_is_skipped_with_its_reason() {
    let out = scratch("pack-broken");
    let good = out.join("good.contention-pack");
    pack(&fixture(), &good);
    let text = std::fs::read_to_string(&good).unwrap();
    let broken = out.join("broken.contention-pack");
    std::fs::write(&broken, &text[..text.len() / 2]).unwrap();
    let page = out.join("room.html");
    let runs = [fixture(), broken.clone(), good.clone()];
    let mut args = vec!["report", "--compare"];
    args.extend(runs.iter().map(|run| run.to_str().unwrap()));
    args.extend(["--out", page.to_str().unwrap()]);
    let output = contention(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    let note = html.split("Skipped: ").nth(1).expect("the page names the skipped pack");
    assert!(note.contains("broken.contention-pack is not a readable run pack: "), "{note}");
    assert!(html.contains("vm (2026-12-01 18:01 UTC) (2)"), "both good runs shown apart");
    // Nothing readable at all is bad input.
    let output = contention(&["report", "--compare", broken.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("is not a readable run pack"), "{}", stderr(&output));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn cpus_take_ranges_and_lists() {
    let out = scratch("cpus");
    let out_arg = out.to_str().unwrap();
    let usable = contention::machine::available_cpu_ids();
    if usable.contains(&0) && usable.contains(&1) {
        let output = contention(&["run", "c2c", "--cpus", "0-1", "--samples", "5", "--out", out_arg]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(manifest_of(&only_run_folder(&out))["experiments"][0]["config"]["cpus"], serde_json::json!([0, 1]));
    }
    // A range reaches the config's own check, which names the CPU it refuses.
    let output = contention(&["run", "c2c", "--cpus", "0-1,4095", "--out", out_arg]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("invalid cpus = ") && stderr(&output).contains("a logical CPU"),
        "{}",
        stderr(&output)
    );
    let output = contention(&["run", "c2c", "--cpus", "3-1", "--out", out_arg]);
    assert_eq!(output.status.code(), Some(2));
    let expected = "invalid cpus = 3-1: the range 3-1 runs backwards: CPU ids from 0 to 4095 and rising ranges";
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    std::fs::remove_dir_all(&out).unwrap();
}

/// Three runs for a room: the fixture, a copy labelled "seat-2", and a copy labelled
/// "seat-3" measured (so its manifest says) with the quick profile.
fn three_runs(name: &str) -> Vec<PathBuf> {
    let relabel = |copy: &Path, label: &str, profile: &str| {
        let path = copy.join("manifest.json");
        let mut manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        manifest["label"] = label.into();
        manifest["profile"] = profile.into();
        std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    };
    let second = fixture_copy(&format!("{name}-2"));
    relabel(&second, "seat-2", "custom");
    let third = fixture_copy(&format!("{name}-3"));
    relabel(&third, "seat-3", "quick");
    vec![fixture(), second, third]
}

/// The markdown section headed `title`, up to the next section.
fn markdown_section<'a>(text: &'a str, title: &str) -> &'a str {
    let start = text.find(&format!("\n## {title}")).unwrap_or_else(|| panic!("no section {title}"));
    let end = text[start + 1..].find("\n## ").map_or(text.len(), |end| start + 1 + end);
    &text[start..end]
}

#[test]
fn the_room_table_from_three_runs_matches_its_snapshot() {
    let runs = three_runs("room");
    let mut args = vec!["report".to_string(), "--compare".to_string()];
    args.extend(runs.iter().map(|run| run.display().to_string()));
    let render = |format: &str| {
        let mut args = args.clone();
        args.extend(["--format", format, "--out", "-"].map(String::from));
        let output = Command::new(env!("CARGO_BIN_EXE_contention")).args(&args).output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let markdown = render("markdown");
    let room = markdown_section(&markdown, "The room: every machine's key effects");
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/room.md");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, room).unwrap();
    }
    assert_eq!(room, std::fs::read_to_string(&snapshot).unwrap(), "the room differs from tests/snapshots/room.md");
    let row = |label: &str| room.lines().find(|line| line.starts_with(&format!("| {label} |"))).unwrap();
    assert!(row("seat-3").ends_with("| quick; differs: profile quick |"), "only the quick run is flagged: {room}");
    assert!(row("seat-2").ends_with("| custom |"), "{room}");
    let html = render("html");
    let section = html_section(&html, "room");
    assert!(section.contains("<table class=\"sortable\">"), "the room table sorts");
    assert_eq!(section.matches("<figure class=\"chart\"").count(), 9, "one chart per effect measured");
    assert!(html.contains("<script>") && html.matches("<script").count() == 1, "one inline script, no other");
    for run in &runs[1..] {
        std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
    }
}

#[test]
fn two_runs_get_each_effects_ratio() {
    let runs = three_runs("difference");
    let output = contention(&[
        "report",
        "--compare",
        runs[0].to_str().unwrap(),
        runs[1].to_str().unwrap(),
        "--format",
        "markdown",
        "--out",
        "-",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let section = markdown_section(&text, "Two machines, one difference");
    assert!(
        section.contains("| false sharing over no sharing | 1.30x (1.16x–2.57x) | 1.30x (1.16x–2.57x) | 1.00x ("),
        "{section}"
    );
    // The same rows on both sides: every interval overlaps.
    assert!(section.contains("not distinguishable") && !section.contains("larger on"), "{section}");
    for run in &runs[1..] {
        std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
    }
}

#[test]
fn a_copied_binary_renders_the_article_numbers_from_an_empty_folder() {
    let empty = scratch("installed");
    let binary = empty.join("contention");
    std::fs::copy(env!("CARGO_BIN_EXE_contention"), &binary).unwrap();
    let work = empty.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let mut render = Command::new(&binary);
    render.current_dir(&work).args([
        "report",
        "--from",
        fixture().to_str().unwrap(),
        "--format",
        "markdown",
        "--out",
        "report.md",
    ]);
    // A test forking a child at the moment of the copy lends that child our write handle
    // until it execs; the kernel refuses to run a file open for writing (ETXTBSY) meanwhile.
    let mut tries = 0;
    let output = loop {
        match render.output() {
            // ETXTBSY is 26 on Linux (io::ErrorKind::ExecutableFileBusy is newer than the MSRV).
            Err(error) if error.raw_os_error() == Some(26) && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            result => break result.unwrap(),
        }
    };
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(work.join("report.md")).unwrap();
    // The article's numbers, from the reference tables compiled into the binary.
    assert!(text.contains("| 8 | 241 | 122.46x |"), "the stride article's table");
    assert!(text.contains("| core pool size during the incident | 320 threads |"), "the pool article's table");
    std::fs::remove_dir_all(&empty).unwrap();
}
