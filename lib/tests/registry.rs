//! Every registered experiment has the files it names, and adding one stays one folder and
//! one registry line: a missing fixture, prose file or workshop command fails here, naming
//! the experiment and the file.

use std::path::{Path, PathBuf};

use contention::experiment::Beside;
use contention::present::{Present, Visitor};
use contention::Experiment;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An experiment's constants that name files.
struct Named {
    prose: &'static str,
    beside: Option<Beside>,
}

struct ReadNamed;

impl Visitor for ReadNamed {
    type Output = Named;
    fn visit<K: Present>(self) -> Named {
        Named { prose: K::PROSE, beside: K::BESIDE }
    }
}

#[test]
fn every_experiment_has_its_fixture_and_prose_files() {
    let fixture = root().join("report/tests/fixtures/run-fixture");
    for &experiment in Experiment::ALL {
        let name = experiment.name();
        let named = experiment.visit(ReadNamed);
        let rows = fixture.join(format!("{name}.csv"));
        assert!(rows.is_file(), "{name}: no fixture rows at {}", rows.display());
        if let Some(beside) = named.beside {
            let file = fixture.join(beside.file);
            assert!(file.is_file(), "{name}: no fixture rows of {} at {}", beside.runtime, file.display());
        }
        let prose = root().join(format!("data/prose/{name}.md"));
        match named.prose {
            "" => assert!(!prose.exists(), "{name}: {} is shown nowhere (its PROSE is empty)", prose.display()),
            text => assert_eq!(
                std::fs::read_to_string(&prose).ok().as_deref(),
                Some(text),
                "{name}: its PROSE is not {}",
                prose.display()
            ),
        }
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

/// The toy experiment (`lib/src/toy/`, compiled only in tests) is named outside its folder
/// by its registry line and its module declaration alone: adding an experiment's lib side
/// touches nothing else.
#[test]
fn the_toy_is_its_folder_and_one_registry_line() {
    let src = root().join("lib/src");
    let mut outside = Vec::new();
    let mut folders = vec![src.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && path != src.join("toy") {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines().filter(|line| line.contains("toy::") || line.contains("mod toy")) {
                    outside.push(format!("{}: {}", path.strip_prefix(&src).unwrap().display(), line.trim()));
                }
            }
        }
    }
    outside.sort();
    assert_eq!(
        outside,
        ["lib.rs: mod toy;", "registry.rs: Toy => crate::toy::Toy,"],
        "the toy is named outside its folder"
    );
}
