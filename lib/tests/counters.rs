//! The counter layouts: every total exact, sizes as documented, the striped read equal to
//! the increments, bad configs refused by name, and sentences that follow the intervals.

use std::mem::{align_of, size_of};
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::Duration;

use contention::counters::{
    self, build, finding, shard_finding, summarize, summarize_shards, Config, Layout, Padded64, Part, Row,
    CACHE_PADDED_BYTES,
};
use contention::harness::no_progress;
use contention::verdict::{Fitness, Reason, ReasonKind, Verdict};
use contention::{fault, RunError};

fn small(threads: usize) -> Config {
    Config {
        threads,
        total_increments: 3 * 2_500,
        flush_every: 1024,
        stripes: 4,
        shard_counts: vec![1, 4],
        trials: 2,
        warmup: Duration::ZERO,
        budget: Duration::from_secs(60),
    }
}

#[test]
fn every_layout_and_shard_count_verifies_its_total_at_one_two_and_three_threads() {
    for threads in 1..=3 {
        let outcome = counters::run(&small(threads), &mut no_progress).unwrap();
        assert!(!outcome.budget_exhausted);
        assert_eq!(outcome.rows.len(), (Layout::ALL.len() + 2 * 2) * 2, "{threads} threads");
        for row in &outcome.rows {
            assert_eq!(row.threads, threads as u64);
            assert_eq!(row.increments_per_thread * row.threads, row.total_increments, "{:?}", row.layout);
            assert_eq!(row.total_increments % 7_500, 0, "calibration multiplies each case's work: {row:?}");
        }
        let layouts = || outcome.rows.iter().filter(|row| row.part == Part::Layouts);
        for layout in Layout::ALL {
            assert_eq!(layouts().filter(|row| row.layout == layout).count(), 2, "{layout:?}");
        }
        let sweep: Vec<&Row> = outcome.rows.iter().filter(|row| row.part == Part::ShardSweep).collect();
        for (layout, shards) in
            [(Layout::Compact, 1), (Layout::Compact, 4), (Layout::CachePadded, 1), (Layout::CachePadded, 4)]
        {
            let rows: Vec<&&Row> = sweep.iter().filter(|row| row.layout == layout && row.cells == shards).collect();
            assert_eq!(rows.len(), 2, "{layout:?} with {shards} shards");
        }
        // One trial's work for a case stays the same across its trials.
        for row in &outcome.rows {
            let same_case =
                outcome.rows.iter().filter(|r| (r.part, r.layout, r.cells) == (row.part, row.layout, row.cells));
            assert!(same_case.clone().all(|r| r.increments_per_thread == row.increments_per_thread), "{row:?}");
        }
    }
}

#[test]
fn the_shard_sweep_summarises_each_layout_and_count_and_says_what_it_showed() {
    let outcome = counters::run(&Config { trials: 5, ..small(2) }, &mut no_progress).unwrap();
    let sweep = summarize_shards(&outcome.rows);
    assert_eq!(sweep.len(), 4);
    assert_eq!(
        sweep.iter().map(|s| (s.layout, s.shards)).collect::<Vec<_>>(),
        [(Layout::Compact, 1), (Layout::Compact, 4), (Layout::CachePadded, 1), (Layout::CachePadded, 4)]
    );
    assert!(sweep.iter().all(|s| s.layout == Layout::Compact || s.padded_faster.is_some()));
    assert_eq!(summarize(&outcome.rows).len(), Layout::ALL.len(), "the sweep stays out of the layouts");
    let sentence = shard_finding(&sweep).unwrap();
    assert!(sentence.starts_with("The shard-count sweep (2 threads, 1 to 4 shards"), "{sentence}");
    assert!(sentence.contains("compact array's time per add"), "{sentence}");
    assert!(shard_finding(&[]).is_none());
    let few = summarize_shards(&counters::run(&small(2), &mut no_progress).unwrap().rows);
    assert!(shard_finding(&few).unwrap().contains("claims nothing: too few trials (n=2"), "{few:?}");
}

#[test]
fn a_wrong_total_is_a_verification_error_naming_the_layout() {
    let error = fault::with_extra_increments(2, || counters::run(&small(2), &mut no_progress)).unwrap_err();
    match error {
        RunError::Verification { experiment, case, expected, actual, .. } => {
            assert_eq!((experiment, actual), ("counters", expected + 2));
            assert_eq!(case, Layout::ALL[0].name());
        }
        other => panic!("expected a verification error, got {other:?}"),
    }
}

