//! The JVM beside the Rust primitives: rows of the article's own primitives
//! (`report/locks-java/Locks.java`: `synchronized`, `ReentrantLock`, `StampedLock`
//! optimistic reads, `ReentrantReadWriteLock`, `AtomicLong`, `LongAdder`,
//! `ConcurrentHashMap.computeIfAbsent`) run over the same cases, one per trial. The report
//! runs it and writes `locks-java.csv`; this module only holds the rows, their summary and
//! the JVM's answer to each claim, so notebooks can read them too.

use serde::{Deserialize, Serialize};

use super::claim::Claim;
use super::Case;
use crate::format::{interval, number, ratio_with_interval};
use crate::stats::{Ratio, Summary};

/// Where the JVM rows go in a run folder.
pub const JAVA_CSV: &str = "locks-java.csv";
/// How to add the JVM when it is missing (the CLI's manifest and the page say the same).
pub const HOW_TO_ADD_JAVA: &str = "install a JDK (Debian/Ubuntu: apt-get install default-jdk-headless; elsewhere any \
                                   JDK 15 or later) and run `contention run locks` again";

/// A JVM primitive, as `Locks.java` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JavaPrimitive {
    Synchronized,
    ReentrantLock,
    ReentrantLockFair,
    ReentrantReadWriteLock,
    StampedOptimistic,
    AtomicLong,
    LongAdder,
    ComputeIfAbsent,
    ComputeOutside,
}

impl JavaPrimitive {
    pub fn label(self) -> &'static str {
        match self {
            JavaPrimitive::Synchronized => "synchronized",
            JavaPrimitive::ReentrantLock => "ReentrantLock",
            JavaPrimitive::ReentrantLockFair => "ReentrantLock(fair)",
            JavaPrimitive::ReentrantReadWriteLock => "ReentrantReadWriteLock",
            JavaPrimitive::StampedOptimistic => "StampedLock optimistic",
            JavaPrimitive::AtomicLong => "AtomicLong",
            JavaPrimitive::LongAdder => "LongAdder",
            JavaPrimitive::ComputeIfAbsent => "computeIfAbsent",
            JavaPrimitive::ComputeOutside => "get + putIfAbsent",
        }
    }
}

/// One trial of one JVM cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JavaRow {
    pub case: Case,
    pub primitive: JavaPrimitive,
    pub threads: u64,
    pub read_share: f64,
    pub trial: u64,
    pub ops: u64,
    pub reads: u64,
    pub elapsed_ns: u64,
    pub ns_per_op: f64,
    pub ops_per_sec: f64,
    pub min_share: f64,
    pub max_share: f64,
    pub blocked_share: f64,
    pub remote_calls: u64,
    /// What keeps the JIT from removing or hoisting the timed work (see `Locks.java`).
    pub guard: String,
    /// `java.vm.name` and `java.version`, e.g. "OpenJDK 64-Bit Server VM 17.0.9".
    pub java_version: String,
    pub verified: bool,
}

crate::checked::checked_row!(
    JavaRow,
    counts: [ops],
    amounts: [ns_per_op, ops_per_sec],
    threads: [threads],
    texts: [guard, java_version],
    probabilities: [read_share, min_share, max_share, blocked_share],
    checked: [verified],
    cases: |row| (row.case, row.primitive, row.threads, (row.read_share + 0.0).to_bits())
);

/// The trials of one JVM cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JavaCell {
    pub case: Case,
    pub primitive: JavaPrimitive,
    pub threads: u64,
    pub read_share: f64,
    pub java_version: String,
    /// What keeps the JIT from removing or hoisting the timed work.
    pub guard: String,
    pub ns_per_op: Summary,
    pub ops_per_sec: Summary,
    pub reads_per_sec: Summary,
    pub max_share: Summary,
    pub blocked_share: Summary,
}

/// Groups JVM rows by cell, in the order the cells first appear.
pub fn summarize_java(rows: &[JavaRow]) -> Vec<JavaCell> {
    let key = |row: &JavaRow| (row.case, row.primitive, row.threads, row.read_share.to_bits());
    let mut keys = Vec::new();
    for row in rows {
        if !keys.contains(&key(row)) {
            keys.push(key(row));
        }
    }
    keys.into_iter()
        .filter_map(|wanted| {
            let group: Vec<&JavaRow> = rows.iter().filter(|row| key(row) == wanted).collect();
            let of = |value: fn(&JavaRow) -> f64| Summary::of(&group.iter().map(|row| value(row)).collect::<Vec<_>>());
            let first = group.first()?;
            Some(JavaCell {
                case: first.case,
                primitive: first.primitive,
                threads: first.threads,
                read_share: first.read_share,
                java_version: first.java_version.clone(),
                guard: first.guard.clone(),
                ns_per_op: of(|row| row.ns_per_op)?,
                ops_per_sec: of(|row| row.ops_per_sec)?,
                reads_per_sec: of(|row| row.reads as f64 / (row.elapsed_ns.max(1) as f64 / 1e9))?,
                max_share: of(|row| row.max_share)?,
                blocked_share: of(|row| row.blocked_share)?,
            })
        })
        .collect()
}

