//! Hardware counters around a trial, where the kernel allows them (Linux `perf_event_open`).
//!
//! Most cloud guests expose no performance-monitoring unit, and many kernels restrict
//! counters (`/proc/sys/kernel/perf_event_paranoid`). Then every reading is
//! [`CounterReading::Unavailable`] and the trial runs exactly as without a counter: a counter
//! never fails an experiment.
//!
//! # What is counted
//!
//! - **Last-level cache misses**: the generic `cache-misses` event
//!   (`PERF_COUNT_HW_CACHE_MISSES`), which the kernel maps to the CPU's last-level-cache
//!   miss event. A false-sharing transfer between cores of one socket is mostly an LLC
//!   *hit* (the line comes from another core via a snoop), so this counts little of it.
//! - **Snoop hit-modified loads**: loads whose line was found *modified* in another core's
//!   cache, the coherence transfer false sharing is made of. Only where the PMU has such an
//!   event this lab knows: Intel family 6 (`MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM`, raw
//!   `0x04d2`). Elsewhere (AMD, Arm, VMs) it reads unavailable.
//!
//! Each worker opens its own counters (this thread only, user space, the setting
//! unprivileged processes are allowed) *before* the start gate, disabled, enables them
//! right after the gate opens and reads them right after its work: the counted region is
//! the work, not thread creation or pinning. The team's count is the workers' sum.
//!
//! # Using it in an experiment
//!
//! ```
//! use contention::perf::ThreadCounters;
//! let counters = ThreadCounters::open();
//! counters.enable();
//! let sum = (0..1000u64).sum::<u64>();
//! let counts = counters.finish();
//! assert_eq!(sum, 499_500);
//! // Each reading is a count here, or `Unavailable` on a machine without counters.
//! let _ = (counts.llc_misses.count(), counts.snoop_hit_modified.count());
//! ```

use crate::platform::{self as sys, CounterEvent};

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a counter read for one trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterReading {
    Counted(u64),
    /// The kernel refused the counter (no PMU in a VM, paranoid setting, other OS).
    Unavailable,
}

/// How an unavailable reading is written in CSV files.
pub const UNAVAILABLE: &str = "unavailable";

impl CounterReading {
    pub fn count(self) -> Option<u64> {
        match self {
            Self::Counted(count) => Some(count),
            Self::Unavailable => None,
        }
    }
}

impl fmt::Display for CounterReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Counted(count) => write!(f, "{count}"),
            Self::Unavailable => f.write_str(UNAVAILABLE),
        }
    }
}

/// A number, or the word "unavailable" (so a CSV cell says why it holds no number).
impl Serialize for CounterReading {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Counted(count) => serializer.serialize_u64(*count),
            Self::Unavailable => serializer.serialize_str(UNAVAILABLE),
        }
    }
}

impl<'de> Deserialize<'de> for CounterReading {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ReadingVisitor)
    }
}

struct ReadingVisitor;

impl Visitor<'_> for ReadingVisitor {
    type Value = CounterReading;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a count (whole number >= 0) or \"{UNAVAILABLE}\"")
    }

    fn visit_u64<E: de::Error>(self, count: u64) -> Result<CounterReading, E> {
        Ok(CounterReading::Counted(count))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<CounterReading, E> {
        match text.trim() {
            UNAVAILABLE => Ok(CounterReading::Unavailable),
            number => number
                .parse()
                .map(CounterReading::Counted)
                .map_err(|_| E::invalid_value(de::Unexpected::Str(text), &self)),
        }
    }
}

/// The counts of one thread, or the sum over a team's threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamCounts {
    pub llc_misses: CounterReading,
    pub snoop_hit_modified: CounterReading,
}

impl TeamCounts {
    pub const UNAVAILABLE: Self =
        Self { llc_misses: CounterReading::Unavailable, snoop_hit_modified: CounterReading::Unavailable };

    /// The sum of two threads' counts; unavailable where either is.
    pub fn plus(self, other: Self) -> Self {
        let add = |a: CounterReading, b: CounterReading| match (a, b) {
            (CounterReading::Counted(a), CounterReading::Counted(b)) => CounterReading::Counted(a.saturating_add(b)),
            _ => CounterReading::Unavailable,
        };
        Self {
            llc_misses: add(self.llc_misses, other.llc_misses),
            snoop_hit_modified: add(self.snoop_hit_modified, other.snoop_hit_modified),
        }
    }
}

