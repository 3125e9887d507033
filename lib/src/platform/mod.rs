//! Every OS-specific read and call of the lab, in one place: machine facts, pinning, CPU
//! time, context switches, memory, hardware counters, files opened without following
//! links, the room's folder lock, child process groups and the stop signal. The rest of the
//! workspace is free of platform code (`lib/tests/platform.rs` checks it).
//!
//! One body per OS answers each function: `linux`, `macos`, `windows` (POSIX calls shared
//! by Linux and macOS in `unix`), and `fallback`, which answers "unknown" with a reason and
//! is what every other OS gets. The feature `platform-fallback` selects the fallback on any
//! OS, so CI builds and tests the whole lab on it here on Linux.

use std::path::Path;
use std::process::{Child, Command};

pub mod advice;
#[cfg(all(any(target_os = "linux", windows), not(feature = "platform-fallback")))]
mod affinity;
#[cfg(any(not(feature = "platform-fallback"), feature = "platform-fallback-cpu-number"))]
mod cpu_number;
mod fallback;
#[cfg(all(target_os = "linux", not(feature = "platform-fallback")))]
mod linux;
#[cfg(all(target_os = "linux", not(feature = "platform-fallback")))]
mod linux_facts;
#[cfg(all(target_os = "linux", not(feature = "platform-fallback")))]
mod linux_perf;
#[cfg(all(target_os = "macos", not(feature = "platform-fallback")))]
mod macos;
#[cfg(all(unix, not(feature = "platform-fallback")))]
mod unix;
#[cfg(all(windows, not(feature = "platform-fallback")))]
mod windows;
#[cfg(all(windows, not(feature = "platform-fallback")))]
mod windows_facts;

#[cfg(any(feature = "platform-fallback", not(any(target_os = "linux", target_os = "macos", windows))))]
use fallback as os;
#[cfg(all(target_os = "linux", not(feature = "platform-fallback")))]
use linux as os;
#[cfg(all(target_os = "macos", not(feature = "platform-fallback")))]
use macos as os;
#[cfg(all(windows, not(feature = "platform-fallback")))]
use windows as os;

pub use advice::{advice, installers};
pub use os::BODY;

/// Why a fact could not be read or a call could not be made here, in words a page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unknown(pub &'static str);

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// A fact this OS tells, or why it does not.
pub type Known<T> = Result<T, Unknown>;

/// One cache level as seen from CPU 0, deduplicated across CPUs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cache {
    pub level: u8,
    /// "Data", "Instruction" or "Unified".
    pub kind: String,
    pub size_bytes: Option<u64>,
    /// The unit the coherence protocol moves and invalidates (sysfs `coherency_line_size`,
    /// macOS `hw.cachelinesize`, Windows' `CACHE_RELATIONSHIP.LineSize`).
    pub line_bytes: Option<u64>,
    /// CPUs sharing the instance that CPU 0 uses, as a CPU list ("0-1"), or "unknown".
    pub shared_by_cpus: String,
    /// How many separate instances of this cache the machine has.
    pub instances: usize,
}

/// What the OS says about the CPUs; each field `None` (or empty) where it does not.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CpuFacts {
    pub model: Option<String>,
    pub vendor: Option<String>,
    pub kernel: Option<String>,
    /// Logical CPUs online (all of them, not only those this process may use).
    pub online_cpus: Option<usize>,
    /// Groups of logical CPUs that share one physical core, as CPU lists ("0,4").
    pub smt_sibling_groups: Vec<String>,
    /// Physical cores where the OS counts them without naming their CPUs (macOS).
    pub physical_cores: Option<usize>,
    /// Logical CPUs of the fastest kind (Apple's P cores, Intel's P cores on Windows).
    pub performance_cpus: Option<usize>,
    /// Logical CPUs of the slower, frugal kind (E cores); `Some(0)` where every core is alike.
    pub efficiency_cpus: Option<usize>,
    pub numa_nodes: Option<usize>,
    pub caches: Vec<Cache>,
    pub hypervisor: Option<bool>,
}

/// What the whole process used so far: every thread, live or exited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcessTimes {
    /// User plus system CPU time.
    pub cpu_ns: u64,
    pub voluntary_switches: u64,
    pub involuntary_switches: u64,
}

/// The process's memory at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryInUse {
    /// Memory committed and touched (the resident set, Windows' working set).
    pub resident_bytes: u64,
    /// The address space reserved (Linux VmSize, macOS virtual size, Windows' virtual in use).
    pub reserved_bytes: u64,
}

/// The events the hardware counters count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterEvent {
    LlcMisses,
    SnoopHitModified,
}

/// The CPUs' facts (model, caches, line sizes, SMT, performance and efficiency cores).
pub fn cpu_facts() -> CpuFacts {
    os::cpu_facts()
}

/// The machine's name on the network.
pub fn hostname() -> Known<String> {
    os::hostname()
}

/// Load averages over 1, 5 and 15 minutes.
pub fn load_average() -> Known<[f64; 3]> {
    os::load_average()
}

/// Physical memory in bytes.
pub fn physical_memory_bytes() -> Known<u64> {
    os::physical_memory_bytes()
}

/// The ids of the logical CPUs this process may be pinned to, ascending.
pub fn available_cpu_ids() -> Vec<usize> {
    os::available_cpu_ids()
}

