//! Article A's claims (false sharing) reach each of their statuses.

use super::*;

/// The four-way control with false sharing `over_single` x one thread's time and
/// `over_none` x no sharing's.
pub(super) fn four_way(cpus: usize, over_single: f64, over_none: f64) -> Run {
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

/// The control at the article's 2 threads (false sharing 2.0x one thread, 3.87x no sharing)
/// and again at 8 threads (13.7x one thread): A6 and A7 read the first team, A1 the second.
#[test]
fn each_claim_reads_its_own_team() {
    let mut run = four_way(MANY, 2.0, 3.87);
    let eight = four_way(MANY, 13.7, 2.0);
    let mut added: Vec<sharing::Row> =
        eight.rows::<sharing::Row>().unwrap().iter().filter(|row| row.case != SharingCase::Single).cloned().collect();
    added.iter_mut().for_each(|row| row.threads = 8);
    run.rows_mut::<sharing::Row>().unwrap().extend(added);
    for id in ["A1", "A6", "A7"] {
        let got = answered(&run, id);
        assert_eq!(got.status, Status::Reproduced, "{id}: {} ({})", got.status_text(), got.figure);
    }
    assert!(answered(&run, "A1").figure.starts_with("8 threads"), "{}", answered(&run, "A1").figure);
}

/// `run`'s control with its team at 4 threads, not the article's 2.
fn at_four_threads(mut run: Run) -> Run {
    edit(&mut run, |row: &mut sharing::Row| row.threads = if row.case == SharingCase::Single { 1 } else { 4 });
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
            (Status::NeedsCores(8), four_way(2, 3.0, 2.0)),
        ],
    );
    reaches(
        "A6",
        vec![
            (Status::Reproduced, four_way(MANY, 2.0, 3.87)),
            (Status::Larger, four_way(MANY, 5.0, 3.87)),
            (Status::Differs, four_way(MANY, 0.5, 3.87)),
            (Status::NotInRun, at_four_threads(four_way(MANY, 2.0, 3.87))),
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
            (Status::NeedsCores(8), strides(2, 2, sixty_four(1.0))),
            (Status::NotInRun, strides(MANY, 2, sixty_four(1.0))),
            (Status::Differs, strides(MANY, 2, sixty_four(1.5))),
            (Status::Reproduced, both_halves(MANY, 1.0, 1.81)),
            (Status::Differs, both_halves(MANY, 1.5, 1.81)),
            (Status::NeedsCores(8), both_halves(4, 1.0, 1.81)),
        ],
    );
}

/// The stride sweep at 2 threads with the 64-byte stride `clean` x the fastest, and again
/// at 8 threads with it `paying` x.
fn both_halves(cpus: usize, clean: f64, paying: f64) -> Run {
    let sweep = |penalty: f64| move |bytes: u64| if bytes == 64 { penalty } else { 1.0 };
    let mut run = strides(cpus, 2, sweep(clean));
    let eight = strides(cpus, 8, sweep(paying));
    let added = eight.rows::<stride::Row>().unwrap().to_vec();
    run.rows_mut::<stride::Row>().unwrap().extend(added);
    run
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
