//! The GC sweep end to end on tiny sizes: every invariant the model promises, checked on
//! the rows a real run returns. Nothing here asserts a speed-up.

use std::sync::OnceLock;
use std::time::Duration;

use contention::gc::{self, Config, GcRatio, Row, Workload};
use contention::harness::no_progress;
use contention::RunError;

const MIB: u64 = 1 << 20;

/// Ratio 1 collects at almost every refill; `off` only when the 8 MiB ceiling is reached.
fn tiny() -> Config {
    Config {
        threads: vec![1, 4],
        ratios: vec![GcRatio::Percent(1), GcRatio::DEFAULT, GcRatio::Off],
        trial: Duration::from_millis(60),
        live_bytes: 64 << 10,
        ceiling_bytes: 8 * MIB,
        workload: Workload::Hash,
        trials: 2,
        warmup: Duration::ZERO,
        ..Config::quick()
    }
}

/// One run shared by every test (they only read it).
fn run_tiny() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let outcome = gc::run(&tiny(), &mut no_progress).expect("the tiny sweep runs and verifies");
        assert!(!outcome.budget_exhausted);
        outcome.rows
    })
}

#[test]
fn every_cell_has_a_row_per_trial() {
    let rows = run_tiny();
    assert_eq!(rows.len(), 2 * 3 * 2);
    for row in rows {
        assert!(row.operations > 0, "{row:?}");
        assert!(row.ops_per_sec.is_finite() && row.pause_share >= 0.0 && row.pause_share <= 1.0, "{row:?}");
    }
}

#[test]
fn no_garbage_is_left_unaccounted_and_the_live_graph_stays_intact() {
    for row in run_tiny() {
        assert_eq!(row.objects_allocated, row.operations * gc::config::GO_SIGN_OBJECTS as u64, "{row:?}");
        assert_eq!(row.bytes_allocated, row.operations * gc::config::GO_SIGN_ALLOC_BYTES, "{row:?}");
        assert_eq!(row.objects_freed + row.objects_outstanding, row.objects_allocated, "{row:?}");
        assert_eq!(row.bytes_freed + row.bytes_outstanding, row.bytes_allocated, "{row:?}");
        assert_eq!(row.live_nodes, (64 << 10) / 64, "{row:?}");
        assert_eq!(row.nodes_marked, row.cycles * row.live_nodes, "{row:?}");
        assert_eq!(row.stacks_scanned, row.cycles * row.threads, "{row:?}");
    }
}

#[test]
fn cycles_are_counted_and_their_phases_timed() {
    let rows = run_tiny();
    let busy = rows.iter().find(|row| row.threads == 4 && row.ratio == GcRatio::Percent(1)).unwrap();
    assert!(busy.cycles > 0, "{busy:?}");
    assert!(busy.stop_ns > 0 && busy.mark_ns > 0 && busy.pause_max_ns > 0, "{busy:?}");
    assert!(busy.stop_ns + busy.mark_ns <= busy.pause_total_ns, "{busy:?}");
    assert_eq!(busy.mark_workers, 1, "a quarter of 4 workers, rounded");
    for row in rows {
        assert!(row.refills > 0, "every worker refills its first span: {row:?}");
        assert!(row.pause_max_ns <= row.pause_total_ns, "{row:?}");
        assert!((row.cycles_per_sec - row.cycles as f64 / (row.elapsed_ns as f64 / 1e9)).abs() < 1e-6, "{row:?}");
    }
}

#[test]
fn the_ceiling_is_never_exceeded_and_forces_cycles_when_off() {
    for row in run_tiny() {
        assert!(row.peak_heap_bytes <= row.ceiling_bytes, "{row:?}");
        assert!(row.peak_heap_bytes >= row.live_bytes, "{row:?}");
        if row.ratio == GcRatio::Off {
            // `off` never paces: every cycle it ran, the ceiling forced.
            assert_eq!(row.ceiling_cycles, row.cycles, "{row:?}");
            if row.bytes_allocated > 2 * row.ceiling_bytes {
                assert!(row.cycles > 0, "{row:?}");
            }
        } else {
            assert_eq!(row.ceiling_cycles, 0, "{row:?}");
        }
    }
}

#[test]
fn summary_marks_cells_with_too_few_cycles() {
    let rows = run_tiny();
    let cells = gc::summarize(rows);
    assert_eq!(cells.len(), 6);
    for cell in &cells {
        let cycles: u64 =
            rows.iter().filter(|r| r.threads == cell.threads && r.ratio == cell.ratio).map(|r| r.cycles).sum();
        assert_eq!(cell.cycles, cycles);
        assert_eq!(cell.too_few_cycles, cycles < gc::MIN_CYCLES_TO_JUDGE, "{cell:?}");
    }
    let text = gc::finding(&cells, None);
    assert!(text.starts_with("At ratio 100 throughput peaked at "), "{text}");
}

#[test]
fn bad_configs_are_refused_before_measuring() {
    let refused = |config: Config| match gc::run(&config, &mut no_progress) {
        Err(RunError::Config(error)) => error.field,
        other => panic!("expected a config error, got {other:?}"),
    };
    assert_eq!(refused(Config { threads: vec![0], ..tiny() }), "threads");
    assert_eq!(refused(Config { trial: Duration::ZERO, ..tiny() }), "seconds");
    assert_eq!(refused(Config { live_bytes: 8 * MIB, ..tiny() }), "live-bytes");
    assert_eq!(refused(Config { alloc_per_op_bytes: 8 * MIB, ..tiny() }), "alloc-per-op");
    assert_eq!(refused(Config { ratios: vec![], ..tiny() }), "ratios");
    assert_eq!(refused(Config { trials: 0, ..tiny() }), "trials");
}
