//! Linux: procfs and sysfs for the facts (in `linux_facts`), perf_event_open for the
//! counters (in `linux_perf`), the POSIX calls shared with macOS (in `unix`), and what only
//! Linux has: pinning by affinity mask, the CPU a thread runs on, per-thread switches and
//! run-queue delay, the resident set, all CPUs' times and the CPU clocks.

use std::path::Path;

use super::{Known, MemoryInUse, Unknown};

pub use super::linux_facts::cpu_facts;
pub use super::linux_perf::{counter_close, counter_enable, counter_open, counter_read, hit_modified_event_name};
#[cfg(feature = "signals")]
pub use super::unix::stop_requested;
pub use super::unix::{
    hostname, kill_process_group, load_average, lock_file, open_no_follow, own_process_group, process_runs,
    process_times, raise_file_limit, special_kind, thread_cpu_ns,
};

pub use super::affinity::{available_cpu_ids, pin_current_thread, pinning_unavailable};
pub use super::cpu_number::current_cpu;
pub use super::fallback::{ask_for_fast_cores, emulator};
pub use super::linux_facts::core_kinds;

pub const BODY: &str = "linux";

/// `sysconf(name)` when it answers with a positive value.
fn sysconf(name: libc::c_int) -> Option<u64> {
    // SAFETY: sysconf reads a system constant and has no preconditions.
    u64::try_from(unsafe { libc::sysconf(name) }).ok().filter(|&value| value > 0)
}

pub fn physical_memory_bytes() -> Known<u64> {
    let pages = sysconf(libc::_SC_PHYS_PAGES);
    let page_bytes = sysconf(libc::_SC_PAGESIZE);
    pages.zip(page_bytes).and_then(|(pages, bytes)| pages.checked_mul(bytes)).ok_or(Unknown("sysconf refused"))
}

/// `getrusage(RUSAGE_THREAD)`: this thread's alone.
pub fn thread_voluntary_switches() -> Known<u64> {
    super::unix::rusage(libc::RUSAGE_THREAD).map(|usage| usage.ru_nvcsw as u64).ok_or(Unknown("getrusage refused"))
}

const THREAD_SCHEDSTAT: &str = "/proc/thread-self/schedstat";

/// The second of schedstat's three fields `cpu_ns run_delay_ns timeslices`.
pub fn thread_run_delay_ns() -> Known<u64> {
    const NONE: Unknown = Unknown("the kernel keeps no scheduler statistics (schedstat)");
    let line = std::fs::read_to_string(THREAD_SCHEDSTAT).map_err(|_| NONE)?;
    parse_run_delay_ns(&line).ok_or(NONE)
}

fn parse_run_delay_ns(line: &str) -> Option<u64> {
    let mut fields = line.split_whitespace();
    let _cpu_ns: u64 = fields.next()?.parse().ok()?;
    let run_delay_ns = fields.next()?.parse().ok()?;
    let _timeslices: u64 = fields.next()?.parse().ok()?;
    Some(run_delay_ns)
}

/// `/proc/self/statm`: its first two fields, in pages.
pub fn memory_in_use() -> Known<MemoryInUse> {
    const NONE: Unknown = Unknown("no readable /proc/self/statm");
    let statm = std::fs::read_to_string("/proc/self/statm").map_err(|_| NONE)?;
    let mut pages = statm.split_whitespace().map(|field| field.parse::<u64>().ok());
    let (reserved, resident) = (pages.next().flatten().ok_or(NONE)?, pages.next().flatten().ok_or(NONE)?);
    let page_bytes = sysconf(libc::_SC_PAGESIZE).ok_or(NONE)?;
    Ok(MemoryInUse {
        resident_bytes: resident.checked_mul(page_bytes).ok_or(NONE)?,
        reserved_bytes: reserved.checked_mul(page_bytes).ok_or(NONE)?,
    })
}

pub fn system_cpu_times() -> Known<String> {
    std::fs::read_to_string("/proc/stat").map_err(|_| Unknown("no readable /proc/stat"))
}

pub fn clock_ticks_per_second() -> Known<f64> {
    sysconf(libc::_SC_CLK_TCK).map(|ticks| ticks as f64).ok_or(Unknown("sysconf(_SC_CLK_TCK) refused"))
}

pub fn cpu_frequency_root() -> Known<&'static Path> {
    Ok(Path::new("/sys/devices/system/cpu"))
}

/// Where a user's data lives: $XDG_DATA_HOME, else ~/.local/share.
pub fn user_data_dir() -> Known<std::path::PathBuf> {
    folder_of("XDG_DATA_HOME")
        .or_else(|| folder_of("HOME").map(|home| home.join(".local").join("share")))
        .ok_or(Unknown("neither XDG_DATA_HOME nor HOME is set"))
}

/// `name`'s value as a folder, when it is set and absolute.
fn folder_of(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os(name).map(std::path::PathBuf::from).filter(|path| path.is_absolute())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedstat_lines_parse_their_second_field() {
        assert_eq!(parse_run_delay_ns("296145 2933801 2\n"), Some(2_933_801));
        assert_eq!(parse_run_delay_ns("296145 2933801"), None);
        assert_eq!(parse_run_delay_ns("a b c"), None);
    }

    #[test]
    fn a_sleep_is_a_voluntary_switch_of_this_thread() {
        let before = thread_voluntary_switches().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1));
        assert!(thread_voluntary_switches().unwrap() > before);
    }

    #[test]
    fn the_linux_body_reads_memory_switches_and_the_cpu() {
        let memory = memory_in_use().unwrap();
        assert!(memory.resident_bytes > 0 && memory.reserved_bytes >= memory.resident_bytes, "{memory:?}");
        assert!(current_cpu().is_ok());
        assert!(physical_memory_bytes().unwrap() > 0);
    }
}