#[test]
fn padded_layouts_have_the_documented_size_and_alignment() {
    assert_eq!(size_of::<Padded64<AtomicU64>>(), 64);
    assert_eq!(align_of::<Padded64<AtomicU64>>(), 64);
    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        assert_eq!(CACHE_PADDED_BYTES, 128);
    }
    let shards: Vec<Padded64<AtomicU64>> = (0..3).map(|_| Padded64::default()).collect();
    assert_eq!(&shards[1] as *const _ as usize - &shards[0] as *const _ as usize, 64);
    assert_eq!(&shards[0] as *const _ as usize % 64, 0);
}

#[test]
fn rows_carry_the_bytes_each_layout_uses() {
    let config = small(3);
    let bytes = |layout| build(layout, &config).unwrap().bytes_used();
    assert_eq!(bytes(Layout::Compact), 3 * 8);
    assert_eq!(bytes(Layout::Padded64), 3 * 64);
    assert_eq!(bytes(Layout::CachePadded), 3 * CACHE_PADDED_BYTES);
    assert_eq!(bytes(Layout::Mutex), size_of::<Mutex<i64>>());
    assert_eq!(bytes(Layout::SharedAtomic), 8);
    assert_eq!(bytes(Layout::Striped), 4 * CACHE_PADDED_BYTES);
    assert_eq!(bytes(Layout::LocalFlush), (1 + 3) * 8);
    assert_eq!(build(Layout::LocalFlush, &config).unwrap().increments_per_write(), 1024);
    assert_eq!(build(Layout::Striped, &config).unwrap().cells(), 4);
}

#[test]
fn striped_read_equals_the_increments_after_the_writers_join() {
    for stripes in [1, 2, 3, 8] {
        let config = Config { stripes, ..small(4) };
        let striped = build(Layout::Striped, &config).unwrap();
        std::thread::scope(|scope| {
            for worker in 0..4 {
                let striped = &striped;
                scope.spawn(move || striped.add_ones(worker, 10_000));
            }
        });
        assert_eq!(striped.read(), 40_000, "{stripes} stripes");
        striped.reset();
        assert_eq!(striped.read(), 0);
    }
}

#[test]
fn local_flush_flushes_the_remainder_of_every_thread() {
    // 2 500 per thread with a flush every 1 024 leaves 452 per thread to flush at the end.
    let config = small(3);
    let row = counters::trial(build(Layout::LocalFlush, &config).unwrap().as_ref(), 3, 2_500, (0, 1)).unwrap();
    assert_eq!(row.total_increments, 7_500);
    let one_flush = Config { flush_every: 10_000, ..small(3) };
    let counter = build(Layout::LocalFlush, &one_flush).unwrap();
    counter.add_ones(0, 2_500);
    assert_eq!(counter.read(), 2_500, "a count below the interval is all remainder");
}

#[test]
fn bad_configs_are_refused_naming_the_value_and_the_allowed_range() {
    let refused = |config: Config| config.validate().unwrap_err().to_string();
    assert_eq!(refused(Config { threads: 0, ..small(1) }), "invalid threads = 0: 1 to 256 threads");
    assert!(refused(Config { total_increments: 7_501, ..small(3) })
        .starts_with("invalid total = 7501: a positive multiple of threads = 3"));
    assert_eq!(
        refused(Config { flush_every: 0, ..small(2) }),
        "invalid flush-every = 0: 1 to 6000000000 increments between flushes (e.g. 1024)"
    );
    assert_eq!(refused(Config { stripes: 0, ..small(2) }), "invalid stripes = 0: 1 to 4096 cells");
    assert_eq!(refused(Config { shard_counts: vec![4, 0], ..small(2) }), "invalid shards = 0: 1 to 4096 shards");
    assert_eq!(
        refused(Config { shard_counts: vec![4, 4], ..small(2) }),
        "invalid shards = 4: each shard count listed once"
    );
    assert_eq!(refused(Config { trials: 0, ..small(2) }), "invalid trials = 0: 1 to 10000 trials per case");
    assert!(Config::default().validate().is_ok());
    assert!(Config::quick().validate().is_ok());
}

#[test]
fn with_threads_keeps_the_increments_per_thread() {
    let config = Config::quick().with_threads(3);
    assert_eq!(config.threads, 3);
    assert_eq!(config.total_increments, 3 * Config::quick().increments_per_thread());
    assert!(config.validate().is_ok());
}

