//! Article C's claims (pools, refill, locks) reach each of their statuses.

use super::*;

/// The pool's rows with `change` applied to each (variant, threads per CPU) row.
fn pool_run(change: impl Fn(Variant, u64, &mut pool::Row)) -> Run {
    let mut run = fixture(MANY);
    edit(&mut run, |row: &mut pool::Row| {
        let per_cpu = row.pool_threads / row.cpus.max(1);
        change(row.variant, per_cpu, row)
    });
    run
}

/// p99 by threads per CPU of the fixed pools (others 100 ms).
pub(super) fn p99(of: impl Fn(u64) -> f64) -> Run {
    pool_run(|variant, per_cpu, row| {
        row.p99_ms = around(if variant == Variant::Fixed { of(per_cpu) } else { 100.0 }, row.trial)
    })
}

#[test]
fn c1_c2_c10_the_incident_against_the_fix() {
    let incident = |ratio: f64| p99(move |per_cpu| if per_cpu == 40 { 100.0 * ratio } else { 100.0 });
    reaches(
        "C1",
        vec![
            (Status::Reproduced, incident(10.95)),
            (Status::Smaller, incident(2.0)),
            (Status::Differs, incident(0.5)),
            (Status::NotBeyondNoise, incident(1.0)),
        ],
    );
    let capacity = |kept: f64, spread: f64| {
        pool_run(move |_, per_cpu, row| {
            let base = if per_cpu == 8 { 100.0 * kept } else { 100.0 };
            row.capacity_per_sec = base * (1.0 + spread * (row.trial as f64 - 1.0));
        })
    };
    reaches(
        "C2",
        vec![
            (Status::Reproduced, capacity(0.96, 0.0)),
            (Status::Differs, capacity(0.5, 0.0)),
            (Status::NotBeyondNoise, capacity(1.0, 0.2)),
        ],
    );
    reaches(
        "C10",
        vec![
            (Status::Reproduced, p99(|per_cpu| if per_cpu == 8 || per_cpu == 5 { 50.0 } else { 500.0 })),
            (Status::Differs, p99(|per_cpu| if per_cpu == 1 { 50.0 } else { 500.0 })),
            (Status::NotBeyondNoise, p99(|_| 50.0)),
            (Status::NotBeyondNoise, p99(|per_cpu| if per_cpu <= 8 { 50.0 } else { 500.0 })),
        ],
    );
}

#[test]
fn c3_c4_c7_c20_are_the_labs_own_figures() {
    for id in ["C3", "C4", "C7", "C20"] {
        reaches(id, vec![(Status::SetUp, fixture(MANY)), (Status::SetUp, p99(|_| 1.0))]);
    }
}

#[test]
fn c5_c6_c9_absolute_figures() {
    let more_hits = |ms: f64| {
        pool_run(move |variant, per_cpu, row| {
            if variant == Variant::Fixed && per_cpu == 40 {
                row.hit_rate = 0.97;
                row.p99_ms = around(ms, row.trial);
            }
        })
    };
    reaches("C5", vec![(Status::Reproduced, more_hits(400.0)), (Status::Differs, more_hits(100.0))]);
    reaches("C5", vec![(Status::NotInRun, fixture(MANY))]);
    let switch = |ns: f64| pool_run(move |_, _, row| row.switch_cost_ns = around(ns, row.trial));
    reaches(
        "C6",
        vec![
            (Status::Reproduced, switch(4000.0)),
            (Status::Differs, switch(11_000.0)),
            (Status::Differs, switch(900.0)),
        ],
    );
    // Trials whose highest reaches the article's 3 us held to its printed precision (2.5 us).
    reaches("C6", vec![(Status::Reproduced, switch(2_540.0)), (Status::Differs, switch(2_300.0))]);
    let delay = |ms: f64, measured: bool| {
        pool_run(move |_, _, row| {
            row.run_delay_ms = around(ms, row.trial);
            row.run_delay_measured = measured;
        })
    };
    reaches(
        "C9",
        vec![
            (Status::Reproduced, delay(1.7, true)),
            (Status::Differs, delay(12.0, true)),
            (Status::NotMeasurable, delay(1.7, false)),
        ],
    );
}

#[test]
fn c8_the_refill_after_a_switch() {
    let refill = |ns: f64| {
        let mut run = fixture(MANY);
        edit(&mut run, |row: &mut refill::Row| row.switched_ns_per_line = around(ns, row.trial));
        run
    };
    reaches(
        "C8",
        vec![(Status::Reproduced, refill(100.0)), (Status::Differs, refill(155.0)), (Status::Differs, refill(20.0))],
    );
}

#[test]
fn c17_c18_c19_async_tasks() {
    let capacity = |gain: f64| {
        pool_run(move |variant, per_cpu, row| {
            row.capacity_per_sec = around(
                match (variant, per_cpu) {
                    (Variant::Async, _) => 100.0 * gain,
                    _ => 100.0,
                },
                row.trial,
            )
        })
    };
    reaches(
        "C17",
        vec![(Status::Reproduced, capacity(3.92)), (Status::Smaller, capacity(1.5)), (Status::Differs, capacity(0.5))],
    );
    let memory = |saved_per_thread: f64| {
        pool_run(move |variant, _, row| {
            row.reserved_bytes = 1 << 30;
            row.peak_rss_bytes = match variant {
                Variant::Fixed => 10_000_000 + (saved_per_thread * row.pool_threads as f64) as u64,
                _ => 10_000_000,
            };
        })
    };
    reaches("C18", vec![(Status::Reproduced, memory(960_000.0)), (Status::Differs, memory(20_000.0))]);
    let blocking = |loss: f64| {
        let mut run = capacity(2.0);
        let rows = run.rows_mut::<pool::Row>().unwrap();
        let mut blocked: Vec<pool::Row> = rows.iter().filter(|row| row.variant == Variant::Async).cloned().collect();
        for row in &mut blocked {
            row.variant = Variant::AsyncBlocking;
            row.capacity_per_sec = around(200.0 / loss, row.trial);
        }
        rows.extend(blocked);
        run
    };
    reaches(
        "C19",
        vec![
            (Status::Reproduced, blocking(3.0)),
            (Status::NotBeyondNoise, blocking(1.0)),
            (Status::Differs, blocking(0.5)),
        ],
    );
}

