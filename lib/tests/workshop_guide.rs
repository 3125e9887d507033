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
    let article_stride = contention::stride::present::reference().expect("the article's stride table loads");
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
    let table = workshop::platforms_table(&found.runs, &claims, &contention::stride::present::reference().unwrap());
    assert_eq!(table.columns.len(), 2 + found.runs.len());
    assert_eq!(table.rows.len(), 1 + contention::present::room::effects().len());
    assert!(table.rows.iter().all(|row| row.len() == table.columns.len()));
    for run in &found.runs {
        let line = workshop::machine_line(run);
        assert!(line.starts_with(&run.label()), "{line}");
        assert!(line.contains(&format!("{} logical CPUs", run.manifest.machine.logical_cpus)), "{line}");
    }
}

/// The guide's sentences that quote a figure of the lib (`present::figures`), as `{{name}}`
/// templates: each must stand in the guide as the lib fills it.
const QUOTED: &[&str] = &[
    "| 100 000 counters padded to 128 B: {{counters.one_per_connection_padded}} against \
     {{counters.one_per_connection_compact}} compact |",
    "counter per connection padded to 128 B costs {{counters.one_per_connection_padded}} for 100 000 connections, \
     against {{counters.one_per_connection_compact}} compact",
    "(1 024 B padded, 64 B compact: {{counters.sharded_per_connection_padded}}, which it rounds to 100 MB)",
    "| the heap minimum: 4 MiB × GOGC/100 |",
    "{{gc.heap_minimum_100}} at GOGC=100, which many allocating threads fill every 1-3 ms; \
     {{gc.heap_minimum_2400}} at 2400; {{gc.heap_minimum_11300}} at 11300",
    "| the formula on the board: W from the two paths is {{pool.path_wait}}, not 49 ms |",
    "average {{pool.path_wait}}, and the formula then gives {{pool.path_threads}} threads, inside the author's own \
     32-64",
];

#[test]
fn the_guides_figures_are_the_libs() {
    let guide = std::fs::read_to_string(root().join("docs/workshop.md")).expect("docs/workshop.md exists");
    let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let guide = flat(&guide);
    for template in QUOTED {
        let unknown = contention::present::figures::unknown(template);
        assert!(unknown.is_empty(), "{template}: no figure named {unknown:?}");
        let expected = flat(&contention::present::figures::fill(template));
        assert!(guide.contains(&expected), "docs/workshop.md no longer says, as the lib computes it:\n{expected}");
    }
}

/// The guide's pool talking point says what to tell a class because the kept runs show no
/// pool effect: it stands only while every kept run is a 2-CPU one whose two p99 intervals
/// overlap. A kept run that shows the effect fails here, and the sentence must change.
#[test]
fn the_kept_runs_show_no_pool_effect_as_the_guide_says() {
    let guide = std::fs::read_to_string(root().join("docs/workshop.md")).unwrap();
    let guide = guide.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        guide.contains("on the kept 2-CPU runs above the two pool rows (8 and 40 threads per CPU) overlap: no effect")
    );
    let found = find_runs(root().join("data/examples")).unwrap();
    for run in &found.runs {
        assert_eq!(run.manifest.machine.logical_cpus, 2, "{}: the guide calls the kept runs 2-CPU ones", run.label());
        let effects = contention::present::room::KeyEffects::of(run);
        let interval = |id: &str| effects.effect(id).and_then(|value| value.value.as_ref()).map(|r| (r.low, r.high));
        let (Some(small), Some(large)) = (interval("pool-p99-8"), interval("pool-p99-40")) else {
            panic!("{}: a kept run without both pool p99 rows", run.label());
        };
        assert!(
            small.0 <= large.1 && large.0 <= small.1,
            "{}: the pool's p99 at 8 and 40 threads per CPU no longer overlap ({small:?} against {large:?}); \
             docs/workshop.md's pool talking point says the kept runs show no effect",
            run.label()
        );
    }
}
