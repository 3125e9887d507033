//! Every claim's judge is a function of rows: for each claim, rows reshaped from the fixture
//! run that give each status it can take (at least reproduced, a miss in size, and the
//! other way or the noise), so no status is out of reach. Claims the lab sets up itself
//! (A9, C3, C4, C7, C20) and the narrative ones (B8, C21) show they cannot be evidence.

use super::{answer, Answer, Status};
use crate::experiment::SavedRow;
use crate::gc::{GcRatio, GoRow};
use crate::locks::{Case as LockCase, JavaPrimitive, JavaRow, Primitive};
use crate::pool::Variant;
use crate::runs::Run;
use crate::sharing::Case as SharingCase;
use crate::{counters, gc, locks, pool, refill, sharing, stride};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../report/tests/fixtures/run-fixture");
/// Enough CPUs for every article's setting.
const MANY: usize = 64;

fn fixture(cpus: usize) -> Run {
    let mut run = Run::load(FIXTURE).unwrap();
    run.manifest.machine.available_parallelism = cpus;
    run
}

fn edit<R: SavedRow>(run: &mut Run, change: impl FnMut(&mut R)) {
    run.rows_mut::<R>().expect("the fixture holds these rows").iter_mut().for_each(change);
}

/// `center` spread over a cell's trials (within 3%), so its interval is narrow but real.
fn around(center: f64, trial: u64) -> f64 {
    center * [0.97, 0.99, 1.0, 1.01, 1.03][(trial % 5) as usize]
}

fn answered(run: &Run, id: &str) -> Answer {
    let claims = crate::reference::claims().unwrap();
    answer(claims.iter().find(|claim| claim.id == id).unwrap(), run)
}

/// Each (status, run) pair: the claim's answer on that run has that status.
fn reaches(id: &str, cases: Vec<(Status, Run)>) {
    for (expected, run) in cases {
        let got = answered(&run, id);
        assert_eq!(got.status, expected, "{id}: {} ({})", got.status_text(), got.figure);
    }
}

/// The four-way control with false sharing `over_single` x one thread's time and
/// `over_none` x no sharing's.
fn four_way(cpus: usize, over_single: f64, over_none: f64) -> Run {
    let mut run = fixture(cpus);
    edit(&mut run, |row: &mut sharing::Row| {
        let ms = match row.case {
            SharingCase::Single => 100.0,
            SharingCase::NoSharing => 100.0 * over_single / over_none,
            _ => 100.0 * over_single,
        };
        row.elapsed_ns = (around(ms, row.trial) * 1e6) as u64;
    });
    run
}

#[test]
fn a1_a6_a7_the_four_way_control() {
    reaches(
        "A1",
        vec![
            (Status::Reproduced, four_way(MANY, 13.7, 2.0)),
            (Status::Smaller, four_way(MANY, 3.0, 2.0)),
            (Status::Differs, four_way(MANY, 0.5, 2.0)),
            (Status::NotBeyondNoise, four_way(MANY, 1.0, 2.0)),
            (Status::NeedsCores(8), four_way(2, 13.7, 2.0)),
            (Status::Smaller, four_way(2, 3.0, 2.0)),
        ],
    );
    reaches(
        "A6",
        vec![
            (Status::Reproduced, four_way(MANY, 2.0, 3.87)),
            (Status::Larger, four_way(MANY, 5.0, 3.87)),
            (Status::Differs, four_way(MANY, 0.5, 3.87)),
        ],
    );
    reaches(
        "A7",
        vec![
            (Status::Reproduced, four_way(MANY, 2.0, 3.87)),
            (Status::Smaller, four_way(MANY, 2.0, 1.5)),
            (Status::Differs, four_way(MANY, 2.0, 0.5)),
            (Status::NotBeyondNoise, four_way(MANY, 2.0, 1.0)),
        ],
    );
}

