//! The lab's sentences stay right (issue 56): where the glossary and the notebooks' markdown
//! quote a figure the lib computes (`present::figures`), the text is the lib's; none of the
//! sentences two reads found wrong returns anywhere the lab shows text; and the glossary
//! exists, covers its terms, and is linked from the guide, the handout and every notebook.
//! (The guide's own figures are checked in `workshop_guide.rs`.)

use std::path::{Path, PathBuf};

use contention::present::figures;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|error| panic!("{relative}: {error}"))
}

/// Every run of whitespace (line breaks, no-break spaces) as one space, so a sentence matches
/// however its lines were wrapped.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A notebook's cells' sources, each cell's lines joined.
fn notebook_cells(relative: &str) -> Vec<String> {
    let notebook: serde_json::Value = serde_json::from_str(&read(relative)).expect("a notebook is JSON");
    let cells = notebook["cells"].as_array().expect("a notebook has cells");
    let source = |cell: &serde_json::Value| match &cell["source"] {
        serde_json::Value::Array(lines) => lines.iter().filter_map(|line| line.as_str()).collect::<String>(),
        other => other.as_str().unwrap_or_default().to_string(),
    };
    cells.iter().map(source).collect()
}

/// The text of `relative` as a reader sees it: a notebook's cells, or the file.
fn shown(relative: &str) -> String {
    if relative.ends_with(".ipynb") {
        notebook_cells(relative).join("\n\n")
    } else {
        read(relative)
    }
}

