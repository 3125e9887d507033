//! Article C's lock claims as real primitives on real threads: what an uncontended
//! acquire costs, what a contended one costs once it sleeps in the kernel, barging against
//! FIFO hand-off, optimistic reads against reader-writer locks, and a map entry computed
//! under its shard lock across a remote call's wait.
//!
//! The five cases ([`Case`]):
//!
//! - **uncontended**: one thread, acquire + release per operation: `std::sync::Mutex`,
//!   `parking_lot::Mutex`, a test-and-test-and-set spin lock, a lock that sleeps instead of
//!   spinning, a `std::sync::RwLock` read, and a bare `fetch_add` as the CAS reference.
//! - **contended**: 2..N pinned threads take one lock until a fixed total of acquisitions is
//!   done (a short critical section: one guarded counter), through the same locks and a
//!   ticket lock whose waiters sleep at once instead of spinning. Each worker reads its own voluntary
//!   context switches (`getrusage(RUSAGE_THREAD)`), so a row says how many acquisitions
//!   slept in the kernel.
//! - **fair vs barging**: `parking_lot::Mutex` released normally (a thread may take the lock
//!   back before a woken waiter runs: barging) against `MutexGuard::unlock_fair` (the lock
//!   goes straight to the oldest waiter: FIFO hand-off) against `std::sync::Mutex`, at 2
//!   threads and at the most threads: throughput, and each thread's share of the
//!   acquisitions.
//! - **read-mostly**: `std::sync::RwLock`, `parking_lot::RwLock`, a `Mutex` and a sequence
//!   lock whose readers write nothing shared ([`SeqLock`]), at each read share and thread
//!   count. An `RwLock` reader writes the reader count: readers on different cores pass
//!   that cache line between them with no writer at all (article A's mechanism).
//! - **lock across a wait**: a `dashmap` whose `entry().or_insert_with` computes a missing
//!   value under the shard's write lock, the computation including a wait that stands for a
//!   remote call's latency, against the same work done outside the lock (look up, compute,
//!   insert, keep the first), over a skewed key set.
//!
//! Every trial verifies its result: counters add up, no optimistic read returns a torn
//! value (an invariant across the protected fields is checked on every read), and the map
//! holds exactly the keys asked for, each with its value. A failed check is a
//! [`RunError::Verification`](crate::RunError::Verification), never a dropped row.

pub mod answers;
mod cells;
pub mod chart;
pub mod claim;
mod claims_text;
mod config;
mod flags;
mod handoff;
pub mod java;
mod kernel_trip;
pub mod present;
mod primitives;
mod read_mostly;
mod row;
mod run;
mod summary;
mod switches;
mod wait;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;

pub use cells::{cells, Cell};
pub(crate) use claim::{article_range, judge, judgement, sleep_rate, ArticleRange};
pub use claim::{Claim, ClaimFinding, LocksReference, Status};
pub use claims_text::claims;
pub use config::{Config, MAX_KEYS, MAX_REQUESTS_PER_THREAD, MAX_THREADS, MAX_WAIT_MS};
pub use java::{java_answer, summarize_java, JavaCell, JavaPrimitive, JavaRow, HOW_TO_ADD_JAVA, JAVA_CSV};
pub use kernel_trip::MIN_SLEEPS_PER_OP;
pub use primitives::{SeqLock, Snapshot, SpinLock};
pub use row::Row;
pub use run::{run, trial};
pub use summary::{find, read_shares_of, summarize, threads_of, CellSummary};
pub use switches::voluntary_switches;
pub(crate) use wait::{remote_call, shard_count, skewed_key, split_mix, value_of};

pub const EXPERIMENT: &str = "locks";

/// Article C's lock claims, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct LockCases;

crate::experiment::measure!(
    LockCases,
    about: "Locks: uncontended cost, sleeping hand-offs, barging vs FIFO, optimistic reads, a lock across a wait (C).",
    summary: CellSummary,
    runtime_row: JavaRow,
    const REAL_RUNTIME: Option<crate::experiment::RealRuntime> = Some(crate::experiment::RealRuntime { key: "java", name: "JVM", file: JAVA_CSV }),
    const CLOCK_PACED: bool = true;
    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// The five ways of using a lock that article C makes claims about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Case {
    Uncontended,
    Contended,
    FairVsBarging,
    ReadMostly,
    LockAcrossWait,
}

impl Case {
    pub const ALL: [Case; 5] =
        [Case::Uncontended, Case::Contended, Case::FairVsBarging, Case::ReadMostly, Case::LockAcrossWait];