/// Pins the calling thread to logical CPU `cpu`.
pub fn pin_current_thread(cpu: usize) -> Known<()> {
    os::pin_current_thread(cpu)
}

/// Why threads cannot be pinned here, where they cannot (what each figure then means is
/// said where the verdict reads it).
pub fn pinning_unavailable() -> Option<Unknown> {
    os::pinning_unavailable()
}

/// The logical CPU the calling thread runs on now.
pub fn current_cpu() -> Known<usize> {
    os::current_cpu()
}

/// The logical CPUs of each kind, where the OS names them (hybrid CPUs: Intel's P and E
/// cores on Linux and Windows).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoreKinds {
    /// The fastest kind (P cores).
    pub performance: Vec<usize>,
    /// The slower, frugal kinds (E cores).
    pub efficiency: Vec<usize>,
}

/// Which logical CPUs are performance cores and which efficiency cores; unknown where the
/// OS does not name them, or where every core is alike.
pub fn core_kinds() -> Known<CoreKinds> {
    os::core_kinds()
}

/// Asks the OS to run the calling thread on its fastest cores where it offers a lever
/// short of pinning (macOS: the user-interactive QoS class); nothing elsewhere.
pub fn ask_for_fast_cores() {
    os::ask_for_fast_cores();
}

/// The calling thread's own CPU time in nanoseconds.
pub fn thread_cpu_ns() -> Known<u64> {
    os::thread_cpu_ns()
}

/// The calling thread's voluntary context switches so far.
pub fn thread_voluntary_switches() -> Known<u64> {
    os::thread_voluntary_switches()
}

/// The calling thread's time spent runnable but waiting for a CPU, in nanoseconds.
pub fn thread_run_delay_ns() -> Known<u64> {
    os::thread_run_delay_ns()
}

/// The whole process's CPU time and context switches so far.
pub fn process_times() -> Known<ProcessTimes> {
    os::process_times()
}

/// The emulator answering this process's OS calls ("Wine 8.0"), where one is: its answers
/// are its own emulation, not what the OS it stands for would measure.
pub fn emulator() -> Option<String> {
    os::emulator()
}

/// The process's memory now.
pub fn memory_in_use() -> Known<MemoryInUse> {
    os::memory_in_use()
}

/// The text of Linux's `/proc/stat`: all CPUs' busy, idle and steal time.
pub fn system_cpu_times() -> Known<String> {
    os::system_cpu_times()
}

/// The clock ticks per second that [`system_cpu_times`] counts in.
pub fn clock_ticks_per_second() -> Known<f64> {
    os::clock_ticks_per_second()
}

/// The folder shaped as Linux's `/sys/devices/system/cpu`, where the CPU clocks are read.
pub fn cpu_frequency_root() -> Known<&'static Path> {
    os::cpu_frequency_root()
}

/// Hardware counters: the hit-modified event's name on this CPU, when there is one.
pub fn hit_modified_event_name() -> Option<&'static str> {
    os::hit_modified_event_name()
}

/// Opens a hardware counter of `event` for the calling thread, disabled; `Err` says why not.
pub fn counter_open(event: CounterEvent) -> Result<i32, String> {
    os::counter_open(event)
}

/// Starts (`true`) or stops counting.
pub fn counter_enable(fd: i32, on: bool) {
    os::counter_enable(fd, on);
}

/// The counter's value.
pub fn counter_read(fd: i32) -> Option<u64> {
    os::counter_read(fd)
}

/// Closes a counter (once).
pub fn counter_close(fd: i32) {
    os::counter_close(fd);
}

/// Opens `path` for reading, refusing a symbolic link (a reparse point on Windows) in its
/// last component and never blocking on a FIFO.
pub fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    os::open_no_follow(path)
}

/// What a file that is not a regular file, folder or link is, where the OS has such kinds:
/// "FIFO (named pipe)", "socket", "device".
pub fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    os::special_kind(meta)
}

/// Opens (creating when missing) the lock file `path` and takes its exclusive lock without
/// waiting: `Ok(None)` when another process holds it. The OS lets go when the process ends.
pub fn lock_file(path: &Path) -> std::io::Result<Option<std::fs::File>> {
    os::lock_file(path)
}

/// The user's own data folder, where a laptop keeps what it must remember between runs
/// (a room's seat tokens): `$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application
/// Support` on macOS, `%LOCALAPPDATA%` on Windows.
pub fn user_data_dir() -> Known<std::path::PathBuf> {
    os::user_data_dir()
}

/// Raises the soft limit on open files to the hard one and returns the limit in force.
pub fn raise_file_limit() -> Known<u64> {
    os::raise_file_limit()
}

/// Whether a process with `pid` runs; unknown where the OS cannot tell.
pub fn process_runs(pid: u32) -> Known<bool> {
    os::process_runs(pid)
}

/// Makes the child started by `command` the leader of a new process group.
pub fn own_process_group(command: &mut Command) {
    os::own_process_group(command);
}

/// Kills `child` and, where the OS has process groups, every process of its group.
pub fn kill_process_group(child: &mut Child) {
    os::kill_process_group(child);
}

/// Resolves once the process is asked to stop: Ctrl-C everywhere, SIGTERM (a service
/// manager's stop) where the OS has it.
#[cfg(feature = "signals")]
pub async fn stop_requested() {
    os::stop_requested().await;
}
