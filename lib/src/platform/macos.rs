//! macOS: the facts from `sysctl` (`hw.cachelinesize`, `hw.l1dcachesize`..,
//! `machdep.cpu.brand_string`, `hw.perflevel0/1.logicalcpu`), memory from the task's info
//! (`proc_pidinfo`), CPU time and switches from `getrusage` (in `unix`). macOS cannot pin a
//! thread to a CPU (its affinity API is a hint Apple silicon ignores): the closest lever is
//! a QoS class, and workers ask for the highest (user-interactive), which keeps them on the
//! performance cores while there are enough; the rows still say unpinned. The CPU a thread
//! runs on is `pthread_cpu_number_np` (in `cpu_number`), which lets the unpinned
//! core-to-core method keep only samples where neither thread moved. Nothing names which
//! CPUs are performance cores, nor per-thread switches or run-queue delay, nor hardware counters
//! (those need Apple's private kperf): those read unknown, from the fallback.

use std::ffi::CString;

use super::{Cache, CpuFacts, Known, MemoryInUse, Unknown};

pub use super::cpu_number::current_cpu;
pub use super::fallback::{
    clock_ticks_per_second, counter_close, counter_enable, counter_open, counter_read, cpu_frequency_root, emulator,
    hit_modified_event_name, system_cpu_times, thread_run_delay_ns,
};
#[cfg(feature = "signals")]
pub use super::unix::stop_requested;
pub use super::unix::{
    hostname, kill_process_group, load_average, lock_file, open_no_follow, own_process_group, process_runs,
    process_times, raise_file_limit, special_kind, thread_cpu_ns,
};

pub const BODY: &str = "macos";

const NO_PINNING: Unknown = Unknown(
    "macOS cannot pin threads to CPUs (its scheduler places them; a user-interactive QoS class keeps them on \
     performance cores)",
);

/// `sysctlbyname` into `buffer`; the bytes written.
fn sysctl_into(name: &str, buffer: &mut [u8]) -> Option<usize> {
    let name = CString::new(name).ok()?;
    let mut length = buffer.len();
    // SAFETY: `name` is a NUL-terminated string, `buffer` is writable for `length` bytes and
    // `length` is updated to what was written; nothing is set (new value null, 0 bytes).
    let status =
        unsafe { libc::sysctlbyname(name.as_ptr(), buffer.as_mut_ptr().cast(), &mut length, std::ptr::null_mut(), 0) };
    (status == 0).then_some(length)
}

/// An integer sysctl (4 or 8 bytes, as the kernel keeps it).
fn sysctl_u64(name: &str) -> Option<u64> {
    let mut buffer = [0u8; 8];
    match sysctl_into(name, &mut buffer)? {
        4 => Some(u64::from(u32::from_ne_bytes(buffer[..4].try_into().ok()?))),
        8 => Some(u64::from_ne_bytes(buffer)),
        _ => None,
    }
}

