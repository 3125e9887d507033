//! The pool experiment's default sweep on this machine, as a table: p99 over every arrival
//! and per class, drops, context switches per request, run-queue delay, lock and database
//! waits, CPU share and closed-loop capacity, for every fixed pool size, the split pools
//! and async tasks; then the findings. `cargo bench -p contention --features async --bench
//! pool` (add `-- --quick` for the quick config). Effect sizes belong here, not in tests.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::Instant;

use contention::harness::ProgressEvent;
use contention::pool::{self, format_ms, summarize, Config, PoolSummary};

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let config = if quick { Config::quick() } else { Config::default() };
    let started = Instant::now();
    let mut progress = |event: &ProgressEvent| eprintln!("[{}/{}] {}", event.done, event.total, event.label);
    let outcome = match pool::run(&config, &mut progress) {
        Ok(outcome) => outcome,
        Err(error) => {
            eprintln!("pool: {error}");
            std::process::exit(1);
        }
    };
    let summaries = summarize(&outcome.rows);
    println!(
        "pool sizing, {} config, {} rows in {:.0} s{}",
        if quick { "quick" } else { "default" },
        outcome.rows.len(),
        started.elapsed().as_secs_f64(),
        if outcome.budget_exhausted { " (budget exhausted: some trials skipped)" } else { "" }
    );
    if let Some(first) = summaries.first() {
        println!(
            "{} CPUs, {:.0} requests/s offered, {} CPU work + {} under the lock per request, {} db connections",
            first.cpus,
            first.offered_rate_per_s,
            format_ms(first.cpu_work_ms),
            format_ms(first.lock_hold_ms),
            first.key.db_connections
        );
    }
    println!(
        "{:<7} {:>4} {:>9} {:>10} {:>10} {:>10} {:>7} {:>8} {:>9} {:>9} {:>9} {:>6} {:>9}",
        "variant",
        "hit",
        "threads",
        "p99",
        "hit p99",
        "miss p99",
        "drop",
        "sw/req",
        "runq/req",
        "lock",
        "db",
        "cpu",
        "capacity"
    );
    summaries.iter().for_each(print_case);
    println!();
    for sentence in pool::findings(&summaries) {
        println!("- {sentence}");
    }
}

fn print_case(s: &PoolSummary) {
    let bound = |ms: f64, lower: bool| format!("{}{}", if lower { ">=" } else { "" }, format_ms(ms));
    let run_delay = s.run_delay_ms.as_ref().map_or("n/a".into(), |delay| format_ms(delay.median));
    println!(
        "{:<7} {:>3.0}% {:>9} {:>10} {:>10} {:>10} {:>6.1}% {:>8.1} {:>9} {:>9} {:>9} {:>5.0}% {:>7.0}/s",
        s.key.variant.name(),
        s.key.hit_rate * 100.0,
        format!("{}", s.key.pool_threads),
        bound(s.p99_ms.median, s.p99_lower_bound),
        bound(s.hit_p99_ms.median, s.hit_p99_lower_bound),
        bound(s.miss_p99_ms.median, s.miss_p99_lower_bound),
        s.dropped_share * 100.0,
        s.switches_per_request.median,
        run_delay,
        format_ms(s.lock_wait_ms.median),
        format_ms(s.db_wait_ms.median),
        s.cpu_share.median * 100.0,
        s.capacity_per_s.median
    );
}
