//! Both core-to-core methods on this machine in one run: the pinned matrix, then the
//! unpinned one (threads where the scheduler puts them, samples where a thread moved
//! dropped), each pair's medians side by side, with the unpinned median's distance from the
//! pinned one and the share of samples dropped. The check: each pair's unpinned
//! median within 20% of its pinned median. `cargo bench -p contention --bench c2c_methods`
//! (add `-- --quick` for the quick profile's sizes; on the fallback build with a CPU number,
//! `--features platform-fallback-cpu-number`, only the unpinned method can run).

#![allow(clippy::print_stdout, clippy::print_stderr)]

use contention::c2c::{self, dropped_samples, pairs_never_seen, summarize, Config, PairSummary};
use contention::harness::ProgressEvent;

/// The bound on an unpinned median's distance from the pinned one.
const MOST_APART: f64 = 0.20;

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let base = if quick {
        Config::quick()
    } else {
        Config { samples_per_pair: 200, round_trips_per_sample: 200, ..Config::quick() }
    };
    let base = Config { budget: std::time::Duration::from_secs(60), ..base };
    let mut progress = |event: &ProgressEvent| eprintln!("[{}/{}] {}", event.done, event.total, event.label);
    let pinned = if base.measures_unpinned() {
        let why = contention::platform::pinning_unavailable().map_or("", |why| why.0);
        println!("pinned: not measured in this build ({why})");
        None
    } else {
        Some(measure(&base, &mut progress, "pinned"))
    };
    let unpinned_rows = measure_rows(&Config { unpinned: true, ..base.clone() }, &mut progress, "unpinned");
    let unpinned = summarize(&unpinned_rows);
    if let Some(tally) = dropped_samples(&unpinned_rows) {
        println!(
            "unpinned: {} samples taken, {} dropped ({:.1}%): {} where a thread moved, {} where both ran on one CPU",
            tally.taken,
            tally.moved + tally.one_cpu,
            tally.share() * 100.0,
            tally.moved,
            tally.one_cpu
        );
    }
    let unseen = pairs_never_seen(&unpinned, &c2c::unpinned::machine_cpus());
    println!(
        "unpinned: pairs never seen: {}",
        if unseen.is_empty() { "none".to_string() } else { format!("{unseen:?}") }
    );
    println!(
        "{:<8} {:>22} {:>22} {:>10} {:>10}",
        "CPUs", "pinned CAS / hs (ns)", "unpinned CAS / hs (ns)", "CAS apart", "hs apart"
    );
    for pair in &unpinned {
        let pinned_pair =
            pinned.as_ref().and_then(|pinned| pinned.iter().find(|p| (p.cpu_a, p.cpu_b) == (pair.cpu_a, pair.cpu_b)));
        print_pair(pair, pinned_pair);
    }
}

fn measure(config: &Config, progress: &mut dyn FnMut(&ProgressEvent), method: &str) -> Vec<PairSummary> {
    summarize(&measure_rows(config, progress, method))
}

fn measure_rows(config: &Config, progress: &mut dyn FnMut(&ProgressEvent), method: &str) -> Vec<c2c::Row> {
    match c2c::run(config, progress) {
        Ok(outcome) => outcome.rows,
        Err(error) => {
            eprintln!("c2c {method}: {error}");
            std::process::exit(1);
        }
    }
}

fn cas(pair: &PairSummary) -> f64 {
    pair.cas_one_way_ns.as_ref().map_or(f64::NAN, |cas| cas.median)
}

fn print_pair(unpinned: &PairSummary, pinned: Option<&PairSummary>) {
    let both = |pair: &PairSummary| format!("{:.1} / {:.1}", cas(pair), pair.one_way_ns.median);
    let apart = |unpinned: f64, pinned: f64| {
        let share = (unpinned - pinned) / pinned;
        format!("{:+.1}%{}", share * 100.0, if share.abs() <= MOST_APART { "" } else { " (>20%)" })
    };
    let (pinned_text, cas_apart, handshake_apart) = match pinned {
        Some(pinned) => (
            both(pinned),
            apart(cas(unpinned), cas(pinned)),
            apart(unpinned.one_way_ns.median, pinned.one_way_ns.median),
        ),
        None => ("not measured".to_string(), "-".to_string(), "-".to_string()),
    };
    let cpus = format!("{}-{}", unpinned.cpu_a, unpinned.cpu_b);
    println!("{cpus:<8} {pinned_text:>22} {:>22} {cas_apart:>10} {handshake_apart:>10}", both(unpinned));
    println!(
        "         unpinned: {} kept, {} dropped where a thread moved",
        unpinned.one_way_ns.samples, unpinned.dropped
    );
}
