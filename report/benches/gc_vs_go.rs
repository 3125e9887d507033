//! The GC model beside the real Go collector on the quick grid (`cargo bench -p
//! contention-report --bench gc_vs_go`): runs `contention run gc --quick` (model, then Go
//! when it is on PATH) into a temporary folder, then prints side by side signatures/s at
//! one thread, cycles/s and pause share at ratio 100, and the gain of ratio 2400 at 4x the
//! CPUs. Figures, not assertions: a benchmark measures, it does not pass or fail on them.

#![allow(clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use contention::gc::compare::{agreement, figures, Figures};
use contention::gc::{summarize, summarize_go, GoRow, Row, GO_CSV};
use contention::machine::logical_cpus;
use serde::de::DeserializeOwned;

fn read<R: DeserializeOwned>(path: &Path) -> Vec<R> {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    reader.deserialize().collect::<Result<_, _>>().unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn run_folder(out: &Path) -> PathBuf {
    let mut folders = std::fs::read_dir(out).expect("the run folder exists").filter_map(Result::ok);
    folders.next().expect("contention run wrote one run folder").path()
}

fn column(figures: Option<&Figures>, value: impl Fn(&Figures) -> Option<String>) -> String {
    figures.and_then(value).unwrap_or_else(|| "-".into())
}

fn main() {
    let out = std::env::temp_dir().join(format!("contention-gc-vs-go-{}", std::process::id()));
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_contention"))
        .args(["run", "gc", "--quick", "--out"])
        .arg(&out)
        .status()
        .expect("the contention binary runs");
    assert!(status.success(), "contention run gc --quick failed");
    let wall = started.elapsed();
    let run = run_folder(&out);
    let gain_threads = 4 * logical_cpus() as u64;
    let model = figures(&summarize(&read::<Row>(&run.join("gc.csv"))), gain_threads);
    let go_path = run.join(GO_CSV);
    let go_rows: Vec<GoRow> = if go_path.is_file() { read(&go_path) } else { Vec::new() };
    let go = (!go_rows.is_empty()).then(|| figures(&summarize_go(&go_rows), gain_threads));
    println!(
        "contention run gc --quick took {:.1} s (model and Go) on {} logical CPUs",
        wall.as_secs_f64(),
        logical_cpus()
    );
    println!("{:<44} {:>14} {:>14}", "", "model", "Go");
    let one = |f: &Figures| f.one_thread_ops_per_sec.map(|ops| format!("{ops:.0}"));
    println!(
        "{:<44} {:>14} {:>14}",
        "signatures/s, 1 thread, ratio 100",
        one(&model).unwrap_or("-".into()),
        column(go.as_ref(), one)
    );
    for point in &model.at_default {
        let go_point = |f: &Figures| f.at_default.iter().find(|p| p.threads == point.threads).cloned();
        let judged = |too_few: bool| if too_few { " (few)" } else { "" };
        let cycles = |p: &contention::gc::compare::DefaultRatioPoint| {
            format!("{:.1}{}", p.cycles_per_sec, judged(p.too_few_cycles))
        };
        let pause = |p: &contention::gc::compare::DefaultRatioPoint| format!("{:.2}%", 100.0 * p.pause_share);
        let label = format!("ratio 100, {} threads: cycles/s", point.threads);
        println!("{label:<44} {:>14} {:>14}", cycles(point), column(go.as_ref(), |f| go_point(f).map(|p| cycles(&p))));
        let label = format!("ratio 100, {} threads: pause share", point.threads);
        println!("{label:<44} {:>14} {:>14}", pause(point), column(go.as_ref(), |f| go_point(f).map(|p| pause(&p))));
    }
    let gain = |f: &Figures| {
        f.high_ratio_gain
            .as_ref()
            .map(|g| format!("{:.2}x{}", g.gain.value, if g.too_few_cycles { " (few)" } else { "" }))
    };
    let at = model.high_ratio_gain.as_ref().map_or(gain_threads, |g| g.threads);
    let label = format!("ratio 2400 over 100, {at} threads");
    println!("{label:<44} {:>14} {:>14}", gain(&model).unwrap_or("-".into()), column(go.as_ref(), gain));
    println!("(few) = fewer than {} cycles in the cell: too few cycles to judge", contention::gc::MIN_CYCLES_TO_JUDGE);
    match &go {
        Some(go) => println!("{}", agreement(&model, go)),
        None => println!("Go did not run (no `go` on PATH?): only the model was measured."),
    }
    let _ = std::fs::remove_dir_all(&out);
}
