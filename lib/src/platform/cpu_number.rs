//! The logical CPU the calling thread runs on now, read as each OS offers it. Apart from the
//! OS bodies so that the fallback build with a CPU number (feature
//! `platform-fallback-cpu-number`) answers with the same call: the unpinned core-to-core
//! method needs it, and a fallback that knows it measures a matrix instead of no pair.
//!
//! - Linux: `sched_getcpu`, glibc's wrapper of the `getcpu` system call (a vDSO read).
//! - Windows: `GetCurrentProcessorNumberEx`, the group and the number within it, as the id
//!   `windows_facts` gives CPUs (64 per group before it).
//! - macOS 11 and later: `pthread_cpu_number_np` (Apple's libpthread, `<pthread.h>`). On
//!   Apple silicon it returns the CPU number XNU keeps in the thread's `TPIDR_EL0` register,
//!   the register hydroo/macos-core-to-core-latency reads directly (`currentCore()` in its
//!   main.cpp) to drop every sample where a thread moved.

use super::Known;

#[cfg(target_os = "linux")]
pub fn current_cpu() -> Known<usize> {
    // SAFETY: sched_getcpu has no preconditions; it returns -1 on error.
    usize::try_from(unsafe { libc::sched_getcpu() }).map_err(|_| super::Unknown("sched_getcpu refused"))
}

#[cfg(target_os = "macos")]
pub fn current_cpu() -> Known<usize> {
    let mut cpu: libc::size_t = 0;
    // SAFETY: `cpu` is writable; the call writes the number there and returns 0, or an errno.
    match unsafe { libc::pthread_cpu_number_np(&mut cpu) } {
        0 => Ok(cpu),
        _ => Err(super::Unknown("pthread_cpu_number_np refused (it needs macOS 11 or later)")),
    }
}

#[cfg(windows)]
pub fn current_cpu() -> Known<usize> {
    use windows_sys::Win32::System::Kernel::PROCESSOR_NUMBER;
    let mut number = PROCESSOR_NUMBER { Group: 0, Number: 0, Reserved: 0 };
    // SAFETY: `number` is writable; the call has no other precondition and cannot fail.
    unsafe { windows_sys::Win32::System::Threading::GetCurrentProcessorNumberEx(&mut number) };
    Ok(usize::from(number.Group) * 64 + usize::from(number.Number))
}

#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
pub fn current_cpu() -> Known<usize> {
    Err(super::Unknown("this OS has no call the lab knows that names the CPU a thread runs on"))
}
