//! What the whole process uses: CPU time and context switches (`getrusage`), the memory it
//! has committed (the resident set) and the address space it has reserved (virtual size).
//! Neutral: the GC sweep reads the process's CPU share with it, the pool its switches and
//! memory. Read through [`crate::platform`]; where the OS does not tell, `None` (unknown).

use std::time::Duration;

/// Resource use of the whole process: every thread, live or exited.
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
    /// The process's usage so far, where the OS counts both its CPU time and its switches.
    pub fn now() -> Option<Self> {
        let times = crate::platform::process_times().ok()?;
        Some(Self {
            cpu_ns: times.cpu_ns,
            voluntary_switches: times.voluntary_switches,
            involuntary_switches: times.involuntary_switches,
        })
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

/// The process's memory at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// The resident set: memory committed and touched.
    pub resident_bytes: u64,
    /// The address space reserved (Linux's VmSize): every thread's whole stack
    /// counts here from its creation, touched or not, as does every malloc arena.
    pub reserved_bytes: u64,
}

/// The process's memory now, where the OS tells.
pub fn memory() -> Option<Memory> {
    let memory = crate::platform::memory_in_use().ok()?;
    Some(Memory { resident_bytes: memory.resident_bytes, reserved_bytes: memory.reserved_bytes })
}

/// The process's resident set now ([`Memory::resident_bytes`]).
pub fn resident_bytes() -> Option<u64> {
    memory().map(|memory| memory.resident_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(any(feature = "platform-fallback", windows), ignore = "this build counts no context switches")]
    fn context_switches_are_counted_for_the_whole_process() {
        // Another thread sleeps 100 times: each sleep is a voluntary switch of *that* thread.
        // A per-thread counter read here (where we only block once, on join) would miss them.
        // A sleep that finds its short timer already run out returns without blocking (98 of
        // 100 were seen on a loaded machine), so half of them is what must show.
        let before = ProcessUsage::now().expect("the process's usage");
        std::thread::spawn(|| (0..100).for_each(|_| std::thread::sleep(Duration::from_micros(200))))
            .join()
            .expect("sleeper thread");
        let used = ProcessUsage::now().expect("the process's usage").since(&before);
        assert!(used.voluntary_switches >= 50, "saw {} voluntary switches", used.voluntary_switches);
    }

    #[test]
    #[cfg_attr(any(feature = "platform-fallback", windows), ignore = "this build counts no context switches")]
    fn cpu_time_includes_other_threads() {
        let before = ProcessUsage::now().expect("the process's usage");
        std::thread::spawn(|| {
            let started = std::time::Instant::now();
            let mut spins = 0u64;
            while started.elapsed() < Duration::from_millis(30) {
                spins = std::hint::black_box(spins.wrapping_add(1));
            }
        })
        .join()
        .expect("worker thread");
        assert!(ProcessUsage::now().expect("the process's usage").since(&before).cpu_ns > 0);
    }

    #[test]
    fn cpu_share_is_cpu_time_over_what_the_cpus_could_give() {
        let used = ProcessUsage { cpu_ns: 22_660_000_000, ..ProcessUsage::default() };
        assert!((used.cpu_share(Duration::from_secs(1), 48) - 2266.0 / 4800.0).abs() < 1e-12);
        assert_eq!(used.cpu_share(Duration::ZERO, 4), 0.0);
    }

    #[test]
    #[cfg_attr(feature = "platform-fallback", ignore = "the fallback reads no memory")]
    fn memory_is_read_and_the_reserved_space_holds_the_resident_set() {
        let Memory { resident_bytes: resident, reserved_bytes: reserved } = memory().unwrap();
        assert!(resident > 0 && reserved >= resident, "resident {resident}, reserved {reserved}");
    }
}