fn sysctl_string(name: &str) -> Option<String> {
    let mut buffer = [0u8; 256];
    let length = sysctl_into(name, &mut buffer)?;
    let text = String::from_utf8_lossy(&buffer[..length]);
    let text = text.trim_end_matches('\0').trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// A count sysctl as a usize.
fn sysctl_count(name: &str) -> Option<usize> {
    sysctl_u64(name).and_then(|value| usize::try_from(value).ok())
}

pub fn cpu_facts() -> CpuFacts {
    let logical = sysctl_count("hw.logicalcpu");
    let levels = sysctl_count("hw.nperflevels");
    let (performance, efficiency) = match levels {
        Some(1) => (logical, Some(0)),
        Some(2..) => (sysctl_count("hw.perflevel0.logicalcpu"), sysctl_count("hw.perflevel1.logicalcpu")),
        _ => (None, None),
    };
    CpuFacts {
        model: sysctl_string("machdep.cpu.brand_string"),
        vendor: sysctl_string("machdep.cpu.vendor")
            .or_else(|| cfg!(target_arch = "aarch64").then(|| "Apple".to_string())),
        kernel: sysctl_string("kern.osrelease"),
        online_cpus: logical,
        smt_sibling_groups: Vec::new(),
        physical_cores: sysctl_count("hw.physicalcpu"),
        performance_cpus: performance,
        efficiency_cpus: efficiency,
        numa_nodes: None,
        caches: caches(logical.unwrap_or(1)),
        hypervisor: sysctl_u64("kern.hv_vmm_present").map(|present| present == 1),
    }
}

/// The caches a performance core sees (`hw.perflevel0.*` on Apple silicon, `hw.*` on Intel),
/// each with the one line size macOS gives, and as many instances as `hw.cacheconfig` says
/// CPUs share each level.
fn caches(logical: usize) -> Vec<Cache> {
    let line = sysctl_u64("hw.cachelinesize");
    let mut sharing = [0u8; 80];
    let config_bytes = sysctl_into("hw.cacheconfig", &mut sharing).unwrap_or(0);
    let sharing_of = |level: usize| {
        let at = level * 8;
        (at + 8 <= config_bytes).then(|| u64::from_ne_bytes(sharing[at..at + 8].try_into().unwrap_or([0; 8])))
    };
    let size = |name: &str| sysctl_u64(&format!("hw.perflevel0.{name}")).or_else(|| sysctl_u64(&format!("hw.{name}")));
    let levels = [(1, "Data", "l1dcachesize"), (1, "Instruction", "l1icachesize"), (2, "Unified", "l2cachesize")];
    let l3 = [(3, "Unified", "l3cachesize")];
    levels
        .into_iter()
        .chain(l3)
        .filter_map(|(level, kind, name)| {
            let size_bytes = size(name).filter(|&bytes| bytes > 0)?;
            let shared = sharing_of(level).filter(|&cpus| cpus > 0);
            Some(Cache {
                level: level as u8,
                kind: kind.to_string(),
                size_bytes: Some(size_bytes),
                line_bytes: line,
                shared_by_cpus: shared.map_or_else(|| "unknown".to_string(), |cpus| format!("{cpus} CPUs")),
                instances: shared.map_or(1, |cpus| logical.div_ceil(cpus as usize).max(1)),
            })
        })
        .collect()
}

pub fn physical_memory_bytes() -> Known<u64> {
    sysctl_u64("hw.memsize").ok_or(Unknown("sysctl hw.memsize refused"))
}

/// None to pin to: workers run where the scheduler puts them.
pub fn available_cpu_ids() -> Vec<usize> {
    Vec::new()
}

extern "C" {
    /// `<pthread/qos.h>`: sets the calling thread's QoS class.
    fn pthread_set_qos_class_self_np(qos_class: u32, relative_priority: libc::c_int) -> libc::c_int;
}

/// `QOS_CLASS_USER_INTERACTIVE`.
const QOS_CLASS_USER_INTERACTIVE: u32 = 0x21;

/// Not pinned: the thread asks for the user-interactive QoS class instead.
pub fn pin_current_thread(_cpu: usize) -> Known<()> {
    ask_for_fast_cores();
    Err(NO_PINNING)
}

/// The user-interactive QoS class, which keeps the thread on performance cores while there
/// are enough.
pub fn ask_for_fast_cores() {
    // SAFETY: the call only changes the calling thread's scheduling class.
    let _ = unsafe { pthread_set_qos_class_self_np(QOS_CLASS_USER_INTERACTIVE, 0) };
}

pub fn pinning_unavailable() -> Option<Unknown> {
    Some(NO_PINNING)
}

/// Apple numbers its CPUs without saying which are performance cores: `hw.perflevel*`
/// counts them, no call names them.
pub fn core_kinds() -> Known<super::CoreKinds> {
    Err(Unknown(
        "macOS counts performance and efficiency cores (hw.perflevel0, hw.perflevel1) but names no CPU of either kind",
    ))
}

pub fn thread_voluntary_switches() -> Known<u64> {
    Err(Unknown("macOS counts context switches per process, not per thread"))
}

/// The task's resident and virtual size (`proc_pidinfo(PROC_PIDTASKINFO)`).
pub fn memory_in_use() -> Known<MemoryInUse> {
    // SAFETY: an all-zero proc_taskinfo is a valid value of this plain C struct.
    let mut info: libc::proc_taskinfo = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::proc_taskinfo>() as libc::c_int;
    // SAFETY: `info` is writable for `size` bytes; the call writes at most that.
    let written = unsafe {
        libc::proc_pidinfo(
            libc::getpid(),
            libc::PROC_PIDTASKINFO,
            0,
            (&mut info as *mut libc::proc_taskinfo).cast(),
            size,
        )
    };
    (written == size)
        .then_some(MemoryInUse { resident_bytes: info.pti_resident_size, reserved_bytes: info.pti_virtual_size })
        .ok_or(Unknown("proc_pidinfo refused"))
}

pub fn user_data_dir() -> Known<std::path::PathBuf> {
    folder_of("HOME").map(|home| home.join("Library").join("Application Support")).ok_or(Unknown("HOME is not set"))
}

/// `name`'s value as a folder, when it is set and absolute.
fn folder_of(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os(name).map(std::path::PathBuf::from).filter(|path| path.is_absolute())
}