fn rows_with_times(times_ms: &[(Layout, f64)], spread: f64) -> Vec<Row> {
    let config = small(2);
    let mut rows = Vec::new();
    for &(layout, centre) in times_ms {
        let counter = build(layout, &config).unwrap();
        for (trial, offset) in [-spread, 0.0, spread, -spread / 2.0, spread / 2.0].into_iter().enumerate() {
            let elapsed_ns = ((centre + offset) * 1e6) as u64;
            rows.push(Row {
                layout,
                threads: 2,
                trial: trial as u64,
                trials_planned: 5,
                total_increments: 20_000_000,
                increments_per_thread: 10_000_000,
                cells: counter.cells() as u64,
                bytes_used: counter.bytes_used() as u64,
                increments_per_write: counter.increments_per_write(),
                elapsed_ns,
                ns_per_increment: elapsed_ns as f64 / 1e7,
                pinned: true,
                cpus: "0,1".into(),
                part: Part::Layouts,
            });
        }
    }
    rows
}

#[test]
fn separated_intervals_claim_speed_for_memory() {
    let times = [
        (Layout::Compact, 600.0),
        (Layout::Padded64, 50.0),
        (Layout::CachePadded, 20.0),
        (Layout::Mutex, 900.0),
        (Layout::SharedAtomic, 500.0),
        (Layout::Striped, 40.0),
        (Layout::LocalFlush, 10.0),
    ];
    let summaries = summarize(&rows_with_times(&times, 1.0));
    assert_eq!(summaries.len(), 7);
    let padded = summaries.iter().find(|s| s.layout == Layout::CachePadded).unwrap();
    assert!((padded.faster_than_compact.unwrap().value - 30.0).abs() < 1e-9);
    assert_eq!(padded.memory_vs_compact, Some(CACHE_PADDED_BYTES as f64 / 8.0));
    assert_eq!(padded.bytes_for_extrapolated_counters, 2 * CACHE_PADDED_BYTES as u64 * 100_000);
    let text = finding(&summaries, None);
    assert!(text.starts_with("Padding each of the 2 shards"), "{text}");
    assert!(text.contains("faster than the compact array by 30.00x"), "{text}");
    assert!(text.contains("64-byte padding still took 2.50x"), "{text}");
    assert!(text.contains("Mutex 0.56x (interval 0.55x to 0.56x), slower"), "{text}");
    assert!(text.contains("local + flush 50.00x"), "{text}");
}

#[test]
fn overlapping_intervals_claim_no_speed_up() {
    let times: Vec<(Layout, f64)> = Layout::ALL.iter().map(|&layout| (layout, 100.0)).collect();
    let summaries = summarize(&rows_with_times(&times, 5.0));
    let text = finding(&summaries, None);
    assert!(text.contains("did not make the counter measurably faster"), "{text}");
    let noisy = Verdict {
        fitness: Fitness::Limited,
        reasons: vec![Reason { kind: ReasonKind::NoisyTrials, fitness: Fitness::Limited, text: String::new() }],
        unchecked: Vec::new(),
    };
    let inline = finding(&summaries, Some(&noisy));
    assert!(!text.contains("verdict"), "{text}");
    assert!(inline.contains("This machine's verdict, limited (noisy trials), can hide the effect."), "{inline}");
    assert!(text.contains("could not be told apart"), "{text}");
    assert!(text.contains("striped 1.00x (interval 0.90x to 1.11x), not measurably different"), "{text}");
    assert_eq!(finding(&[], None), "The counter layouts were not measured.");
}

#[test]
fn rows_name_layouts_as_the_lib_does() {
    for layout in Layout::ALL {
        assert_eq!(serde_json::to_value(layout).unwrap(), serde_json::json!(layout.name()));
    }
}

#[test]
fn the_compact_array_is_the_reference_not_a_ratio() {
    let times: Vec<(Layout, f64)> = Layout::ALL.iter().map(|&layout| (layout, 100.0)).collect();
    let summaries = summarize(&rows_with_times(&times, 5.0));
    let compact = summaries.iter().find(|s| s.layout == Layout::Compact).unwrap();
    assert_eq!(compact.faster_than_compact, None);
    assert_eq!(compact.memory_vs_compact, Some(1.0));
    assert!(summaries.iter().filter(|s| s.layout != Layout::Compact).all(|s| s.faster_than_compact.is_some()));
}

#[test]
fn too_few_trials_claim_nothing_about_speed() {
    let times: Vec<(Layout, f64)> = Layout::ALL.iter().map(|&layout| (layout, 100.0 + layout as u8 as f64)).collect();
    for trials in [1, 2] {
        let rows: Vec<Row> = rows_with_times(&times, 1.0).into_iter().filter(|row| row.trial < trials).collect();
        let summaries = summarize(&rows);
        let text = finding(&summaries, None);
        assert!(text.contains(&format!("too few trials (n={trials}")), "{text}");
        assert!(!text.contains("faster") && !text.contains("Against one shared atomic"), "{text}");
        assert!(summaries.iter().all(|s| s.evidence.budget_cut));
    }
}
