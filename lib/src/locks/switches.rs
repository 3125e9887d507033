//! A thread's own voluntary context switches: each one is a time the thread gave up its CPU
//! to wait (here: a lock's waiter asleep in the kernel, a futex wait), so per acquisition
//! they count the trips to the kernel a contended lock made.

/// The calling thread's voluntary context switches so far; `None` where the OS does not
/// count them per thread (only Linux does), where the count is unknown.
pub fn voluntary_switches() -> Option<u64> {
    crate::platform::thread_voluntary_switches().ok()
}
