//! The locks experiment's invariants: every case's results add up and its rows are complete,
//! no torn optimistic read escapes, bad configs are refused by name, a wrong sum is an error
//! naming its case, every claim gets a sentence, and the JVM's CSV parses. No timing is
//! asserted: the machines that run these tests erase contention effects.

use std::thread;
use std::time::Duration;

use contention::harness::no_progress;
use contention::locks::{self, Case, Claim, Config, JavaRow, Primitive, SeqLock, Status};
use contention::present::Measured;
use contention::{fault, RunError};

/// Every case, small: 2 ms trials, 2 of each, a 0.2 ms remote call.
fn small() -> Config {
    Config {
        threads: vec![1, 2],
        read_shares: vec![1.0, 0.9],
        wait_threads: 3,
        wait_ms: 0.2,
        keys: 20,
        requests_per_thread: 8,
        trial: Duration::from_millis(2),
        trials: 2,
        warmup: Duration::ZERO,
        ..Config::quick()
    }
}

fn check_row(row: &locks::Row) {
    assert!(row.ops > 0, "{row:?}");
    assert!(row.ns_per_op > 0.0 && row.ops_per_sec > 0.0, "{row:?}");
    assert!((0.0..=1.0).contains(&row.min_share) && row.min_share <= row.max_share && row.max_share <= 1.0);
    match row.case {
        Case::ReadMostly => assert_eq!(row.reads + row.writes, row.ops, "{row:?}"),
        Case::LockAcrossWait => {
            assert_eq!(row.hits + row.remote_calls, row.ops, "{row:?}");
            assert!(row.keys_requested >= 1 && row.keys_requested <= row.keys && row.shards >= 2);
            assert!(row.remote_calls >= row.keys_requested);
        }
        _ => assert_eq!(row.torn_retries, 0),
    }
    if row.primitive == Primitive::EntryUnderLock {
        assert_eq!(row.remote_calls, row.keys_requested, "under the lock each key is fetched once");
    }
}

#[test]
fn every_case_verifies_its_sums_and_every_cell_has_its_trials() {
    let config = small();
    let outcome = locks::run(&config, &mut no_progress).unwrap();
    assert!(!outcome.budget_exhausted);
    let cells = locks::cells(&config);
    assert_eq!(outcome.rows.len(), cells.len() * config.trials);
    for case in Case::ALL {
        assert!(outcome.rows.iter().any(|row| row.case == case), "{case} has no rows");
    }
    outcome.rows.iter().for_each(check_row);
    let summaries = locks::summarize(&outcome.rows);
    assert_eq!(summaries.len(), cells.len(), "one summary per cell");
    let text = contention::runs::parse_rows::<locks::Row>("locks.csv", &to_csv(&outcome.rows)).unwrap();
    assert_eq!(text, outcome.rows, "rows survive the CSV round trip, unknown sleeps included");
}

#[test]
fn the_quick_config_runs_every_case() {
    let config = Config::quick();
    let outcome = locks::run(&config, &mut no_progress).unwrap();
    outcome.rows.iter().for_each(check_row);
    let cells = locks::cells(&config);
    assert!(outcome.rows.len() >= cells.len(), "every cell has at least its first trial");
    for cell in &cells {
        assert!(outcome.rows.iter().any(|row| row.case == cell.case && row.primitive == cell.primitive));
    }
}

