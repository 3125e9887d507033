//! Article B's claims (the collector's ratio) reach each of their statuses.

use super::*;

/// The GC cells, Go's and the model's alike, with `change` applied to each (threads, ratio,
/// trial) row; `go` false leaves Go out.
fn collector(cpus: usize, go: bool, change: impl Fn(u64, GcRatio, u64, &mut f64, &mut f64, &mut f64)) -> Run {
    let mut run = fixture(cpus);
    edit(&mut run, |row: &mut gc::Row| {
        change(row.threads, row.ratio, row.trial, &mut row.ops_per_sec, &mut row.cycles_per_sec, &mut row.cpu_share)
    });
    if go {
        edit(&mut run, |row: &mut GoRow| {
            change(row.threads, row.ratio, row.trial, &mut row.ops_per_sec, &mut row.cycles_per_sec, &mut row.cpu_share)
        });
    } else {
        run.rows_mut::<GoRow>().unwrap().clear();
    }
    run
}

/// Throughput per (threads, ratio) from `ops`, nothing else changed.
pub(super) fn throughput(cpus: usize, ops: impl Fn(u64, GcRatio) -> f64) -> Run {
    collector(cpus, true, |threads, ratio, trial, per_s, _, _| *per_s = around(ops(threads, ratio), trial))
}

#[test]
fn b1_b5_b6_b7_throughput_against_threads_and_ratios() {
    let at_default = |at_8: f64| {
        move |threads: u64, ratio| match (threads, ratio) {
            (4, GcRatio::DEFAULT) => 348.0,
            (8, GcRatio::DEFAULT) => at_8,
            _ => 100.0,
        }
    };
    reaches(
        "B1",
        vec![
            (Status::Reproduced, throughput(MANY, at_default(100.0))),
            (Status::Smaller, throughput(MANY, at_default(300.0))),
            (Status::Differs, throughput(MANY, at_default(1000.0))),
            (Status::NeedsCores(48), throughput(2, at_default(100.0))),
        ],
    );
    let high = |gain: f64| {
        move |threads: u64, ratio| if threads == 8 && ratio != GcRatio::DEFAULT { 100.0 * gain } else { 100.0 }
    };
    reaches(
        "B5",
        vec![
            (Status::Reproduced, throughput(MANY, high(8.51))),
            (Status::Smaller, throughput(MANY, high(2.0))),
            (Status::Differs, throughput(MANY, high(0.5))),
            (Status::NeedsCores(48), throughput(2, high(0.5))),
            (Status::NeedsCores(48), throughput(2, high(8.51))),
        ],
    );
    reaches(
        "B6",
        vec![
            (Status::Reproduced, throughput(MANY, high(8.75))),
            (Status::Smaller, throughput(MANY, high(2.0))),
            (Status::Differs, throughput(MANY, high(0.5))),
            (Status::NotBeyondNoise, throughput(MANY, high(1.0))),
        ],
    );
    let best = |speedup: f64| {
        move |threads: u64, ratio| if threads == 8 && ratio == GcRatio::Off { 100.0 * speedup } else { 100.0 }
    };
    reaches(
        "B7",
        vec![
            (Status::Reproduced, throughput(MANY, best(22.56))),
            (Status::Smaller, throughput(MANY, best(3.0))),
            (Status::NotBeyondNoise, throughput(MANY, best(1.0))),
        ],
    );
    // Go decides where it ran; the model alone where it did not.
    let model_only = |gain: f64| {
        let mut run = throughput(MANY, high(0.5));
        edit(&mut run, |row: &mut gc::Row| {
            if row.threads == 8 && row.ratio != GcRatio::DEFAULT {
                row.ops_per_sec = around(100.0 * gain, row.trial);
            }
        });
        run
    };
    reaches("B5", vec![(Status::Differs, model_only(8.51))]);
    let mut without_go = model_only(8.51);
    without_go.rows_mut::<GoRow>().unwrap().clear();
    reaches("B5", vec![(Status::Reproduced, without_go)]);
}

#[test]
fn b2_b3_b9_shares_cycles_and_hyper_threads() {
    let share = |value: f64| collector(MANY, true, move |_, _, trial, _, _, share| *share = around(value, trial));
    reaches(
        "B2",
        vec![(Status::Reproduced, share(0.4721)), (Status::Differs, share(0.95)), (Status::Differs, share(0.1))],
    );
    let cycles = |value: f64| collector(MANY, true, move |_, _, trial, _, rate, _| *rate = around(value, trial));
    reaches(
        "B3",
        vec![(Status::Reproduced, cycles(500.0)), (Status::Differs, cycles(5.0)), (Status::Differs, cycles(5000.0))],
    );
    let smt = |rise: f64| {
        let mut run = throughput(MANY, move |threads, ratio| match (threads, ratio) {
            (8, GcRatio::Off) => 100.0 * rise,
            (4, GcRatio::Off) => 100.0,
            _ => 10.0,
        });
        run.manifest.machine.available_parallelism = 8;
        run.manifest.machine.physical_cores = Some(4);
        run
    };
    let mut no_smt = smt(2.0);
    no_smt.manifest.machine.physical_cores = Some(8);
    reaches(
        "B9",
        vec![(Status::NeedsCores(48), smt(2.0)), (Status::NeedsCores(48), smt(0.5)), (Status::NotMeasurable, no_smt)],
    );
    // Below the setting's 48 CPUs the CPU count decides; the judge itself reaches both ends.
    for (expected, rise) in [(Status::Reproduced, 2.0), (Status::Differs, 0.5)] {
        let judged = crate::gc::answers::answer(
            "B9",
            &crate::present::claims::Context { run: &smt(rise), cpus: 8, target: None },
        );
        assert_eq!(judged.status, expected, "{}", judged.status_text());
    }
}

#[test]
fn b4_the_heap_against_the_articles_goal() {
    let heap = |mib: f64| {
        let mut run = fixture(MANY);
        edit(&mut run, |row: &mut gc::Row| row.peak_heap_bytes = (mib * f64::from(1 << 20)) as u64);
        run
    };
    // The fixture's Go predates the heap goal: the model answers.
    reaches("B4", vec![(Status::Reproduced, heap(4.5)), (Status::Differs, heap(9.0)), (Status::Differs, heap(1.0))]);
    let goal = |mib: f64| {
        let mut run = heap(9.0);
        edit(&mut run, |row: &mut GoRow| row.heap_goal_bytes = around(mib, row.trial) * f64::from(1 << 20));
        run
    };
    reaches("B4", vec![(Status::Reproduced, goal(4.4)), (Status::Differs, goal(40.0))]);
    assert!(answered(&goal(4.4), "B4").figure.starts_with("Go: heap goal"));
}

#[test]
fn b8_c21_are_said_not_measured() {
    reaches("B8", vec![(Status::NotMeasurable, fixture(MANY))]);
    reaches("C21", vec![(Status::NotMeasurable, fixture(MANY))]);
}
