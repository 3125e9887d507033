//! `report --from class.tar --format csv`: a class of 25 seats, made from seat packs, written as
//! one tidy CSV file per experiment with the machine's columns, read back whole by Python's
//! csv module and by polars (Python's, where it is installed: CI installs it and sets
//! CONTENTION_REQUIRE_POLARS, so there it cannot be left out).
//! With CONTENTION_CLASS_OUT set, the class folder is also kept there, for CI to run
//! notebook 06 over it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::seats::seat_pack;
use common::{contention, scratch, stderr, stdout};

const SEATS: usize = 25;

/// `dir/class/NNNN.contention-pack` for each seat, as `tar xf class.tar` leaves them.
fn class_folder(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    for index in 1..=SEATS {
        std::fs::write(class.join(format!("{index:04}.contention-pack")), seat_pack(index)).unwrap();
    }
    class
}

/// The class folder as the room's download: a ustar archive holding `class/`.
fn class_tar(dir: &Path) -> PathBuf {
    let tar = dir.join("class.tar");
    let made = Command::new("tar")
        .args(["--format=ustar", "-cf", "class.tar", "class"])
        .current_dir(dir)
        .status()
        .expect("tar runs");
    assert!(made.success());
    tar
}

/// A short Python script's standard output; it fails the test when the script fails.
fn python(script: &str, args: &[&Path]) -> String {
    let output = Command::new("python3").arg("-c").arg(script).args(args).output().expect("python3 runs");
    assert!(output.status.success(), "python3 failed: {}", stderr(&output));
    stdout(&output)
}

/// Each file's name, column count and row count, read by Python's csv module.
const READ_WITH_CSV: &str = r#"
import csv, sys, pathlib
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.csv")):
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    seats = {row["seat"] for row in rows}
    print(path.stem, len(rows[0]), len(rows), len(seats), rows[0]["cpu_family"], sep="\t")
"#;

/// The same, read by polars (exit 3 where it is not installed).
const READ_WITH_POLARS: &str = r#"
import sys, pathlib
try:
    import polars as pl
except ImportError:
    sys.exit(3)
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.csv")):
    frame = pl.read_csv(path, infer_schema_length=None)
    print(path.stem, frame.width, frame.height, frame["seat"].n_unique(), frame["cpu_family"][0], sep="\t")
"#;

#[test]
fn a_class_download_is_written_as_tidy_tables_that_csv_and_polars_read_back() {
    let dir = scratch("class-tables");
    let class = class_folder(&dir);
    if let Some(keep) = std::env::var_os("CONTENTION_CLASS_OUT") {
        let keep = PathBuf::from(keep);
        std::fs::create_dir_all(&keep).unwrap();
        for entry in std::fs::read_dir(&class).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), keep.join(entry.file_name())).unwrap();
        }
    }
    let tar = class_tar(&dir);
    let out = dir.join("tables");
    let output =
        contention(&["report", "--from", tar.to_str().unwrap(), "--format", "csv", "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(&format!("of {SEATS} runs written to")), "{}", stdout(&output));

    // The fixture run's rows, once per seat, in every table.
    let fixture = contention::runs::Run::load(common::fixture()).unwrap();
    let fixture_rows = fixture.rows::<contention::stride::Row>().unwrap().len();
    let by_csv = python(READ_WITH_CSV, &[&out]);
    let stride = by_csv.lines().find(|line| line.starts_with("stride\t")).expect("a stride table");
    let fields: Vec<&str> = stride.split('\t').collect();
    assert_eq!(fields[2].parse::<usize>().unwrap(), SEATS * fixture_rows, "{stride}");
    assert_eq!(fields[3], SEATS.to_string(), "every seat has its rows: {stride}");
    assert_eq!(fields[4], "Apple M2", "seat 1's CPU family (an Apple M2): {stride}");
    assert!(by_csv.lines().any(|line| line.starts_with("sharing\t")), "{by_csv}");

    let polars = Command::new("python3").arg("-c").arg(READ_WITH_POLARS).arg(&out).output().unwrap();
    match polars.status.code() {
        // Not installed: the csv module's reading stands alone, except in CI, which installs it.
        Some(3) => assert!(
            std::env::var_os("CONTENTION_REQUIRE_POLARS").is_none(),
            "CONTENTION_REQUIRE_POLARS is set but python3 has no polars"
        ),
        _ => {
            assert!(polars.status.success(), "polars failed: {}", stderr(&polars));
            assert_eq!(stdout(&polars), by_csv, "polars reads the same shape as the csv module");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn csv_needs_a_folder_and_refuses_a_run_folder() {
    let fixture = common::fixture();
    let from = fixture.to_str().unwrap();
    let output = contention(&["report", "--from", from, "--format", "csv", "--out", "-"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("give a folder"), "{}", stderr(&output));
    let output = contention(&["report", "--from", from, "--format", "csv", "--out", from]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("it is a run folder"), "{}", stderr(&output));
}
