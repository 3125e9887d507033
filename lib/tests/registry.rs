//! Every registered experiment has the files it names, and adding one stays its folder, one
//! registry line and the README: a missing fixture, prose file, reference file, claim or
//! workshop command fails here, naming the experiment and the file.

mod common;

use std::path::{Path, PathBuf};

use common::rust_files;
use contention::experiment::RealRuntime;
use contention::kit::Present;
use contention::kit::ReferenceText;
use contention::registry::Visitor;
use contention::Experiment;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An experiment's constants that name files.
struct Named {
    prose: &'static str,
    real_runtime: Option<RealRuntime>,
    references: &'static [ReferenceText],
    claims: &'static [&'static str],
}

struct ReadNamed;

impl Visitor for ReadNamed {
    type Output = Named;
    fn visit<K: Present>(self) -> Named {
        Named { prose: K::PROSE, real_runtime: K::REAL_RUNTIME, references: K::REFERENCES, claims: K::CLAIMS }
    }
}

/// Each experiment's prose, in its own folder (`lib/src/<module>/prose.md`), as compiled in.
fn prose_files() -> Vec<(PathBuf, String)> {
    let src = root().join("lib/src");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path().join("prose.md");
        // The toy's is compiled only in tests; this test sees the lib as the report does.
        if path.is_file() && !path.starts_with(src.join("toy")) {
            found.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    found
}

#[test]
fn every_experiment_has_its_fixture_and_prose_files() {
    let fixture = root().join("report/tests/fixtures/run-fixture");
    let mut prose = prose_files();
    for &experiment in Experiment::ALL {
        let name = experiment.name();
        let named = experiment.visit(ReadNamed);
        let rows = fixture.join(format!("{name}.csv"));
        assert!(rows.is_file(), "{name}: no fixture rows at {}", rows.display());
        if let Some(real_runtime) = named.real_runtime {
            let file = fixture.join(real_runtime.file);
            assert!(file.is_file(), "{name}: no fixture rows of {} at {}", real_runtime.name, file.display());
        }
        if !named.prose.is_empty() {
            let at = prose.iter().position(|(_, text)| text == named.prose);
            assert!(at.is_some(), "{name}: its PROSE is no lib/src/<module>/prose.md");
            prose.remove(at.unwrap());
        }
    }
    let unshown: Vec<String> = prose.iter().map(|(path, _)| path.display().to_string()).collect();
    assert!(unshown.is_empty(), "shown nowhere (no experiment's PROSE): {unshown:?}");
}

/// Each reference file an experiment names is in `data/reference/` as compiled in, and every
/// file there is named by an experiment, but the claims' list (the claims section's).
#[test]
fn every_reference_file_is_named_by_an_experiment_and_there() {
    let folder = root().join(contention::kit::reference::FOLDER);
    let mut named = vec![contention::reference::CLAIMS.file.name];
    for &experiment in Experiment::ALL {
        for reference in experiment.visit(ReadNamed).references {
            let path = folder.join(reference.name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {} is missing: {error}", experiment.name(), path.display()));
            assert_eq!(text, reference.text, "{}: {} is not as compiled in", experiment.name(), path.display());
            named.push(reference.name);
        }
    }
    for entry in std::fs::read_dir(&folder).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let table = name.ends_with(".csv");
        assert!(!table || named.contains(&name.as_str()), "{name}: no experiment names it (`Present::REFERENCES`)");
    }
}

#[test]
fn the_readmes_workshop_commands_run_every_experiment() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let commands: Vec<&str> =
        readme.lines().filter(|line| line.starts_with("contention run ") && line.contains("--label seat-")).collect();
    assert!(commands.len() >= 2, "the README's workshop commands were not found");
    for command in commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        for name in Experiment::names() {
            assert!(words.contains(&name), "the README's `{command}` does not run {name}");
        }
    }
}

/// Each claim an experiment lists is a row of the claims file that names it, on the lib as
/// the report builds it (the lib's own tests see the test-only toy's claim besides).
#[test]
fn every_claim_an_experiment_lists_is_in_the_claims_file() {
    let claims = contention::reference::claims().unwrap();
    for &experiment in Experiment::ALL {
        for id in experiment.visit(ReadNamed).claims {
            let named = claims.iter().find(|claim| claim.id == *id).map(|claim| claim.experiment.as_str());
            assert_eq!(named, Some(experiment.name()), "{} lists {id}: no claims.csv row naming it", experiment.name());
        }
    }
}