fn cell(cells: &[JavaCell], case: Case, primitive: JavaPrimitive) -> impl Iterator<Item = &JavaCell> {
    cells.iter().filter(move |c| c.case == case && c.primitive == primitive)
}

/// The JVM's answer to `claim`: its figure (nanoseconds or a ratio, with the interval) and
/// the figure in words; `None` when the JVM rows hold nothing for it.
pub fn java_answer(cells: &[JavaCell], claim: Claim) -> Option<(Ratio, String)> {
    use JavaPrimitive::*;
    let pair = |case, threads: Option<u64>, a, b, share: Option<f64>| {
        let pick = |primitive| {
            cell(cells, case, primitive)
                .filter(|c| share.map_or(true, |s| c.read_share == s))
                .filter(|c| threads.map_or(true, |t| c.threads == t))
                .max_by_key(|c| c.threads)
        };
        Some((pick(a)?, pick(b)?))
    };
    match claim {
        Claim::UncontendedCost => {
            let sync = cell(cells, Case::Uncontended, Synchronized).next()?;
            let figure = Ratio {
                value: sync.ns_per_op.median,
                low: sync.ns_per_op.median_low,
                high: sync.ns_per_op.median_high,
            };
            Some((
                figure,
                format!("synchronized {} ns (interval {})", number(figure.value), interval(figure.low, figure.high)),
            ))
        }
        Claim::KernelTrip => None,
        Claim::BargingOverQueue => {
            let (sync, lock) = pair(Case::FairVsBarging, Some(2), Synchronized, ReentrantLock, None)?;
            let ratio = Ratio::between(&sync.ops_per_sec, &lock.ops_per_sec);
            Some((ratio, format!("synchronized {} ReentrantLock (2 threads)", ratio_with_interval(&ratio))))
        }
        Claim::OptimisticReads => {
            let shares = cells.iter().filter(|c| c.case == Case::ReadMostly).map(|c| c.read_share);
            let share = shares.min_by(|a, b| (a - 0.99).abs().total_cmp(&(b - 0.99).abs()))?;
            let (stamped, rw) = pair(Case::ReadMostly, None, StampedOptimistic, ReentrantReadWriteLock, Some(share))?;
            let ratio = Ratio::between(&stamped.reads_per_sec, &rw.reads_per_sec);
            let threads = stamped.threads;
            Some((
                ratio,
                format!("StampedLock {} ReentrantReadWriteLock ({threads} threads)", ratio_with_interval(&ratio)),
            ))
        }
        Claim::LockAcrossWait => {
            let (outside, inside) = pair(Case::LockAcrossWait, None, ComputeOutside, ComputeIfAbsent, None)?;
            let ratio = Ratio::between(&outside.ops_per_sec, &inside.ops_per_sec);
            Some((ratio, format!("outside {} inside computeIfAbsent", ratio_with_interval(&ratio))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_row_parses_and_groups() {
        let csv = "case,primitive,threads,read_share,trial,ops,reads,elapsed_ns,ns_per_op,ops_per_sec,min_share,\
                   max_share,blocked_share,remote_calls,guard,java_version,verified\n\
                   uncontended,synchronized,1,0,0,1000000,0,21000000,21,47619047,1,1,0,0,dontinline+sink,OpenJDK 17,true\n\
                   uncontended,synchronized,1,0,1,1000000,0,22000000,22,45454545,1,1,0,0,dontinline+sink,OpenJDK 17,true\n";
        let rows: Vec<JavaRow> = crate::run_format::parse_rows("locks-java.csv", csv).unwrap();
        let cells = summarize_java(&rows);
        assert_eq!(cells.len(), 1);
        assert_eq!(cells[0].ns_per_op.median, 21.5);
        let (figure, words) = java_answer(&cells, Claim::UncontendedCost).unwrap();
        assert_eq!(figure.value, 21.5);
        assert!(words.starts_with("synchronized 21.5 ns"), "{words}");
        assert!(java_answer(&cells, Claim::OptimisticReads).is_none());
    }
}
