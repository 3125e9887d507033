//! What a run costs the whole process: CPU time, context switches and memory, read by
//! [`crate::usage`] over one run.

use std::time::{Duration, Instant};

use crate::usage::{memory, Memory};
pub use crate::usage::{resident_bytes, ProcessUsage};

/// How often the dispatcher samples the resident set.
const RSS_SAMPLE_EVERY: Duration = Duration::from_millis(10);

/// Wall time, process usage and sampled peak memory over one run.
#[derive(Debug)]
pub struct Meter {
    start: Instant,
    usage_before: Option<ProcessUsage>,
    peak: Memory,
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
    /// Most address space reserved (VmSize) at the same samples; 0 where it cannot be read.
    pub peak_reserved_bytes: u64,
}

impl Meter {
    pub fn start() -> Self {
        let now = Instant::now();
        Self { start: now, usage_before: ProcessUsage::now(), peak: memory().unwrap_or_default(), last_sample: now }
    }

    pub fn start_instant(&self) -> Instant {
        self.start
    }

    /// Samples the resident set and the reserved address space if the last sample is older
    /// than 10 ms.
    pub fn sample_memory(&mut self) {
        if self.last_sample.elapsed() >= RSS_SAMPLE_EVERY {
            self.last_sample = Instant::now();
            let now = memory().unwrap_or_default();
            self.peak.resident_bytes = self.peak.resident_bytes.max(now.resident_bytes);
            self.peak.reserved_bytes = self.peak.reserved_bytes.max(now.reserved_bytes);
        }
    }

    pub fn finish(mut self) -> Metered {
        let elapsed = self.start.elapsed();
        let usage = ProcessUsage::now().zip(self.usage_before).map(|(after, before)| after.since(&before));
        self.last_sample = self.start;
        self.sample_memory();
        Metered {
            elapsed,
            usage,
            peak_rss_bytes: self.peak.resident_bytes,
            peak_reserved_bytes: self.peak.reserved_bytes,
        }
    }
}
