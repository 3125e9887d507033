//! docs/workshop.md's "what each platform shows" is the text the lib computes from the runs
//! kept under data/examples (`present::workshop`): this test fails when the two disagree,
//! and with UPDATE_GUIDE=1 rewrites the guide's block from the runs instead.

use std::path::{Path, PathBuf};

use contention::present::{text, workshop};
use contention::runs::find_runs;

const BEGIN: &str = "<!-- platforms: generated from data/examples; regenerate with \
                     `UPDATE_GUIDE=1 cargo test --release -p contention --test workshop_guide` -->";
const END: &str = "<!-- platforms: end -->";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The block the kept runs give: a line naming each run's machine, then the table.
fn generated_block() -> String {
    let found = find_runs(root().join("data/examples")).expect("data/examples is readable");
    assert!(found.skipped.is_empty(), "kept runs that do not load: {:?}", found.skipped);
    assert!(!found.runs.is_empty(), "no runs kept under data/examples");
    let claims = contention::reference::claims().expect("the articles' claims load");
    let article_stride = contention::reference::stride().expect("the article's stride table loads");
    let machines: Vec<String> = found.runs.iter().map(|run| format!("- {}", workshop::machine_line(run))).collect();
    let table = text::table(&workshop::platforms_table(&found.runs, &claims, &article_stride));
    format!("{BEGIN}\n{}\n\n```text\n{}\n```\n{END}", machines.join("\n"), table.trim_end())
}

#[test]
fn the_guide_shows_what_the_kept_runs_show() {
    let path = root().join("docs/workshop.md");
    let guide = std::fs::read_to_string(&path).expect("docs/workshop.md exists");
    let start = guide.find(BEGIN).expect("the guide holds the platforms block's first marker");
    let end = guide[start..].find(END).map(|end| start + end + END.len()).expect("and its last");
    let block = generated_block();
    if std::env::var_os("UPDATE_GUIDE").is_some() {
        std::fs::write(&path, format!("{}{block}{}", &guide[..start], &guide[end..])).unwrap();
        return;
    }
    assert!(
        guide[start..end] == block,
        "docs/workshop.md's platform table differs from the runs under data/examples; regenerate it with \
         `UPDATE_GUIDE=1 cargo test --release -p contention --test workshop_guide`\n--- the runs give:\n{block}"
    );
}

#[test]
fn every_kept_run_names_its_machine_and_every_effect_has_a_row() {
    let found = find_runs(root().join("data/examples")).unwrap();
    let claims = contention::reference::claims().unwrap();
    let table = workshop::platforms_table(&found.runs, &claims, &contention::reference::stride().unwrap());
    assert_eq!(table.columns.len(), 2 + found.runs.len());
    assert_eq!(table.rows.len(), 1 + contention::present::room::effects().len());
    assert!(table.rows.iter().all(|row| row.len() == table.columns.len()));
    for run in &found.runs {
        let line = workshop::machine_line(run);
        assert!(line.starts_with(&run.label()), "{line}");
        assert!(line.contains(&format!("{} logical CPUs", run.manifest.machine.logical_cpus)), "{line}");
    }
}