/// The shard sweep with the compact array's fewest shards `slower` x the other counts.
fn shards(threads: u64, slower: f64, spread: bool) -> Run {
    let mut run = fixture(MANY);
    let sweep = |row: &&counters::Row| row.part == counters::Part::ShardSweep;
    let fewest = run.rows::<counters::Row>().unwrap().iter().filter(sweep).map(|row| row.cells).min().unwrap();
    edit(&mut run, |row: &mut counters::Row| {
        if row.part == counters::Part::ShardSweep {
            let base =
                if row.cells == fewest && row.layout == counters::Layout::Compact { 10.0 * slower } else { 10.0 };
            row.ns_per_increment = if spread { base * (0.7 + 0.15 * (row.trial % 5) as f64) } else { base };
            row.threads = threads;
        }
    });
    run
}

#[test]
fn a2_no_change_needs_evidence_of_none() {
    reaches(
        "A2",
        vec![
            (Status::Reproduced, shards(2, 1.0, false)),
            (Status::Differs, shards(2, 1.5, false)),
            (Status::NotBeyondNoise, shards(2, 1.0, true)),
            (Status::NotMeasurable, shards(1, 1.0, false)),
        ],
    );
}

/// The counter layouts with `layout` at `times` x the compact array's time per add.
fn layout(layout: counters::Layout, times: f64) -> Run {
    let mut run = fixture(MANY);
    edit(&mut run, |row: &mut counters::Row| {
        if row.part == counters::Part::Layouts {
            let ns = if row.layout == layout { 10.0 * times } else { 10.0 };
            row.ns_per_increment = around(ns, row.trial);
        }
    });
    run
}

#[test]
fn a3_a8_a9_a11_the_layouts() {
    use counters::Layout::{CachePadded, LocalFlush, Mutex};
    reaches(
        "A3",
        vec![
            (Status::Reproduced, layout(Mutex, 3.0)),
            (Status::Differs, layout(Mutex, 0.5)),
            (Status::NotBeyondNoise, layout(Mutex, 1.0)),
        ],
    );
    reaches(
        "A8",
        vec![
            (Status::Reproduced, layout(CachePadded, 1.0 / 50.95)),
            (Status::Smaller, layout(CachePadded, 0.5)),
            (Status::Differs, layout(CachePadded, 2.0)),
        ],
    );
    reaches("A9", vec![(Status::SetUp, fixture(MANY)), (Status::SetUp, layout(CachePadded, 0.1))]);
    reaches(
        "A11",
        vec![
            (Status::Reproduced, layout(LocalFlush, 0.1)),
            (Status::Differs, layout(LocalFlush, 2.0)),
            (Status::NotBeyondNoise, layout(LocalFlush, 1.0)),
        ],
    );
}

/// The stride sweep at `threads`, each stride's time per add from `ns(stride)`.
fn strides(cpus: usize, threads: u64, ns: impl Fn(u64) -> f64) -> Run {
    let mut run = fixture(cpus);
    edit(&mut run, |row: &mut stride::Row| {
        row.ns_per_op = around(ns(row.stride_bytes), row.trial);
        row.threads = threads;
    });
    run
}

#[test]
fn a4_a10_the_stride_sweep() {
    let eight = |penalty: f64| move |bytes: u64| if bytes == 8 { penalty } else { 1.0 };
    reaches(
        "A4",
        vec![
            (Status::Reproduced, strides(MANY, 8, eight(122.46))),
            (Status::Smaller, strides(MANY, 8, eight(10.0))),
            (Status::Differs, strides(MANY, 8, eight(0.5))),
            (Status::NeedsCores(8), strides(2, 2, eight(1.0))),
        ],
    );
    let sixty_four = |penalty: f64| {
        move |bytes: u64| {
            if bytes == 64 {
                penalty
            } else if bytes < 64 {
                5.0
            } else {
                1.0
            }
        }
    };
    reaches(
        "A10",
        vec![
            (Status::Reproduced, strides(MANY, 8, sixty_four(1.81))),
            (Status::Smaller, strides(MANY, 8, sixty_four(1.3))),
            (Status::NotBeyondNoise, strides(MANY, 8, sixty_four(1.0))),
            (Status::NeedsCores(8), strides(MANY, 2, sixty_four(1.0))),
            (Status::Differs, strides(MANY, 2, sixty_four(1.5))),
        ],
    );
}

