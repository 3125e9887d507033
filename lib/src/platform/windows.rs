//! Windows, through windows-sys (Microsoft's own bindings, tested on Windows by their CI):
//! the facts from `GetLogicalProcessorInformationEx` and the registry (in `windows_facts`),
//! pinning by affinity mask (`SetThreadAffinityMask`, through core_affinity), the CPU a
//! thread runs on, the thread's CPU time (`GetThreadTimes`), memory
//! (`K32GetProcessMemoryInfo`), files opened on their reparse point rather than through it,
//! and the room's lock (`LockFileEx`). Windows counts no context switches per process or
//! thread through a public call, keeps no load average, `/proc/stat`, cpufreq or perf
//! counters: those read unknown, from the fallback.

use std::os::windows::fs::OpenOptionsExt as _;
use std::os::windows::io::AsRawHandle as _;
use std::os::windows::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command};

use windows_sys::Win32::Foundation::{CloseHandle, GetLastError, ERROR_LOCK_VIOLATION, FILETIME};
use windows_sys::Win32::Storage::FileSystem::{
    LockFileEx, FILE_FLAG_OPEN_REPARSE_POINT, LOCKFILE_EXCLUSIVE_LOCK, LOCKFILE_FAIL_IMMEDIATELY,
};
use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleA, GetProcAddress};
use windows_sys::Win32::System::ProcessStatus::{K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS};
use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, GetCurrentThread, GetExitCodeProcess, GetThreadTimes, OpenProcess, CREATE_NEW_PROCESS_GROUP,
    PROCESS_QUERY_LIMITED_INFORMATION,
};
use windows_sys::Win32::System::IO::{OVERLAPPED, OVERLAPPED_0, OVERLAPPED_0_0};

use super::{Known, MemoryInUse, ProcessTimes, Unknown};

#[cfg(feature = "signals")]
pub use super::fallback::stop_requested;
pub use super::fallback::{
    ask_for_fast_cores, clock_ticks_per_second, counter_close, counter_enable, counter_open, counter_read,
    cpu_frequency_root, hit_modified_event_name, hostname, load_average, special_kind, system_cpu_times,
    thread_run_delay_ns,
};
pub use super::windows_facts::{core_kinds, cpu_facts};

pub use super::affinity::{available_cpu_ids, pin_current_thread, pinning_unavailable};
pub use super::cpu_number::current_cpu;

pub const BODY: &str = "windows";

pub fn physical_memory_bytes() -> Known<u64> {
    // SAFETY: an all-zero MEMORYSTATUSEX is a valid value; its length is set before the call.
    let mut status: MEMORYSTATUSEX = unsafe { std::mem::zeroed() };
    status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
    // SAFETY: `status` is writable and its dwLength says its size.
    (unsafe { GlobalMemoryStatusEx(&mut status) } != 0)
        .then_some(status.ullTotalPhys)
        .ok_or(Unknown("GlobalMemoryStatusEx refused"))
}

fn filetime_ns(time: FILETIME) -> u64 {
    ((u64::from(time.dwHighDateTime) << 32) | u64::from(time.dwLowDateTime)) * 100
}

pub fn thread_cpu_ns() -> Known<u64> {
    let zero = FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the pseudo-handle names the calling thread; the four FILETIMEs are writable.
    let status = unsafe { GetThreadTimes(GetCurrentThread(), &mut created, &mut exited, &mut kernel, &mut user) };
    (status != 0).then(|| filetime_ns(kernel) + filetime_ns(user)).ok_or(Unknown("GetThreadTimes refused"))
}

const NO_SWITCHES: Unknown = Unknown("Windows counts no context switches per process or thread through a public call");

pub fn thread_voluntary_switches() -> Known<u64> {
    Err(NO_SWITCHES)
}

/// Unknown as a whole: the CPU time is there (`GetProcessTimes`) but the switches, which
/// every reader of it needs beside the time, are not.
pub fn process_times() -> Known<ProcessTimes> {
    Err(NO_SWITCHES)
}

/// "Wine 8.0" where Wine answers this process's Windows calls (its ntdll exports
/// `wine_get_version`): its answers are its own emulation of Windows, not Windows'.
pub fn emulator() -> Option<String> {
    // SAFETY: both names are NUL-terminated; ntdll is mapped into every Windows process.
    let version =
        unsafe { GetProcAddress(GetModuleHandleA(c"ntdll.dll".as_ptr().cast()), c"wine_get_version".as_ptr().cast()) }?;
    // SAFETY: Wine's `wine_get_version` takes nothing and returns a static NUL-terminated string.
    let version: extern "C" fn() -> *const std::ffi::c_char = unsafe { std::mem::transmute(version) };
    let text = version();
    // SAFETY: not null (checked), and Wine's string lives as long as the process.
    let text = (!text.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy().into_owned());
    Some(format!("Wine {}", text.unwrap_or_default()).trim_end().to_string())
}

