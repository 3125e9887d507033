//! Hardware counters around a trial, where the kernel allows them (Linux `perf_event_open`).
//!
//! Most cloud guests expose no performance-monitoring unit, and many kernels restrict
//! counters (`/proc/sys/kernel/perf_event_paranoid`). Then every reading is
//! [`CounterReading::Unavailable`] and the trial runs exactly as without a counter: a counter
//! never fails an experiment.
//!
//! # What is counted
//!
//! [`count_cache_misses`] opens the generic `cache-misses` event (the kernel maps it to the
//! CPU's last-level or coherence miss event) for the calling thread with `inherit`, so it also
//! counts every thread the trial spawns; their counts are added when they exit, so read it
//! only after the trial has joined its workers (the harness always does). User space only:
//! the setting unprivileged processes are allowed. The count covers the whole trial,
//! including thread start-up, which is small beside millions of increments.
//!
//! # Using it in an experiment
//!
//! ```
//! use contention::perf::count_cache_misses;
//! let (sum, cache_misses) = count_cache_misses(|| (0..1000u64).sum::<u64>());
//! assert_eq!(sum, 499_500);
//! // `cache_misses` is a count here, or `Unavailable` on a machine without counters.
//! let _ = cache_misses.count();
//! ```

use std::fmt;

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

/// Runs `trial` with a cache-miss counter around it (see the module docs). Returns the
/// trial's result and the count, or `Unavailable` where the kernel allows no counter.
pub fn count_cache_misses<T>(trial: impl FnOnce() -> T) -> (T, CounterReading) {
    let counter = TrialCounter::start();
    let result = trial();
    (result, counter.finish())
}

/// Whether this process may count cache misses, and if not, why: for the machine section.
pub fn availability() -> Result<(), String> {
    sys::open_cache_misses().map(sys::close)
}

/// An open counter (or the reason there is none), started before a trial.
#[derive(Debug)]
pub struct TrialCounter {
    fd: Option<i32>,
}

impl TrialCounter {
    /// Opens and enables the counter; never fails (see [`CounterReading::Unavailable`]).
    pub fn start() -> Self {
        Self { fd: sys::open_cache_misses().ok() }
    }

    /// Reads the count since [`TrialCounter::start`] and closes the counter.
    pub fn finish(mut self) -> CounterReading {
        match self.fd.take() {
            Some(fd) => {
                let reading = sys::read(fd).map_or(CounterReading::Unavailable, CounterReading::Counted);
                sys::close(fd);
                reading
            }
            None => CounterReading::Unavailable,
        }
    }
}

impl Drop for TrialCounter {
    fn drop(&mut self) {
        if let Some(fd) = self.fd.take() {
            sys::close(fd);
        }
    }
}

/// The `perf_event_open(2)` system call, its attribute block and the counter's file.
#[cfg(target_os = "linux")]
mod sys {
    /// `struct perf_event_attr` up to `PERF_ATTR_SIZE_VER5` (112 bytes); the kernel accepts
    /// any published size and zero-fills the rest.
    #[repr(C)]
    #[derive(Default)]
    struct EventAttr {
        kind: u32,
        size: u32,
        config: u64,
        sample_period: u64,
        sample_type: u64,
        read_format: u64,
        /// Bit flags: disabled, inherit, pinned, exclusive, exclude_user, exclude_kernel, ...
        flags: u64,
        wakeup_events: u32,
        bp_type: u32,
        config1: u64,
        config2: u64,
        branch_sample_type: u64,
        sample_regs_user: u64,
        sample_stack_user: u32,
        clockid: i32,
        sample_regs_intr: u64,
        aux_watermark: u32,
        sample_max_stack: u16,
        reserved: u16,
    }

    const PERF_TYPE_HARDWARE: u32 = 0;
    const PERF_COUNT_HW_CACHE_MISSES: u64 = 3;
    const FLAG_INHERIT: u64 = 1 << 1;
    const FLAG_EXCLUDE_KERNEL: u64 = 1 << 5;
    const FLAG_EXCLUDE_HV: u64 = 1 << 6;
    const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;

    pub fn open_cache_misses() -> Result<i32, String> {
        let attr = EventAttr {
            kind: PERF_TYPE_HARDWARE,
            size: std::mem::size_of::<EventAttr>() as u32,
            config: PERF_COUNT_HW_CACHE_MISSES,
            // Enabled from the start; this thread and every thread it spawns from now on.
            flags: FLAG_INHERIT | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV,
            ..EventAttr::default()
        };
        let (this_thread, any_cpu, no_group) = (0 as libc::pid_t, -1 as libc::c_int, -1 as libc::c_int);
        // SAFETY: `attr` is a valid, fully initialised perf_event_attr whose `size` field
        // matches its layout; the kernel only reads it during the call.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_perf_event_open,
                &attr as *const EventAttr,
                this_thread,
                any_cpu,
                no_group,
                PERF_FLAG_FD_CLOEXEC,
            )
        };
        if fd < 0 {
            let error = std::io::Error::last_os_error();
            let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid").unwrap_or_default();
            return Err(format!(
                "the kernel refused perf_event_open for cache misses ({error}; perf_event_paranoid = {})",
                if paranoid.trim().is_empty() { "unknown" } else { paranoid.trim() }
            ));
        }
        Ok(fd as i32)
    }

    /// The counter's value: one native-endian u64 (no read_format flags were set).
    pub fn read(fd: i32) -> Option<u64> {
        let mut value = [0u8; 8];
        // SAFETY: `value` is 8 writable bytes and `fd` is an open perf counter owned by
        // the caller.
        let got = unsafe { libc::read(fd, value.as_mut_ptr().cast(), value.len()) };
        (got == 8).then(|| u64::from_ne_bytes(value))
    }

    pub fn close(fd: i32) {
        // SAFETY: `fd` was returned by perf_event_open and is closed exactly once (the
        // caller takes it out of its Option first).
        unsafe { libc::close(fd) };
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    pub fn open_cache_misses() -> Result<i32, String> {
        Err("hardware counters are read with Linux perf_event_open; this OS has none".into())
    }
    pub fn read(_fd: i32) -> Option<u64> {
        None
    }
    pub fn close(_fd: i32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trial_runs_whether_or_not_counters_are_available() {
        let (value, reading) = count_cache_misses(|| 42);
        assert_eq!(value, 42);
        // Availability and the reading agree: counted exactly when the kernel allows it.
        assert_eq!(
            availability().is_ok(),
            reading.count().is_some(),
            "availability {:?}, reading {reading}",
            availability()
        );
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
    fn an_unstarted_counter_reads_unavailable() {
        assert_eq!(TrialCounter { fd: None }.finish(), CounterReading::Unavailable);
    }
}
