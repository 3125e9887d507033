//! Helpers every test binary shares: run the binary, fresh scratch folders, the fixture run.
// Each test binary uses only some of these.
#![allow(dead_code)]

pub mod packs;
pub mod proxy;
pub mod room;
pub mod seats;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs `contention` with `args`, keeping any seat token in this test binary's own data
/// folder ([`data_dir`]), not the user's.
pub fn contention(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_contention"));
    command.args(args).env("CONTENTION_DATA_DIR", data_dir()).output().expect("the binary runs")
}

/// The data folder this test binary's commands keep seat tokens in.
pub fn data_dir() -> PathBuf {
    std::env::temp_dir().join(format!("contention-test-data-{}", std::process::id()))
}

/// Runs `contention` with `args`, and how long it took.
pub fn timed(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = contention(args);
    (output, started.elapsed())
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fresh, empty folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contention-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The one run folder a `run --out out` made.
pub fn only_run_folder(out: &Path) -> PathBuf {
    let folders: Vec<PathBuf> = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(folders.len(), 1, "one run folder in {}", out.display());
    folders.into_iter().next().unwrap()
}

/// The committed run with every experiment at quick sizes.
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/run-fixture")
}

/// A copy of the fixture run that a test may alter.
pub fn fixture_copy(name: &str) -> PathBuf {
    let copy = scratch(name).join("run");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let file = entry.unwrap().file_name();
        std::fs::copy(fixture().join(&file), copy.join(&file)).unwrap();
    }
    copy
}

/// The text of the HTML section with `id`, from its opening tag to its closing one.
pub fn html_section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html.find(&format!("<section id=\"{id}\"")).unwrap_or_else(|| panic!("no section {id}"));
    let end = html[start..].find("</section>").map_or(html.len(), |end| start + end + "</section>".len());
    &html[start..end]
}
