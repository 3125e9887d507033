//! A thread's own voluntary context switches: each one is a time the thread gave up its CPU
//! to wait (here: a lock's waiter asleep in the kernel, a futex wait), so per acquisition
//! they count the trips to the kernel a contended lock made.

/// The calling thread's voluntary context switches so far (`getrusage(RUSAGE_THREAD)`,
/// Linux); `None` elsewhere, where the count is unknown.
#[cfg(target_os = "linux")]
pub fn voluntary_switches() -> Option<u64> {
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is valid and writable; RUSAGE_THREAD reads the calling thread only.
    let status = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    (status == 0).then(|| u64::try_from(usage.ru_nvcsw).unwrap_or(0))
}

#[cfg(not(target_os = "linux"))]
pub fn voluntary_switches() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn a_sleep_is_a_voluntary_switch() {
        let before = voluntary_switches().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1));
        assert!(voluntary_switches().unwrap() > before);
    }
}
