//! What a run costs the whole process: CPU time, context switches and memory.

use std::time::{Duration, Instant};

/// How often the dispatcher samples the resident set.
const RSS_SAMPLE_EVERY: Duration = Duration::from_millis(10);

/// Resource use of the whole process: every thread, live or exited (`getrusage(RUSAGE_SELF)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcessUsage {
    /// User plus system CPU time.
    pub cpu_ns: u64,
    /// Switches where a thread gave up its CPU to wait (sleep, lock, IO).
    pub voluntary_switches: u64,
    /// Switches where the scheduler took the CPU away (time slice over, higher priority).
    pub involuntary_switches: u64,
}

impl ProcessUsage {
    /// The process's usage so far (Linux; elsewhere unknown: `None`).
    #[cfg(target_os = "linux")]
    pub fn now() -> Option<Self> {
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is valid and writable; RUSAGE_SELF sums all threads of the process.
        let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
        let ns = |time: libc::timeval| time.tv_sec as u64 * 1_000_000_000 + time.tv_usec as u64 * 1_000;
        (status == 0).then(|| Self {
            cpu_ns: ns(usage.ru_utime) + ns(usage.ru_stime),
            voluntary_switches: usage.ru_nvcsw as u64,
            involuntary_switches: usage.ru_nivcsw as u64,
        })
    }

    #[cfg(not(target_os = "linux"))]
    pub fn now() -> Option<Self> {
        None
    }

    /// What was used since `earlier`.
    pub fn since(&self, earlier: &ProcessUsage) -> ProcessUsage {
        ProcessUsage {
            cpu_ns: self.cpu_ns.saturating_sub(earlier.cpu_ns),
            voluntary_switches: self.voluntary_switches.saturating_sub(earlier.voluntary_switches),
            involuntary_switches: self.involuntary_switches.saturating_sub(earlier.involuntary_switches),
        }
    }
}

/// The process's resident set now, from /proc/self/statm (Linux; elsewhere unknown).
#[cfg(target_os = "linux")]
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let page_bytes = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(page_bytes).ok().map(|page| pages * page)
}

#[cfg(not(target_os = "linux"))]
pub fn resident_bytes() -> Option<u64> {
    None
}

/// Wall time, process usage and sampled peak memory over one run.
#[derive(Debug)]
pub struct Meter {
    start: Instant,
    usage_before: Option<ProcessUsage>,
    peak_rss_bytes: u64,
    last_sample: Instant,
}

/// What a [`Meter`] saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metered {
    pub elapsed: Duration,
    /// `None` where the OS gives no process usage.
    pub usage: Option<ProcessUsage>,
    /// Highest resident set seen, sampled every 10 ms; 0 where it cannot be read.
    pub peak_rss_bytes: u64,
}

impl Meter {
    pub fn start() -> Self {
        let now = Instant::now();
        Self {
            start: now,
            usage_before: ProcessUsage::now(),
            peak_rss_bytes: resident_bytes().unwrap_or(0),
            last_sample: now,
        }
    }

    pub fn start_instant(&self) -> Instant {
        self.start
    }

    /// Samples the resident set if the last sample is older than 10 ms.
    pub fn sample_memory(&mut self) {
        if self.last_sample.elapsed() >= RSS_SAMPLE_EVERY {
            self.last_sample = Instant::now();
            self.peak_rss_bytes = self.peak_rss_bytes.max(resident_bytes().unwrap_or(0));
        }
    }

    pub fn finish(mut self) -> Metered {
        let elapsed = self.start.elapsed();
        let usage = ProcessUsage::now().zip(self.usage_before).map(|(after, before)| after.since(&before));
        self.last_sample = self.start;
        self.sample_memory();
        Metered { elapsed, usage, peak_rss_bytes: self.peak_rss_bytes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_switches_are_counted_for_the_whole_process() {
        // Another thread sleeps 100 times: each sleep is a voluntary switch of *that* thread.
        // A per-thread counter read here (where we only block once, on join) would miss them.
        let before = ProcessUsage::now().expect("getrusage");
        std::thread::spawn(|| (0..100).for_each(|_| std::thread::sleep(Duration::from_micros(200))))
            .join()
            .expect("sleeper thread");
        let used = ProcessUsage::now().expect("getrusage").since(&before);
        assert!(used.voluntary_switches >= 100, "saw {} voluntary switches", used.voluntary_switches);
    }

    #[test]
    fn cpu_time_includes_other_threads() {
        let before = ProcessUsage::now().expect("getrusage");
        std::thread::spawn(|| std::hint::black_box(super::super::service::hash_rounds(1, 50_000_000)))
            .join()
            .expect("worker thread");
        assert!(ProcessUsage::now().expect("getrusage").since(&before).cpu_ns > 0);
    }

    #[test]
    fn resident_set_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|bytes| bytes > 0));
        }
    }
}
