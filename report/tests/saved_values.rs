//! Issue 15, "saved runs are input like any other": a CSV that is damaged, oversized or holds
//! a value no measurement gives is named by file, line and column with what is allowed, and
//! only that experiment is left out (with its reason on the page); the rest of the run still
//! renders. Measuring flags beside saved runs are refused, not ignored.

mod common;

use std::path::Path;

use common::*;

/// Sets `column` of the data row on `line` (line 1 is the header) of the CSV at `path`.
fn set_cell(path: &Path, line: usize, column: &str, value: &str) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let index = headers.iter().position(|header| header == column).unwrap();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers).unwrap();
    for (row, record) in reader.records().enumerate() {
        let record = record.unwrap();
        let cells: Vec<&str> = record
            .iter()
            .enumerate()
            .map(|(i, cell)| if row + 2 == line && i == index { value } else { cell })
            .collect();
        writer.write_record(cells).unwrap();
    }
    std::fs::write(path, writer.into_inner().unwrap()).unwrap();
}

/// Renders the run at `run` (exit 0), expecting `experiment` left out with `reason` and
/// `shown` still drawn.
fn left_out_with_reason(run: &Path, experiment: &str, reason: &str, shown: &str) {
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", "-"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("not shown: {}", run.join("").display())), "{}", stderr(&output));
    assert!(stderr(&output).contains(reason), "{}", stderr(&output));
    let html = stdout(&output);
    let section = html_section(&html, experiment);
    // As the page's template escapes text.
    let escaped = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&#x27;"), ("/", "&#x2f;")]
        .iter()
        .fold(reason.to_string(), |text, (from, to)| text.replace(from, to));
    assert!(section.contains(&escaped) && !section.contains("<svg"), "{section}");
    assert!(html_section(&html, shown).contains("<svg"), "the rest of the run renders");
}

#[test]
fn values_no_measurement_gives_are_named_and_only_their_experiment_is_left_out() {
    let cases = [
        ("pool.csv", 2, "hit_rate", "5", "pool.csv, line 2, column 'hit_rate': 5: a probability from 0 to 1"),
        ("pool.csv", 3, "p99_ms", "-4.5", "pool.csv, line 3, column 'p99_ms': -4.5: 0, or a number from 1e-12 to 1e15"),
        ("gc.csv", 2, "threads", "0", "gc.csv, line 2, column 'threads': 0: a whole number from 1 to 4096"),
        (
            "stride.csv",
            4,
            "ns_per_op",
            "-1",
            "stride.csv, line 4, column 'ns_per_op': -1: 0, or a number from 1e-12 to 1e15",
        ),
        (
            "stride.csv",
            2,
            "threads",
            "-2",
            "stride.csv, line 2, column 'threads': expected a whole number >= 0, got '-2'",
        ),
        ("sharing.csv", 2, "threads", "0", "sharing.csv, line 2, column 'threads': 0: a whole number from 1 to 4096"),
        (
            "c2c.csv",
            2,
            "one_way_ns",
            "-3",
            "c2c.csv, line 2, column 'one_way_ns': -3: 0, or a number from 1e-12 to 1e15",
        ),
    ];
    for (file, line, column, value, reason) in cases {
        let run = fixture_copy("values");
        set_cell(&run.join(file), line, column, value);
        let experiment = match file {
            "c2c.csv" => "machine",
            other => other.trim_end_matches(".csv"),
        };
        let shown = if experiment == "stride" { "sharing" } else { "stride" };
        left_out_with_reason(&run, experiment, reason, shown);
        std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
    }
}

#[test]
fn damaged_and_oversized_csvs_are_named_and_the_rest_renders() {
    let run = fixture_copy("csv-damage");
    let csv = run.join("stride.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let (first, others) = rest.split_once('\n').unwrap();
    std::fs::write(&csv, format!("{header}\n{first},extra\n{others}")).unwrap();
    left_out_with_reason(&run, "stride", "stride.csv, line 2: 13 fields, but the header has 12 columns", "sharing");
    std::fs::write(&csv, text.replacen(",true,\"0,1\"", ",maybe,\"0,1\"", 1)).unwrap();
    left_out_with_reason(&run, "stride", "stride.csv, line 2, column 'pinned': expected true or false", "sharing");
    // 100 MB: refused by its size before a byte is read.
    std::fs::OpenOptions::new().write(true).open(&csv).unwrap().set_len(100_000_000).unwrap();
    left_out_with_reason(&run, "stride", "is 100000000 bytes: at most 67108864 bytes are read", "sharing");
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn a_run_with_an_unreadable_file_is_not_packed() {
    let run = fixture_copy("pack-bad");
    set_cell(&run.join("gc.csv"), 2, "threads", "0");
    let pack = run.parent().unwrap().join("run.contention-pack");
    let output = contention(&["pack", run.to_str().unwrap(), "--out", pack.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("is not packed: a pack carries only runs whose every file reads"));
    assert!(stderr(&output).contains("column 'threads': 0"), "{}", stderr(&output));
    assert!(!pack.exists(), "no pack written");
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}

#[test]
fn measuring_flags_beside_saved_runs_are_refused_by_name() {
    let fixture = fixture();
    let from = fixture.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--trials", "5", "--from", from],
            "--trials cannot be used with --from: --trials sets how a run is measured",
        ),
        (&["--quick", "--compare", from, from], "--quick cannot be used with --compare: --quick sets how a run is"),
        (&["--miss-wait-ms", "1,2", "--from", from], "--miss-wait-ms cannot be used with --from"),
        (&["--label", "x", "--from", from], "--label cannot be used with --from: --label names a run being measured"),
        (&["--runs", "/tmp", "--from", from], "--runs cannot be used with --from: --runs names the folder"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["report"];
        args.extend_from_slice(flags);
        args.extend(["--out", "-"]);
        let output = contention(&args);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(message), "{flags:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("reads runs that are already measured"), "{}", stderr(&output));
        assert!(stdout(&output).is_empty(), "nothing rendered");
    }
    let help = stdout(&contention(&["report", "--help"]));
    assert!(help.contains("measuring flags (sizes, --quick, --label, --runs) are refused beside it"), "{help}");
}

#[test]
fn twenty_thousand_rows_of_one_experiment_render() {
    let run = fixture_copy("many-rows");
    let csv = run.join("stride.csv");
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let headers = reader.headers().unwrap().clone();
    let trial = headers.iter().position(|header| header == "trial").unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers).unwrap();
    // The fixture's rows again and again, each copy a later trial of the same strides.
    for index in 0..20_000 {
        let row = &rows[index % rows.len()];
        let copy = (index / rows.len()).to_string();
        let cells: Vec<&str> = row.iter().enumerate().map(|(i, cell)| if i == trial { &copy } else { cell }).collect();
        writer.write_record(cells).unwrap();
    }
    std::fs::write(&csv, writer.into_inner().unwrap()).unwrap();
    let manifest_path = run.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let records = manifest["experiments"].as_array_mut().unwrap();
    records.iter_mut().find(|record| record["name"] == "stride").unwrap()["rows"] = 20_000.into();
    std::fs::write(&manifest_path, manifest.to_string()).unwrap();
    let output = contention(&["report", "--from", run.to_str().unwrap(), "--out", "-"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).is_empty(), "read whole: {}", stderr(&output));
    let html = stdout(&output);
    assert!(html_section(&html, "stride").contains("<svg"), "drawn");
    std::fs::remove_dir_all(run.parent().unwrap()).unwrap();
}