/// Whether this process may count last-level cache misses, and if not, why: for the
/// machine section.
pub fn availability() -> Result<(), String> {
    sys::counter_open(CounterEvent::LlcMisses).map(sys::counter_close)
}

/// The coherence event this CPU offers (its name), or why there is none.
pub fn coherence_availability() -> Result<&'static str, String> {
    let name = sys::hit_modified_event_name().ok_or_else(|| {
        "no snoop hit-modified event is known for this CPU (the lab knows Intel family 6's)".to_string()
    })?;
    sys::counter_open(CounterEvent::SnoopHitModified).map(sys::counter_close)?;
    Ok(name)
}

/// One thread's counters, opened disabled (see the module docs).
#[derive(Debug)]
pub struct ThreadCounters {
    llc_misses: Option<i32>,
    snoop_hit_modified: Option<i32>,
}

impl ThreadCounters {
    /// Opens the calling thread's counters, disabled; never fails (a refused counter reads
    /// [`CounterReading::Unavailable`]). An event the kernel refused once is not asked for
    /// again: every trial opens counters on every worker.
    pub fn open() -> Self {
        static REFUSED: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];
        let open = |event: CounterEvent, refused: &AtomicBool| {
            if refused.load(Ordering::Relaxed) {
                return None;
            }
            let fd = sys::counter_open(event).ok();
            refused.store(fd.is_none(), Ordering::Relaxed);
            fd
        };
        Self {
            llc_misses: open(CounterEvent::LlcMisses, &REFUSED[0]),
            snoop_hit_modified: open(CounterEvent::SnoopHitModified, &REFUSED[1]),
        }
    }

    /// Starts counting.
    pub fn enable(&self) {
        self.fds().for_each(|fd| sys::counter_enable(fd, true));
    }

    /// Stops counting, reads and closes the counters.
    pub fn finish(mut self) -> TeamCounts {
        self.fds().for_each(|fd| sys::counter_enable(fd, false));
        let read = |fd: Option<i32>| {
            let reading = fd.and_then(sys::counter_read).map_or(CounterReading::Unavailable, CounterReading::Counted);
            fd.into_iter().for_each(sys::counter_close);
            reading
        };
        TeamCounts {
            llc_misses: read(self.llc_misses.take()),
            snoop_hit_modified: read(self.snoop_hit_modified.take()),
        }
    }

    fn fds(&self) -> impl Iterator<Item = i32> {
        self.llc_misses.into_iter().chain(self.snoop_hit_modified)
    }
}

impl Drop for ThreadCounters {
    fn drop(&mut self) {
        self.llc_misses.take().into_iter().chain(self.snoop_hit_modified.take()).for_each(sys::counter_close);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn availability_and_readings_agree() {
        let counters = ThreadCounters::open();
        counters.enable();
        let counts = counters.finish();
        assert_eq!(availability().is_ok(), counts.llc_misses.count().is_some(), "{:?}", availability());
        let coherence = coherence_availability();
        assert_eq!(coherence.is_ok(), counts.snoop_hit_modified.count().is_some(), "{coherence:?}");
    }

    #[test]
    fn team_counts_add_and_stay_unavailable_where_any_thread_was() {
        let counted =
            TeamCounts { llc_misses: CounterReading::Counted(3), snoop_hit_modified: CounterReading::Counted(4) };
        let sum = counted.plus(counted);
        assert_eq!(sum.llc_misses, CounterReading::Counted(6));
        assert_eq!(sum.snoop_hit_modified, CounterReading::Counted(8));
        assert_eq!(counted.plus(TeamCounts::UNAVAILABLE), TeamCounts::UNAVAILABLE);
    }

    #[test]
    fn unavailable_is_written_as_a_word_and_read_back() {
        assert_eq!(serde_json::to_string(&CounterReading::Unavailable).unwrap(), "\"unavailable\"");
        assert_eq!(serde_json::to_string(&CounterReading::Counted(17)).unwrap(), "17");
        let back: CounterReading = serde_json::from_str("\"unavailable\"").unwrap();
        assert_eq!(back, CounterReading::Unavailable);
        let counted: CounterReading = serde_json::from_str("\"1234\"").unwrap();
        assert_eq!(counted, CounterReading::Counted(1234));
        assert!(serde_json::from_str::<CounterReading>("\"lots\"").is_err());
    }

    #[test]
    fn unopened_counters_read_unavailable() {
        let counters = ThreadCounters { llc_misses: None, snoop_hit_modified: None };
        assert_eq!(counters.finish(), TeamCounts::UNAVAILABLE);
    }
}