/// The working set (resident) and the process's address space in use, reserved or committed
/// (`GlobalMemoryStatusEx`'s total virtual less the available: what Linux's VmSize and
/// macOS's virtual size count, and where a thread's reserved stack shows). The commit charge
/// (`PagefileUsage`) is no such bound: the working set also holds shared pages.
pub fn memory_in_use() -> Known<MemoryInUse> {
    // SAFETY: an all-zero PROCESS_MEMORY_COUNTERS is a valid value.
    let mut counters: PROCESS_MEMORY_COUNTERS = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<PROCESS_MEMORY_COUNTERS>() as u32;
    counters.cb = size;
    // SAFETY: the pseudo-handle names this process; `counters` is writable for `size` bytes.
    if unsafe { K32GetProcessMemoryInfo(GetCurrentProcess(), &mut counters, size) } == 0 {
        return Err(Unknown("K32GetProcessMemoryInfo refused"));
    }
    // SAFETY: an all-zero MEMORYSTATUSEX is a valid value; its length is set before the call.
    let mut status: MEMORYSTATUSEX = unsafe { std::mem::zeroed() };
    status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
    // SAFETY: `status` is writable and its dwLength says its size.
    if unsafe { GlobalMemoryStatusEx(&mut status) } == 0 {
        return Err(Unknown("GlobalMemoryStatusEx refused"));
    }
    Ok(MemoryInUse {
        resident_bytes: counters.WorkingSetSize as u64,
        reserved_bytes: status.ullTotalVirtual.saturating_sub(status.ullAvailVirtual),
    })
}

/// Opened on the reparse point itself (`FILE_FLAG_OPEN_REPARSE_POINT`), never through it;
/// a link is then refused by what was opened.
pub fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    let file = std::fs::OpenOptions::new().read(true).custom_flags(FILE_FLAG_OPEN_REPARSE_POINT).open(path)?;
    refuse_a_link(file)
}

fn refuse_a_link(file: std::fs::File) -> std::io::Result<std::fs::File> {
    if file.metadata()?.file_type().is_symlink() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a symbolic link (reparse point) is not followed",
        ));
    }
    Ok(file)
}

/// `LockFileEx` on one byte far past the PID the file holds, so that a second server can
/// still read whose lock it is.
pub fn lock_file(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)?;
    let file = refuse_a_link(file)?;
    // SAFETY: an all-zero OVERLAPPED is a valid value; its offset is set below.
    let mut at: OVERLAPPED = unsafe { std::mem::zeroed() };
    at.Anonymous = OVERLAPPED_0 { Anonymous: OVERLAPPED_0_0 { Offset: 0, OffsetHigh: u32::MAX } };
    let flags = LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY;
    // SAFETY: the handle is the open file's for the length of the call; `at` is valid.
    if unsafe { LockFileEx(file.as_raw_handle(), flags, 0, 1, 0, &mut at) } != 0 {
        return Ok(Some(file));
    }
    // SAFETY: no preconditions.
    if unsafe { GetLastError() } == ERROR_LOCK_VIOLATION {
        Ok(None)
    } else {
        Err(std::io::Error::last_os_error())
    }
}

pub fn raise_file_limit() -> Known<u64> {
    Err(Unknown("Windows keeps no per-process limit on open sockets to raise"))
}

/// `GetExitCodeProcess` still reading `STILL_ACTIVE` (259).
pub fn process_runs(pid: u32) -> Known<bool> {
    const STILL_ACTIVE: u32 = 259;
    // SAFETY: OpenProcess has no memory-safety preconditions; a null handle is checked.
    let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if process.is_null() {
        return Err(Unknown("OpenProcess refused (no such process, or no right to ask)"));
    }
    let mut code = 0u32;
    // SAFETY: `process` is an open handle, closed once below; `code` is writable.
    let asked = unsafe { GetExitCodeProcess(process, &mut code) } != 0;
    // SAFETY: `process` was opened above and is not used after this.
    unsafe { CloseHandle(process) };
    asked.then_some(code == STILL_ACTIVE).ok_or(Unknown("GetExitCodeProcess refused"))
}

pub fn own_process_group(command: &mut Command) {
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// `TerminateProcess` on the child alone: Windows kills no process group (a job object
/// would), so a build's compilers may outlive it.
pub fn kill_process_group(child: &mut Child) {
    let _ = child.kill();
}

pub fn user_data_dir() -> Known<std::path::PathBuf> {
    folder_of("LOCALAPPDATA").or_else(|| folder_of("APPDATA")).ok_or(Unknown("neither LOCALAPPDATA nor APPDATA is set"))
}

/// `name`'s value as a folder, when it is set and absolute.
fn folder_of(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os(name).map(std::path::PathBuf::from).filter(|path| path.is_absolute())
}
