//! Times `contention::locks::run` with the quick config (or the default one, given
//! `default`) and prints every cell and each claim's sentence:
//! `cargo run --release -p contention --example locks_quick [default]` (the budgets:
//! 15 s quick without the JVM, 3 minutes default).

use std::time::Instant;

use contention::locks::{claims, run, summarize, Config};

#[allow(clippy::print_stdout)]
fn main() {
    let config = if std::env::args().any(|arg| arg == "default") { Config::default() } else { Config::quick() };
    let started = Instant::now();
    let outcome = run(&config, &mut contention::harness::no_progress).expect("the locks experiment failed");
    let elapsed = started.elapsed();
    let summaries = summarize(&outcome.rows);
    for s in &summaries {
        println!(
            "{:<18} {:<45} {:>10.1} ns/op {:>12.0} ops/s handoffs {:?} max_share {:.2} blocked {:.2} torn {}",
            s.case.name(),
            s.label(),
            s.ns_per_op.median,
            s.ops_per_sec.median,
            s.handoffs_per_op.as_ref().map(|h| (h.median * 1e4).round() / 1e4),
            s.max_share.median,
            s.blocked_share.median,
            s.torn_retries
        );
    }
    let article = contention::locks::present::reference().expect("the article's numbers are compiled in");
    for claim in claims(&summaries, &article, None) {
        println!("[{}] {}", claim.status.label(), claim.sentence);
    }
    println!(
        "{} rows, budget exhausted: {}, the run took {:.1} s",
        outcome.rows.len(),
        outcome.budget_exhausted,
        elapsed.as_secs_f64()
    );
}
