//! The portable body: only what the standard library can answer on any OS; every other
//! fact is unknown, with why. The OS bodies take from here what their OS lacks.

// An OS body takes only the part its OS lacks; the rest is used by the fallback build.
#![cfg_attr(not(feature = "platform-fallback"), allow(dead_code))]

use std::path::Path;
use std::process::{Child, Command};

use super::{CounterEvent, CpuFacts, Known, MemoryInUse, ProcessTimes, Unknown};

/// Which body answers.
pub const BODY: &str = "fallback (no OS calls)";

const NO_OS_CALLS: Unknown = Unknown("this build reads nothing from the OS (the portable fallback)");

pub fn cpu_facts() -> CpuFacts {
    CpuFacts::default()
}

pub fn hostname() -> Known<String> {
    std::env::var("HOSTNAME").or_else(|_| std::env::var("COMPUTERNAME")).map_err(|_| NO_OS_CALLS)
}

pub fn load_average() -> Known<[f64; 3]> {
    Err(NO_OS_CALLS)
}

pub fn physical_memory_bytes() -> Known<u64> {
    Err(NO_OS_CALLS)
}

/// None known: workers are then placed by the OS, unpinned.
pub fn available_cpu_ids() -> Vec<usize> {
    Vec::new()
}

pub fn pin_current_thread(_cpu: usize) -> Known<()> {
    Err(NO_PINNING)
}

const NO_PINNING: Unknown = Unknown("this build cannot pin threads (the portable fallback)");

pub fn pinning_unavailable() -> Option<Unknown> {
    Some(NO_PINNING)
}

/// Unknown, unless the build asks for the one OS call the unpinned core-to-core method
/// needs (`platform-fallback-cpu-number`).
#[cfg(not(feature = "platform-fallback-cpu-number"))]
pub fn current_cpu() -> Known<usize> {
    Err(NO_OS_CALLS)
}

#[cfg(feature = "platform-fallback-cpu-number")]
pub use super::cpu_number::current_cpu;

pub fn core_kinds() -> Known<super::CoreKinds> {
    Err(NO_OS_CALLS)
}

/// No QoS class to ask for: the OS places the thread as it will.
pub fn ask_for_fast_cores() {}

pub fn thread_cpu_ns() -> Known<u64> {
    Err(NO_OS_CALLS)
}

pub fn thread_voluntary_switches() -> Known<u64> {
    Err(NO_OS_CALLS)
}

pub fn thread_run_delay_ns() -> Known<u64> {
    Err(Unknown("run-queue delay is read from Linux's schedstat"))
}

pub fn process_times() -> Known<ProcessTimes> {
    Err(NO_OS_CALLS)
}

pub fn memory_in_use() -> Known<MemoryInUse> {
    Err(NO_OS_CALLS)
}

const NO_PROC_STAT: Unknown = Unknown("other programs' CPU use and steal time are read from Linux's /proc/stat");

pub fn system_cpu_times() -> Known<String> {
    Err(NO_PROC_STAT)
}

pub fn clock_ticks_per_second() -> Known<f64> {
    Err(NO_PROC_STAT)
}

pub fn cpu_frequency_root() -> Known<&'static Path> {
    Err(Unknown("CPU clocks are read from Linux's cpufreq files"))
}

pub fn hit_modified_event_name() -> Option<&'static str> {
    None
}

pub fn counter_open(_event: CounterEvent) -> Result<i32, String> {
    Err("hardware counters are read with Linux perf_event_open; this build has none".into())
}

pub fn counter_enable(_fd: i32, _on: bool) {}

pub fn counter_read(_fd: i32) -> Option<u64> {
    None
}

pub fn counter_close(_fd: i32) {}

/// A plain open: the caller has checked that `path` is no link, but a link made between
/// that check and this open is followed.
pub fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

pub fn special_kind(_meta: &std::fs::Metadata) -> Option<&'static str> {
    None
}

/// The standard library's own advisory lock (flock on Unix, LockFileEx on Windows), which
/// needs Rust 1.89: only an OS without a body of its own asks for more than the workspace's
/// rust-version.
#[allow(clippy::incompatible_msrv)]
pub fn lock_file(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    let file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(error)) => Err(error),
    }
}

pub fn raise_file_limit() -> Known<u64> {
    Err(NO_OS_CALLS)
}

pub fn process_runs(_pid: u32) -> Known<bool> {
    Err(NO_OS_CALLS)
}

pub fn own_process_group(_command: &mut Command) {}

/// The child alone: without process groups its own children may outlive it.
pub fn kill_process_group(child: &mut Child) {
    let _ = child.kill();
}

#[cfg(feature = "signals")]
pub async fn stop_requested() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Without OS calls: the folder the environment names, as Linux, then Windows, name it.
pub fn user_data_dir() -> Known<std::path::PathBuf> {
    folder_of("XDG_DATA_HOME")
        .or_else(|| folder_of("HOME").map(|home| home.join(".local").join("share")))
        .or_else(|| folder_of("LOCALAPPDATA"))
        .ok_or(Unknown("neither XDG_DATA_HOME, HOME nor LOCALAPPDATA is set"))
}

/// No emulator is known to answer this process's OS calls.
pub fn emulator() -> Option<String> {
    None
}

/// `name`'s value as a folder, when it is set and absolute.
fn folder_of(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os(name).map(std::path::PathBuf::from).filter(|path| path.is_absolute())
}