fn to_csv(rows: &[locks::Row]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    rows.iter().for_each(|row| writer.serialize(row).unwrap());
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

#[test]
fn no_torn_optimistic_read_escapes() {
    let config = Config { cases: vec![Case::ReadMostly], read_shares: vec![0.5, 0.9], ..small() };
    let outcome = locks::run(&config, &mut no_progress).unwrap();
    let seqlock: Vec<_> = outcome.rows.iter().filter(|row| row.primitive == Primitive::SeqLock).collect();
    assert!(!seqlock.is_empty() && seqlock.iter().all(|row| row.writes > 0));
    // Straight on the lock: a writer and two readers; every snapshot read is whole.
    let lock = SeqLock::default();
    thread::scope(|scope| {
        scope.spawn(|| {
            for _ in 0..50_000 {
                lock.write_next();
            }
        });
        for _ in 0..2 {
            scope.spawn(|| {
                for _ in 0..50_000 {
                    let (snapshot, _) = lock.read();
                    assert!(snapshot.is_consistent(), "torn read escaped: {snapshot:?}");
                }
            });
        }
    });
    assert_eq!(lock.read().0.version, 50_000);
}

#[test]
fn bad_configs_are_refused_naming_the_value_and_the_range() {
    let error = |config: Config| config.validate().unwrap_err().to_string();
    assert_eq!(error(Config { threads: vec![0], ..Config::quick() }), "invalid threads = 0: 1 to 256 threads");
    assert_eq!(
        error(Config { read_shares: vec![1.5], ..Config::quick() }),
        "invalid read-share = 1.5: a share of reads from 0 to 1 (e.g. 0.99)"
    );
    assert_eq!(
        error(Config { wait_ms: 1e6, ..Config::quick() }),
        "invalid wait-ms = 1000000: 0 to 1000 milliseconds (the remote call's latency)"
    );
    assert_eq!(error(Config { keys: 0, ..Config::quick() }), "invalid keys = 0: 1 to 1000000 distinct keys");
    assert_eq!(
        "fast".parse::<Case>().unwrap_err().to_string(),
        "invalid cases = fast: one or more of uncontended, contended, fair-vs-barging, read-mostly, lock-across-wait"
    );
    assert!(matches!(locks::run(&Config { trials: 0, ..small() }, &mut no_progress), Err(RunError::Config(_))));
}

#[test]
fn a_wrong_sum_is_a_verification_error_naming_the_case() {
    for case in [Case::Uncontended, Case::ReadMostly, Case::LockAcrossWait] {
        let config = Config { cases: vec![case], ..small() };
        let error = fault::with_extra_increments(1, || locks::run(&config, &mut no_progress)).unwrap_err();
        match error {
            RunError::Verification { experiment, case: named, expected, actual, .. } => {
                assert_eq!(experiment, "locks");
                assert!(named.starts_with(case.name()), "{named}");
                assert_eq!(actual, expected + 1, "{named}");
            }
            other => panic!("expected a verification error, got {other:?}"),
        }
    }
}

#[test]
fn every_claim_gets_a_sentence_even_when_it_could_not_be_measured() {
    let config = Config { threads: vec![1], cases: vec![Case::Uncontended, Case::LockAcrossWait], ..small() };
    let outcome = locks::run(&config, &mut no_progress).unwrap();
    let article = contention::locks::present::reference().unwrap();
    let claims = locks::claims(&locks::summarize(&outcome.rows), &article, None);
    assert_eq!(claims.iter().map(|c| c.claim).collect::<Vec<_>>(), Claim::ALL);
    assert!(claims.iter().all(|c| !c.sentence.is_empty() && !c.figure.is_empty()));
    let of = |claim| claims.iter().find(|c| c.claim == claim).unwrap();
    // Two trials: below the minimum-evidence rule, said as such.
    assert_eq!(of(Claim::UncontendedCost).status, Status::NotBeyondNoise);
    assert!(of(Claim::UncontendedCost).sentence.contains("too few trials (n=2"));
    assert_eq!(of(Claim::OptimisticReads).status, Status::NotMeasurable);
    assert!(of(Claim::OptimisticReads).sentence.contains("not measured here"));
    let c13 = &of(Claim::BargingOverQueue).sentence;
    assert!(c13.contains("needs 2 or more threads") || c13.contains("1 logical CPU"), "{c13}");
}

#[test]
fn the_section_holds_the_five_claims_and_the_jvm_beside_them() {
    let outcome = locks::run(&small(), &mut no_progress).unwrap();
    let article = contention::locks::present::reference().unwrap();
    let java: Vec<JavaRow> = contention::runs::parse_rows("locks-java.csv", JAVA_CSV).unwrap();
    let machines = [Measured::new("vm", &outcome.rows)];
    let section = contention::locks::present::section(&machines, &article, &[Some(&java)]).unwrap();
    let claims = section.table("claims").unwrap();
    assert_eq!(claims.rows.len(), 5);
    let c11 = claims.rows.iter().find(|row| row[0].text == "C11").unwrap();
    assert!(c11[4].text.starts_with("synchronized 21.5 ns"), "{:?}", c11[4]);
    assert!(section.findings.iter().any(|f| f.text.starts_with("The JVM here (OpenJDK 64-Bit Server VM 17.0.15)")));
    assert!(section.figure("uncontended-chart").is_some());
    let without = contention::locks::present::section(&machines, &article, &[None]).unwrap();
    let claims = without.table("claims").unwrap();
    assert!(claims.rows.iter().all(|row| row[4].text.starts_with("not run")));
}

/// What `Locks.java` prints: its header and two rows of its format.
const JAVA_CSV: &str = "\
case,primitive,threads,read_share,trial,ops,reads,elapsed_ns,ns_per_op,ops_per_sec,min_share,max_share,blocked_share,remote_calls,guard,java_version,verified
uncontended,synchronized,1,0.0,0,1001391,0,21500000,21.47,4.65E7,1.0,1.0,0.0,0,dontinline op + escaped state + black hole,OpenJDK 64-Bit Server VM 17.0.15,true
lock-across-wait,compute-if-absent,8,0.0,0,240,116,25343011,105597.5,9470.1,0.125,0.125,0.15,124,escaped map + black hole (the remote call dwarfs a call),OpenJDK 64-Bit Server VM 17.0.15,true
";

#[test]
fn the_header_locks_java_prints_parses_into_java_rows() {
    let source = include_str!("../../report/locks-java/Locks.java");
    let header = JAVA_CSV.lines().next().unwrap();
    let printed: String = source
        .split("static final String HEADER = ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .map(|literal| literal.split('"').skip(1).step_by(2).collect())
        .unwrap();
    assert_eq!(printed, header, "Locks.java's header and the JVM rows' columns");
    let rows: Vec<JavaRow> = contention::runs::parse_rows("locks-java.csv", JAVA_CSV).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].primitive, locks::JavaPrimitive::ComputeIfAbsent);
}