/// The files under `folder` (recursively) whose name ends with `suffix`, relative to the root.
fn files(folder: &str, suffix: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![root().join(folder)];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|error| panic!("{}: {error}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                found.push(path.strip_prefix(root()).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

/// Sentences quoting a figure of the lib, as `{{name}}` templates, and where they stand.
const QUOTED: &[(&str, &str)] = &[
    (
        "docs/glossary.md",
        "one 8-byte counter each costs {{counters.one_per_connection_padded}} padded to 128 B against \
         {{counters.one_per_connection_compact}} compact; the article's 8-shard counter each, \
         {{counters.sharded_per_connection_padded}} against {{counters.sharded_per_connection_compact}}",
    ),
    (
        "docs/glossary.md",
        "the minimum spaces the cycles: {{gc.heap_minimum_100}} at GOGC=100, {{gc.heap_minimum_2400}} at 2400, \
         {{gc.heap_minimum_11300}} at 11300",
    ),
    ("docs/glossary.md", "wait of its own two paths is {{pool.path_wait}}, which gives {{pool.path_threads}} threads"),
    (
        "notebooks/01-false-sharing-stride-sweep.ipynb",
        "it is {{counters.one_per_connection_padded}} instead of {{counters.one_per_connection_compact}} (the \
         article's figure, with eight shards per connection: {{counters.sharded_per_connection_padded}} instead of \
         {{counters.sharded_per_connection_compact}}",
    ),
    ("notebooks/04-gc-ratio.ipynb", "{{gc.heap_minimum_2400}} at `GOGC=2400`, {{gc.heap_minimum_11300}} at 11300"),
    (
        "notebooks/05-pool-sizing.ipynb",
        "average {{pool.path_wait}}, and the formula then gives {{pool.path_threads}} threads on 8 cores",
    ),
];

#[test]
fn the_figures_the_docs_and_notebooks_quote_are_the_libs() {
    for (relative, template) in QUOTED {
        assert!(figures::unknown(template).is_empty(), "{template}: {:?}", figures::unknown(template));
        let expected = flat(&figures::fill(template));
        assert!(
            flat(&shown(relative)).contains(&expected),
            "{relative} no longer says, as the lib computes it:\n{expected}"
        );
    }
}

/// Sentences found wrong (issue 56), each as it stood: none may return.
const WRONG: &[&str] = &[
    "mean of a 1-2 ms path",
    "W as a mean of two paths",
    "with an average wait of 49 ms",
    "was fed the *mean* wait of two unlike paths",
    "With W = 49 ms the *average* wait per request",
    "100 000 shards: 100 MB",
    "one of 100 000 shards costs 100 MB",
    "24 times the live heap",
    "the trigger was a constant few megabytes",
    "every time 4 MiB had been allocated",
    "the memory allocated since the last one reaches `GOGC` percent",
    "4 MB going to 4 MB with a 5 MB goal",
    "pin thread *i* to CPU *i*",
    "pins thread *i* to CPU *i*",
    "behind the slow ones in the run queue",
    "(a trip to L3 or to memory)",
    "(to L3 or memory)",
    "three CASes per enter and leave",
    "15% is the cost of AQS's queue",
    "with biased locking gone",
    "biased locking removed",
    "as past the article's cores",
    "MESI's Modified state)",
    "Apple's chips, which is why crossbeam",
    "Apple's big cores have 128-byte lines",
    "The starting point, Java's `AtomicLong`",
    "(8.51x) (B5)",
    "1.00x: none beyond the noise",
];

#[test]
fn none_of_the_wrong_sentences_returns() {
    let mut places: Vec<String> = ["README.md", "notebooks/README.md"].map(String::from).to_vec();
    for (folder, suffix) in [
        ("docs", ".md"),
        ("lib/src", ".md"),
        ("data/reference", ".csv"),
        ("notebooks", ".ipynb"),
        ("lib/src", ".rs"),
        ("report/src", ".rs"),
    ] {
        places.extend(files(folder, suffix));
    }
    assert!(places.iter().any(|place| place.ends_with("05-pool-sizing.ipynb")), "{places:?}");
    let found: Vec<String> = places
        .iter()
        .flat_map(|place| {
            let text = flat(&shown(place));
            WRONG.iter().filter(move |wrong| text.contains(*wrong)).map(move |wrong| format!("{place}: {wrong}"))
        })
        .collect();
    assert!(found.is_empty(), "sentences found wrong are back:\n{}", found.join("\n"));
}

/// The terms the glossary must explain, each as its entry begins.
const TERMS: &[&str] = &[
    "Cache line",
    "Coherence granule",
    "MESI and its states",
    "HITM",
    "False sharing and true sharing",
    "`LOCK XADD` / `LDADDAL`",
    "Padding",
    "CAS",
    "Futex",
    "Barging and hand-off",
    "Optimistic read",
    "Safepoint",
    "Mark assist",
    "Heap goal and heap minimum",
    "GOGC",
    "p99",
    "Little's law",
    "Goetz's formula",
    "Run-queue delay",
];

#[test]
fn the_glossary_explains_each_term_and_names_its_notebook() {
    let glossary = read("docs/glossary.md");
    let entries: Vec<&str> = glossary.split("\n- **").skip(1).collect();
    for term in TERMS {
        let entry = entries.iter().find(|entry| entry.starts_with(term));
        let entry = entry.unwrap_or_else(|| panic!("docs/glossary.md has no entry for {term}"));
        let entry = entry.split("\n\n").next().unwrap_or_default();
        assert!(entry.contains("*Notebook"), "{term}: its entry names no notebook that shows it");
    }
}

#[test]
fn the_glossary_is_linked_from_the_guide_the_handout_and_every_notebook() {
    for relative in ["docs/workshop.md", "docs/handout.md"] {
        assert!(read(relative).contains("](glossary.md)"), "{relative} does not link docs/glossary.md");
    }
    let notebooks = files("notebooks", ".ipynb");
    assert!(notebooks.len() >= 8, "{notebooks:?}");
    for relative in notebooks {
        let first = notebook_cells(&relative).into_iter().next().unwrap_or_default();
        assert!(first.contains("](../docs/glossary.md)"), "{relative}'s first cell does not link the glossary");
    }
}
