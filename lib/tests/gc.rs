//! The GC sweep end to end on tiny sizes: every invariant the model promises, checked on
//! the rows a real run returns. Nothing here asserts a speed-up.

use std::sync::OnceLock;
use std::time::Duration;

use contention::gc::{self, Config, GcRatio, Row, Workload};
use contention::harness::no_progress;
use contention::RunError;

const MIB: u64 = 1 << 20;

/// Ratio 1 collects at almost every span; `off` only when the 8 MiB ceiling is reached.
fn tiny() -> Config {
    Config {
        threads: vec![1, 3],
        ratios: vec![GcRatio::Percent(1), GcRatio::DEFAULT, GcRatio::Off],
        trial: Duration::from_millis(60),
        live_bytes: 64 << 10,
        ceiling_bytes: 8 * MIB,
        workload: Workload::Hash,
        trials: 1,
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
fn every_cell_has_a_verified_row() {
    let rows = run_tiny();
    assert_eq!(rows.len(), 6);
    for row in rows {
        assert!(row.verified, "{row:?}");
        assert!(row.operations > 0, "{row:?}");
        assert!(row.ops_per_sec.is_finite() && row.pause_share >= 0.0 && row.pause_share <= 1.0, "{row:?}");
    }
}

#[test]
fn no_garbage_is_left_unaccounted_and_the_live_graph_stays_intact() {
    for row in run_tiny() {
        assert_eq!(row.objects_allocated, row.operations * 34, "{row:?}");
        assert_eq!(row.bytes_allocated, row.operations * 2560, "{row:?}");
        assert_eq!(row.objects_freed + row.objects_outstanding, row.objects_allocated, "{row:?}");
        assert_eq!(row.bytes_freed + row.bytes_outstanding, row.bytes_allocated, "{row:?}");
        assert_eq!(row.live_nodes, (64 << 10) / 64, "{row:?}");
        assert_eq!(row.nodes_traced, row.collections * row.live_nodes, "{row:?}");
    }
}

#[test]
fn the_world_is_stopped_only_between_operations() {
    let rows = run_tiny();
    for row in rows {
        assert_eq!(row.mid_operation_at_stop, 0, "{row:?}");
    }
    // The check was exercised: ratio 1 collects with three workers running.
    let busy = rows.iter().find(|row| row.threads == 3 && row.ratio == GcRatio::Percent(1)).unwrap();
    assert!(busy.collections > 0, "{busy:?}");
    assert!(busy.stop_total_ns > 0 && busy.pause_max_ns > 0, "{busy:?}");
}

#[test]
fn the_ceiling_is_never_exceeded_and_forces_cycles_when_off() {
    for row in run_tiny() {
        assert!(row.peak_heap_bytes <= row.ceiling_bytes, "{row:?}");
        assert!(row.peak_heap_bytes >= row.live_bytes, "{row:?}");
        if row.ratio == GcRatio::Off {
            // `off` never paces: every cycle it ran, the ceiling forced.
            assert_eq!(row.ceiling_collections, row.collections, "{row:?}");
            if row.bytes_allocated > row.ceiling_bytes {
                assert!(row.collections > 0, "{row:?}");
            }
        } else {
            assert_eq!(row.ceiling_collections, 0, "{row:?}");
        }
    }
}

#[test]
fn summary_and_finding_cover_every_cell() {
    let rows = run_tiny();
    let cells = gc::summarize(rows);
    assert_eq!(cells.len(), 6);
    assert_eq!(
        cells.iter().map(|c| c.ratio).collect::<Vec<_>>()[..3],
        [GcRatio::Percent(1), GcRatio::DEFAULT, GcRatio::Off]
    );
    let text = gc::finding(&cells);
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
}