#[test]
fn a5_a12_the_line_and_the_padding_it_needs() {
    let knee = |at: u64| move |bytes: u64| if bytes < at { 10.0 } else { 1.0 };
    let on = |arch: &str, run: Run| {
        let mut run = run;
        run.manifest.machine.arch = arch.into();
        run
    };
    reaches(
        "A5",
        vec![
            (Status::Reproduced, strides(MANY, 8, knee(64))),
            (Status::Differs, strides(MANY, 8, knee(128))),
            (Status::NotBeyondNoise, strides(MANY, 8, |_| 1.0)),
            (Status::Reproduced, on("aarch64", strides(MANY, 8, knee(128)))),
            (Status::NotMeasurable, on("mips", strides(MANY, 8, knee(64)))),
        ],
    );
    reaches(
        "A12",
        vec![
            (Status::Reproduced, strides(MANY, 8, knee(64))),
            (Status::Differs, strides(MANY, 8, knee(128))),
            (Status::NeedsCores(8), strides(MANY, 2, knee(32))),
            (Status::Differs, strides(MANY, 8, knee(32))),
            (Status::NotBeyondNoise, strides(MANY, 8, |_| 1.0)),
        ],
    );
}

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
fn throughput(cpus: usize, ops: impl Fn(u64, GcRatio) -> f64) -> Run {
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
            (Status::Differs, throughput(2, high(0.5))),
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
        vec![(Status::NeedsCores(48), smt(2.0)), (Status::Differs, smt(0.5)), (Status::NotMeasurable, no_smt)],
    );
    // Below the setting's 48 CPUs a rise cannot reproduce it; the judge itself reaches it.
    let judged = super::gc::answer("B9", &super::Context { run: &smt(2.0), cpus: 8, target: None });
    assert_eq!(judged.status, Status::Reproduced, "{}", judged.status_text());
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
fn p99(of: impl Fn(u64) -> f64) -> Run {
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
    let switch = |ns: f64| pool_run(move |_, _, row| row.switch_cost_ns = ns);
    reaches(
        "C6",
        vec![
            (Status::Reproduced, switch(4000.0)),
            (Status::Differs, switch(11_000.0)),
            (Status::Differs, switch(900.0)),
        ],
    );
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

/// The headline's rows are the claims table's rows of A1, B6 and C1: on every run above the
/// two never disagree.
#[test]
fn the_headline_and_the_claims_table_agree() {
    let runs = [
        fixture(2),
        fixture(MANY),
        four_way(MANY, 13.7, 2.0),
        four_way(2, 3.0, 2.0),
        throughput(MANY, |threads, ratio| if threads == 8 && ratio != GcRatio::DEFAULT { 875.0 } else { 100.0 }),
        p99(|per_cpu| if per_cpu == 40 { 1095.0 } else { 100.0 }),
    ];
    for run in runs {
        let headline = crate::present::headline::headline_section(std::slice::from_ref(&run)).unwrap().unwrap();
        let claims = super::section(std::slice::from_ref(&run)).unwrap();
        let (headline, claims) = (headline.table("headline").unwrap(), claims.table("claims").unwrap());
        for (row, id) in headline.rows.iter().zip(["A1", "B6", "C1"]) {
            let claim = claims.rows.iter().find(|row| row[0].text == id).unwrap();
            assert_eq!(row[3].text, claim[5].text, "{id}: the headline's status against the claims table's");
            assert_eq!(row[2].text, claim[4].text, "{id}: the same figure");
        }
    }
}