/// The JVM's rows with `change` applied to each (case, primitive, threads) row.
fn jvm(cpus: usize, change: impl Fn(LockCase, JavaPrimitive, u64, &mut JavaRow)) -> Run {
    let mut run = fixture(cpus);
    edit(&mut run, |row: &mut JavaRow| {
        let (case, primitive, threads) = (row.case, row.primitive, row.threads);
        change(case, primitive, threads, row)
    });
    run
}

/// The JVM's throughput: `primitive` in `case` at `times` the others'.
fn jvm_faster(cpus: usize, case: LockCase, primitive: JavaPrimitive, times: f64) -> Run {
    jvm(cpus, move |c, p, _, row| {
        let per_s = if c == case && p == primitive { 1e6 * times } else { 1e6 };
        row.ops_per_sec = around(per_s, row.trial);
        row.reads = (row.ops_per_sec * row.elapsed_ns as f64 / 1e9) as u64;
    })
}

#[test]
fn c11_c12_the_cost_of_a_lock() {
    let synchronized = |ns: f64| {
        jvm(MANY, move |case, primitive, _, row| {
            if case == LockCase::Uncontended && primitive == JavaPrimitive::Synchronized {
                row.ns_per_op = around(ns, row.trial);
            }
        })
    };
    reaches("C11", vec![(Status::Reproduced, synchronized(25.0)), (Status::Differs, synchronized(14.0))]);
    let rust = |ns: f64| {
        let mut run = synchronized(14.0);
        run.rows_mut::<JavaRow>().unwrap().clear();
        edit(&mut run, |row: &mut locks::Row| {
            if row.case == LockCase::Uncontended && row.primitive == Primitive::StdMutex {
                row.ns_per_op = around(ns, row.trial);
            }
        });
        run
    };
    reaches("C11", vec![(Status::Reproduced, rust(25.0)), (Status::Differs, rust(100.0))]);
    assert!(answered(&rust(25.0), "C11").why.contains("no JVM ran"));
    let trip = |ns_per_sleep: f64| {
        let mut run = fixture(MANY);
        edit(&mut run, |row: &mut locks::Row| {
            if row.primitive == Primitive::StdMutex && row.read_share == 0.0 {
                let sleeps = 0.01;
                row.ns_per_op = match row.case {
                    LockCase::Uncontended => around(10.0, row.trial),
                    _ => around(10.0 + ns_per_sleep * sleeps, row.trial),
                };
                row.handoffs_per_op = Some(sleeps);
            }
        });
        run
    };
    reaches("C12", vec![(Status::Reproduced, trip(1500.0)), (Status::Differs, trip(100.0))]);
}

#[test]
fn c13_c14_c15_c16_the_jvms_primitives_judge() {
    use JavaPrimitive::{AtomicLong, ComputeOutside, LongAdder, StampedOptimistic, Synchronized};
    let barging = |times: f64| jvm_faster(MANY, LockCase::FairVsBarging, Synchronized, times);
    reaches(
        "C13",
        vec![
            (Status::Reproduced, barging(1.15)),
            (Status::Larger, barging(2.0)),
            (Status::Differs, barging(0.5)),
            (Status::NotBeyondNoise, barging(1.0)),
            (Status::NeedsCores(2), jvm_faster(1, LockCase::FairVsBarging, Synchronized, 1.15)),
        ],
    );
    let answer = answered(&barging(1.15), "C13");
    assert!(answer.figure.contains("synchronized") && answer.why.contains("judged from the JVM's rows"), "{answer:?}");
    let stamped = |times: f64| jvm_faster(MANY, LockCase::ReadMostly, StampedOptimistic, times);
    reaches(
        "C14",
        vec![
            (Status::Reproduced, stamped(5.0)),
            (Status::Larger, stamped(20.0)),
            (Status::Smaller, stamped(1.5)),
            (Status::Differs, stamped(0.5)),
        ],
    );
    let adder = |cpus: usize, times: f64| {
        jvm(cpus, move |case, primitive, _, row| {
            if case == LockCase::Contended && matches!(primitive, LongAdder | AtomicLong) {
                let per_s = if primitive == LongAdder { 1e6 * times } else { 1e6 };
                row.ops_per_sec = around(per_s, row.trial);
            }
        })
    };
    reaches(
        "C15",
        vec![
            (Status::Reproduced, adder(MANY, 9.0)),
            (Status::Smaller, adder(MANY, 2.0)),
            (Status::Differs, adder(MANY, 0.5)),
            (Status::NeedsCores(16), adder(2, 9.0)),
        ],
    );
    let outside = |times: f64| jvm_faster(MANY, LockCase::LockAcrossWait, ComputeOutside, times);
    reaches(
        "C16",
        vec![(Status::Reproduced, outside(8.89)), (Status::Smaller, outside(2.0)), (Status::Differs, outside(0.5))],
    );
}
