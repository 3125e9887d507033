//! The POSIX calls Linux and macOS answer alike (libc, whose CI covers both): process
//! CPU time and switches, load, memory size, the thread CPU clock, files opened without
//! following links, flock, the file limit, process groups and SIGTERM.

use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command};

use super::{Known, ProcessTimes, Unknown};

fn timeval_ns(time: libc::timeval) -> u64 {
    time.tv_sec as u64 * 1_000_000_000 + time.tv_usec as u64 * 1_000
}

/// `getrusage(who)`, when it answers.
pub(super) fn rusage(who: libc::c_int) -> Option<libc::rusage> {
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is valid and writable for the call.
    (unsafe { libc::getrusage(who, &mut usage) } == 0).then_some(usage)
}

pub fn process_times() -> Known<ProcessTimes> {
    let usage = rusage(libc::RUSAGE_SELF).ok_or(Unknown("getrusage refused"))?;
    Ok(ProcessTimes {
        cpu_ns: timeval_ns(usage.ru_utime) + timeval_ns(usage.ru_stime),
        voluntary_switches: usage.ru_nvcsw as u64,
        involuntary_switches: usage.ru_nivcsw as u64,
    })
}

pub fn load_average() -> Known<[f64; 3]> {
    let mut loads = [0.0f64; 3];
    // SAFETY: `loads` has room for the 3 values asked for.
    let got = unsafe { libc::getloadavg(loads.as_mut_ptr(), 3) };
    (got == 3).then_some(loads).ok_or(Unknown("getloadavg refused"))
}

pub fn hostname() -> Known<String> {
    let mut name = [0u8; 256];
    // SAFETY: `name` is writable for its whole length, which is passed.
    if unsafe { libc::gethostname(name.as_mut_ptr().cast(), name.len()) } != 0 {
        return Err(Unknown("gethostname refused"));
    }
    let end = name.iter().position(|&byte| byte == 0).unwrap_or(name.len());
    let name = String::from_utf8_lossy(&name[..end]).trim().to_string();
    (!name.is_empty()).then_some(name).ok_or(Unknown("the machine has no hostname"))
}

pub fn thread_cpu_ns() -> Known<u64> {
    let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `time` is valid and writable; the clock id is a constant both OSes define.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    (status == 0)
        .then(|| time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
        .ok_or(Unknown("no per-thread CPU clock"))
}

pub fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)
}

pub fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let file_type = meta.file_type();
    if file_type.is_fifo() {
        Some("FIFO (named pipe)")
    } else if file_type.is_socket() {
        Some("socket")
    } else if file_type.is_block_device() || file_type.is_char_device() {
        Some("device")
    } else {
        None
    }
}

pub fn lock_file(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    use std::os::unix::io::AsRawFd as _;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    // SAFETY: flock takes a descriptor the file owns for the length of the call.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(Some(file));
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(None)
    } else {
        Err(error)
    }
}

/// Up to the hard limit (on macOS, whose hard limit may be unlimited, to the most
/// `setrlimit` takes).
pub fn raise_file_limit() -> Known<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the struct it is given, which lives on this stack frame.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(Unknown("getrlimit refused"));
    }
    for wanted in [limit.rlim_max, limit.rlim_max.min(10_240)] {
        if wanted <= limit.rlim_cur {
            break;
        }
        let raised = libc::rlimit { rlim_cur: wanted, rlim_max: limit.rlim_max };
        // SAFETY: setrlimit only reads the struct it is given.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = wanted;
            break;
        }
    }
    Ok(limit.rlim_cur)
}

/// `kill(pid, 0)`: delivered, or refused for want of permission, means the process exists.
pub fn process_runs(pid: u32) -> Known<bool> {
    let pid = libc::pid_t::try_from(pid).map_err(|_| Unknown("no such process id"))?;
    // kill(0, ..) would address our own process group, not a process: no process has id 0.
    if pid == 0 {
        return Ok(false);
    }
    // SAFETY: signal 0 only checks that the process exists; nothing is delivered.
    if unsafe { libc::kill(pid, 0) } == 0 {
        return Ok(true);
    }
    Ok(std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

pub fn own_process_group(command: &mut Command) {
    command.process_group(0);
}

/// SIGKILL to every process in `child`'s group (its id: [`own_process_group`] made it the
/// leader).
pub fn kill_process_group(child: &mut Child) {
    if let Ok(group) = i32::try_from(child.id()) {
        // SAFETY: kill has no memory-safety preconditions; a group already gone is ESRCH.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

#[cfg(feature = "signals")]
pub async fn stop_requested() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}
