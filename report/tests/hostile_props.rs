//! Issue 25: random packs and folders (the fixture's files with random cells, labels,
//! manifest fields, cuts and bytes, under random names) fed to `report --from` and
//! `--compare`: the command exits 0 or 2, never panics or aborts, and returns within a
//! time bound. Cases are few (each runs the binary once) so the test stays seconds long.

mod common;

use std::time::Duration;

use common::packs::*;
use common::*;
use proptest::prelude::*;

/// Cells no measurement writes, beside plain ones.
const CELLS: [&str; 22] = [
    "1e-320",
    "5e-324",
    "1e308",
    "-1",
    "0",
    "1",
    "NaN",
    "inf",
    "0x10",
    "+2429",
    "0-4294967295",
    "0-100000",
    "0,,1",
    "18446744073709551616",
    "",
    "\u{1b}[2J",
    "off",
    "true",
    "unavailable",
    "<script>alert(1)</script>",
    "\"",
    "a\nb",
];

const FILES: [&str; 9] = [
    "manifest.json",
    "stride.csv",
    "sharing.csv",
    "counters.csv",
    "c2c.csv",
    "machine.csv",
    "gc.csv",
    "gc-go.csv",
    "pool.csv",
];

/// What a hostile hand does to a run.
#[derive(Debug, Clone)]
enum Change {
    /// A cell of a CSV's data row (`line` counts from the first data row).
    Cell {
        file: usize,
        line: usize,
        column: usize,
        value: String,
    },
    Label(String),
    /// A manifest field set to a JSON value (`experiments[i]` fields and the machine's).
    Field {
        path: usize,
        value: serde_json::Value,
    },
    /// A file cut to a fraction of its length.
    Cut {
        file: usize,
        per_mille: usize,
    },
    Drop {
        file: usize,
    },
    /// Text inserted into a file at a fraction of its length.
    Insert {
        file: usize,
        per_mille: usize,
        text: String,
    },
}

const FIELDS: [&str; 9] = [
    "/experiments/2/rows",
    "/experiments/2/state",
    "/experiments/1/failure",
    "/machine/logical_cpus",
    "/machine/smt_sibling_groups",
    "/machine/hostname",
    "/experiments/0/config",
    "/format_version",
    "/experiments/3/file",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(CELLS.to_vec()).prop_map(String::from),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        ".{0,40}",
        prop::collection::vec(any::<char>(), 0..12).prop_map(|chars| chars.into_iter().collect()),
    ]
}

fn json() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        text().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        Just(serde_json::json!(["0-4294967295", "0-100000"])),
        Just(serde_json::Value::Null),
        Just(serde_json::json!({"x": [1, 2]})),
    ]
}

fn change() -> impl Strategy<Value = Change> {
    let file = 0..FILES.len();
    prop_oneof![
        4 => (1..FILES.len(), 0..6usize, 0..40usize, text())
            .prop_map(|(file, line, column, value)| Change::Cell { file, line, column, value }),
        1 => text().prop_map(Change::Label),
        2 => (0..FIELDS.len(), json()).prop_map(|(path, value)| Change::Field { path, value }),
        1 => (file.clone(), 0..1000usize).prop_map(|(file, per_mille)| Change::Cut { file, per_mille }),
        1 => file.clone().prop_map(|file| Change::Drop { file }),
        1 => (file, 0..1000usize, text()).prop_map(|(file, per_mille, text)| Change::Insert { file, per_mille, text }),
    ]
}

/// The byte offset nearest `per_mille` of `text` that is a character boundary.
fn boundary(text: &str, per_mille: usize) -> usize {
    let mut at = text.len() * per_mille / 1000;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The text of `FILES[file]` in `files`, when it is still there.
fn text_of(files: &mut [(String, String)], file: usize) -> Option<&mut String> {
    files.iter_mut().find(|(name, _)| name == FILES[file]).map(|(_, text)| text)
}

fn apply(files: &mut Vec<(String, String)>, change: &Change) {
    let name = |file: usize| FILES[file].to_string();
    match change {
        Change::Cell { file, line, column, value } => {
            if let Some(text) = text_of(files, *file) {
                let header: Vec<String> = text.lines().next().unwrap_or("").split(',').map(String::from).collect();
                if let Some(column) = header.get(column % header.len().max(1)) {
                    if std::panic::catch_unwind(|| set_cell(text, line + 2, column, value)).map(|t| *text = t).is_err()
                    {
                        text.push_str(value);
                    }
                }
            }
        }
        Change::Label(label) => edit_manifest_lenient(files, |manifest| manifest["label"] = label.clone().into()),
        Change::Field { path, value } => edit_manifest_lenient(files, |manifest| {
            if let Some(slot) = manifest.pointer_mut(FIELDS[*path]) {
                *slot = value.clone();
            }
        }),
        Change::Cut { file, per_mille } => {
            if let Some(text) = text_of(files, *file) {
                let at = boundary(text, *per_mille);
                text.truncate(at);
            }
        }
        Change::Drop { file } => files.retain(|(n, _)| *n != name(*file)),
        Change::Insert { file, per_mille, text: inserted } => {
            if let Some(text) = text_of(files, *file) {
                let at = boundary(text, *per_mille);
                text.insert_str(at, inserted);
            }
        }
    }
}

/// [`edit_manifest`] when the manifest is still JSON; a mangled one is left as it is.
fn edit_manifest_lenient(files: &mut [(String, String)], change: impl FnOnce(&mut serde_json::Value)) {
    let parses =
        files.iter().any(|(n, t)| n == "manifest.json" && serde_json::from_str::<serde_json::Value>(t).is_ok());
    if parses {
        edit_manifest(files, change);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_packs_and_folders_exit_0_or_2_quickly_and_never_panic(
        changes in prop::collection::vec(change(), 1..5),
        as_pack in any::<bool>(),
        compare in any::<bool>(),
        format in prop::sample::select(vec!["html", "markdown", "json"]),
        name in "[a-zA-Z0-9 ._\u{1b}\u{202e}é-]{1,24}",
    ) {
        let dir = scratch("hostile-props");
        let mut files = fixture_files();
        for change in &changes {
            apply(&mut files, change);
        }
        let run = if as_pack {
            let pack = contention::runs::pack::encode(&files).unwrap_or_else(|_| "contention-pack 1\nend\n".into());
            let path = dir.join(format!("{name}.contention-pack"));
            std::fs::write(&path, pack).unwrap();
            path
        } else {
            write_folder(&dir, &name, &files)
        };
        let fixture = fixture();
        let mut args = vec!["report", if compare { "--compare" } else { "--from" }];
        if compare {
            args.push(fixture.to_str().unwrap());
        }
        args.extend([run.to_str().unwrap(), "--format", format, "--out", "-"]);
        let (output, took) = timed(&args);
        let _ = std::fs::remove_dir_all(&dir);
        let said = stderr(&output);
        prop_assert!(matches!(output.status.code(), Some(0 | 2)), "{changes:?}: {:?} {said}", output.status);
        prop_assert!(!said.contains("panicked"), "{changes:?}: {said}");
        prop_assert!(took < Duration::from_secs(10), "{changes:?} took {took:?}");
        if compare {
            prop_assert_eq!(output.status.code(), Some(0), "the fixture beside it renders: {}", said);
        }
    }
}
