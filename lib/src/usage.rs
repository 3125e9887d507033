//! What the whole process uses: CPU time and context switches (`getrusage`), the memory it
//! has committed (the resident set) and the address space it has reserved (virtual size).
//! Neutral: the GC sweep reads the process's CPU share with it, the pool its switches and
//! memory. Linux only; elsewhere every reading is unknown (`None`).

use std::time::Duration;

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

    /// CPU time over what `cpus` CPUs could have given in `wall`: `top`'s "2266%" over
    /// "4800%" on 48 CPUs. 0 for an empty span.
    pub fn cpu_share(&self, wall: Duration, cpus: usize) -> f64 {
        let available = wall.as_secs_f64() * cpus.max(1) as f64;
        if available > 0.0 {
            self.cpu_ns as f64 / 1e9 / available
        } else {
            0.0
        }
    }
}

/// The process's memory at one moment (`/proc/self/statm`; Linux, elsewhere unknown).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// The resident set: memory committed and touched (statm's second field).
    pub resident_bytes: u64,
    /// The address space reserved (VmSize, statm's first field): every thread's whole stack
    /// counts here from its creation, touched or not, as does every malloc arena.
    pub reserved_bytes: u64,
}

/// The process's memory now.
#[cfg(target_os = "linux")]
pub fn memory() -> Option<Memory> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let mut pages = statm.split_whitespace().map(|field| field.parse::<u64>().ok());
    let (reserved, resident) = (pages.next()??, pages.next()??);
    // SAFETY: sysconf only reads a system constant.
    let page_bytes = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
    Some(Memory {
        resident_bytes: resident.checked_mul(page_bytes)?,
        reserved_bytes: reserved.checked_mul(page_bytes)?,
    })
}

#[cfg(not(target_os = "linux"))]
pub fn memory() -> Option<Memory> {
    None
}

/// The process's resident set now ([`Memory::resident_bytes`]).
pub fn resident_bytes() -> Option<u64> {
    memory().map(|memory| memory.resident_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_switches_are_counted_for_the_whole_process() {
        // Another thread sleeps 100 times: each sleep is a voluntary switch of *that* thread.
        // A per-thread counter read here (where we only block once, on join) would miss them.
        // A sleep that finds its short timer already run out returns without blocking (98 of
        // 100 were seen on a loaded machine), so half of them is what must show.
        let before = ProcessUsage::now().expect("getrusage");
        std::thread::spawn(|| (0..100).for_each(|_| std::thread::sleep(Duration::from_micros(200))))
            .join()
            .expect("sleeper thread");
        let used = ProcessUsage::now().expect("getrusage").since(&before);
        assert!(used.voluntary_switches >= 50, "saw {} voluntary switches", used.voluntary_switches);
    }

    #[test]
    fn cpu_time_includes_other_threads() {
        let before = ProcessUsage::now().expect("getrusage");
        std::thread::spawn(|| {
            let started = std::time::Instant::now();
            let mut spins = 0u64;
            while started.elapsed() < Duration::from_millis(30) {
                spins = std::hint::black_box(spins.wrapping_add(1));
            }
        })
        .join()
        .expect("worker thread");
        assert!(ProcessUsage::now().expect("getrusage").since(&before).cpu_ns > 0);
    }

    #[test]
    fn cpu_share_is_cpu_time_over_what_the_cpus_could_give() {
        let used = ProcessUsage { cpu_ns: 22_660_000_000, ..ProcessUsage::default() };
        assert!((used.cpu_share(Duration::from_secs(1), 48) - 2266.0 / 4800.0).abs() < 1e-12);
        assert_eq!(used.cpu_share(Duration::ZERO, 4), 0.0);
    }

    #[test]
    fn memory_is_read_on_linux_and_the_reserved_space_holds_the_resident_set() {
        if cfg!(target_os = "linux") {
            let Memory { resident_bytes: resident, reserved_bytes: reserved } = memory().unwrap();
            assert!(resident > 0 && reserved >= resident, "resident {resident}, reserved {reserved}");
        }
    }
}