/// What the repository ignores (its `.gitignore`: builds, the notebooks' environment, your
/// runs) and git's own folder: no file of a change.
fn ignored(root: &Path) -> Vec<String> {
    let listed = std::fs::read_to_string(root.join(".gitignore")).unwrap_or_default();
    let mut ignored: Vec<String> = listed
        .lines()
        .map(|line| line.trim().trim_start_matches('/').trim_end_matches('/').to_string())
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    ignored.extend([".git", "node_modules"].map(String::from));
    ignored
}

/// Every file of the repository that reads as text, by its path from the root in '/'.
fn text_files(root: &Path) -> Vec<(String, String)> {
    let ignored = ignored(root);
    let (mut found, mut folders) = (Vec::new(), vec![root.to_path_buf()]);
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            // In '/' on every OS (Windows displays a path with '\\').
            let name = path.strip_prefix(root).unwrap().display().to_string().replace('\\', "/");
            if ignored.iter().any(|skipped| name == *skipped || name.ends_with(&format!("/{skipped}"))) {
                continue;
            }
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                found.push((name, text));
            }
        }
    }
    found
}

/// Whether `text` names the toy: "toy" in any case, not inside a longer word ("destroy").
fn names_toy(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
    lower
        .match_indices("toy")
        .any(|(at, _)| !letter(lower[..at].chars().last()) && !letter(lower[at + 3..].chars().next()))
}

/// The toy's mentions in `text` of the file `name`: each line of code naming it, in a Rust
/// file (its comments may speak of it: the crate's "Adding an experiment" does); any line
/// elsewhere.
fn toy_mentions(name: &str, text: &str) -> Vec<String> {
    let rust = name.ends_with(".rs");
    let code =
        |line: &str| if rust { line.split("//").next().unwrap_or_default().to_string() } else { line.to_string() };
    text.lines().filter(|line| names_toy(&code(line))).map(|line| format!("{name}: {}", line.trim())).collect()
}

/// The files besides its folder that adding the toy experiment (`lib/src/toy/`, compiled
/// only in tests) touched: its registry line, which declares its module too, and the README,
/// which points to it as the worked example. Nothing else names it, but the two checks that
/// look at it from outside: this file and `layers.rs` (whose drawing leaves it out).
#[test]
fn the_toy_touched_its_folder_the_registry_line_and_the_readme() {
    let root = root();
    let checks = ["lib/src/toy/", "lib/tests/registry.rs", "lib/tests/layers.rs"];
    let mut touched = Vec::new();
    for (name, text) in text_files(&root).iter().filter(|(name, _)| !checks.iter().any(|check| name.starts_with(check)))
    {
        let mentions = toy_mentions(name, text);
        match name.as_str() {
            "README.md" if !mentions.is_empty() => touched.push(name.clone()),
            _ => touched.extend(mentions),
        }
    }
    touched.sort();
    assert_eq!(touched, ["README.md", "lib/src/registry.rs: Toy => toy::Toy;"], "what adding the toy touched");
    assert!(names_toy("mod toy;") && names_toy("Toy =>") && names_toy("\"toy\"") && !names_toy("destroy"));
}

/// Whether `code` names the experiment `name` as a module: `mod name;` or a path `name::`.
fn names_module(code: &str, name: &str) -> bool {
    let path = format!("{name}::");
    let as_path =
        code.match_indices(&path).any(|(at, _)| !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'));
    as_path || code.contains(&format!("mod {name};"))
}

/// The files that list every experiment, each one more edit when one is added: none besides
/// the registry (whose lines declare the lib's modules and name the types) and the README's
/// commands (checked above); the command line reaches each experiment's flags through the
/// registry. No other file may start listing them all.
#[test]
fn no_other_file_lists_every_experiment() {
    let root = root();
    let mut listing = Vec::new();
    for path in rust_files(&[root.join("lib/src"), root.join("report/src")]) {
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
        if Experiment::names().iter().all(|name| names_module(&code, name)) {
            // In '/' on every OS (Windows displays a path with '\\').
            listing.push(path.strip_prefix(&root).unwrap().display().to_string().replace('\\', "/"));
        }
    }
    listing.sort();
    assert_eq!(listing, Vec::<String>::new(), "these files list every experiment");
}