    /// The name rows, flags and CSV files use ("fair-vs-barging").
    pub fn name(self) -> &'static str {
        match self {
            Case::Uncontended => "uncontended",
            Case::Contended => "contended",
            Case::FairVsBarging => "fair-vs-barging",
            Case::ReadMostly => "read-mostly",
            Case::LockAcrossWait => "lock-across-wait",
        }
    }

    /// The Rust primitives this case measures, in table order.
    pub fn primitives(self) -> &'static [Primitive] {
        use Primitive::*;
        match self {
            Case::Uncontended => &[StdMutex, ParkingLotMutex, SpinLock, SleepLock, StdRwLock, FetchAdd],
            Case::Contended => &[StdMutex, ParkingLotMutex, SpinLock, SleepLock, FetchAdd],
            Case::FairVsBarging => &[ParkingLotMutex, ParkingLotFair, StdMutex],
            Case::ReadMostly => &[StdRwLock, ParkingLotRwLock, StdMutex, SeqLock],
            Case::LockAcrossWait => &[EntryUnderLock, ComputeOutsideLock],
        }
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Case {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        Case::ALL.into_iter().find(|case| case.name() == wanted).ok_or_else(|| {
            let names: Vec<&str> = Case::ALL.iter().map(|case| case.name()).collect();
            ConfigError::new("cases", text, format!("one or more of {}", names.join(", ")))
        })
    }
}

/// A lock (or the atomic or map standing in for one) as this lab builds it in Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Primitive {
    /// `std::sync::Mutex`: a futex word; spins briefly, then sleeps in the kernel.
    StdMutex,
    /// `parking_lot::Mutex` released normally: a woken waiter competes with any thread that
    /// arrives meanwhile (barging), like the JVM's `synchronized`.
    ParkingLotMutex,
    /// `parking_lot::Mutex` released with `MutexGuard::unlock_fair`: the lock is handed to
    /// the oldest waiter (FIFO), like a fair `ReentrantLock`.
    ParkingLotFair,
    /// A test-and-test-and-set spin lock ([`SpinLock`]): never sleeps in the kernel.
    SpinLock,
    /// A lock whose waiters never spin: a ticket lock on a condition variable. A waiter
    /// sleeps (a futex wait) at once and is woken in turn: a contended acquisition is the
    /// trip to the kernel article C prices (C12).
    SleepLock,
    /// `std::sync::RwLock`: a reader adds itself to the lock word's reader count.
    #[serde(rename = "std-rwlock")]
    StdRwLock,
    /// `parking_lot::RwLock`: the same, with parking_lot's word and queue.
    #[serde(rename = "parking-lot-rwlock")]
    ParkingLotRwLock,
    /// A sequence lock ([`SeqLock`]): a reader reads a counter, the data and the counter
    /// again, and retries when a writer came between; it writes nothing shared.
    #[serde(rename = "seqlock")]
    SeqLock,
    /// One atomic `fetch_add`: a single locked instruction, the CAS reference.
    FetchAdd,
    /// `dashmap` `entry(key).or_insert_with(compute)`: the remote call runs under the
    /// shard's write lock.
    EntryUnderLock,
    /// `get`, then on a miss the remote call with no lock held, then `entry().or_insert`
    /// (the first value inserted stays).
    ComputeOutsideLock,
}

impl Primitive {
    pub const ALL: [Primitive; 11] = [
        Primitive::StdMutex,
        Primitive::ParkingLotMutex,
        Primitive::ParkingLotFair,
        Primitive::SpinLock,
        Primitive::SleepLock,
        Primitive::StdRwLock,
        Primitive::ParkingLotRwLock,
        Primitive::SeqLock,
        Primitive::FetchAdd,
        Primitive::EntryUnderLock,
        Primitive::ComputeOutsideLock,
    ];

    /// The name rows and CSV files use ("parking-lot-fair").
    pub fn name(self) -> &'static str {
        match self {
            Primitive::StdMutex => "std-mutex",
            Primitive::ParkingLotMutex => "parking-lot-mutex",
            Primitive::ParkingLotFair => "parking-lot-fair",
            Primitive::SpinLock => "spin-lock",
            Primitive::SleepLock => "sleep-lock",
            Primitive::StdRwLock => "std-rwlock",
            Primitive::ParkingLotRwLock => "parking-lot-rwlock",
            Primitive::SeqLock => "seqlock",
            Primitive::FetchAdd => "fetch-add",
            Primitive::EntryUnderLock => "entry-under-lock",
            Primitive::ComputeOutsideLock => "compute-outside-lock",
        }
    }

    /// A short label for tables and chart axes.
    pub fn label(self) -> &'static str {
        match self {
            Primitive::StdMutex => "std Mutex",
            Primitive::ParkingLotMutex => "parking_lot Mutex",
            Primitive::ParkingLotFair => "parking_lot unlock_fair",
            Primitive::SpinLock => "spin lock",
            Primitive::SleepLock => "sleeping ticket lock",
            Primitive::StdRwLock => "std RwLock",
            Primitive::ParkingLotRwLock => "parking_lot RwLock",
            Primitive::SeqLock => "seqlock (optimistic)",
            Primitive::FetchAdd => "fetch_add",
            Primitive::EntryUnderLock => "compute under the lock",
            Primitive::ComputeOutsideLock => "compute outside the lock",
        }
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_names_are_the_names_flags_and_tables_use() {
        for primitive in Primitive::ALL {
            assert_eq!(serde_json::to_string(&primitive).unwrap(), format!("\"{}\"", primitive.name()));
        }
        for case in Case::ALL {
            assert_eq!(serde_json::to_string(&case).unwrap(), format!("\"{}\"", case.name()));
            assert_eq!(case.name().parse::<Case>().unwrap(), case);
        }
    }
}
