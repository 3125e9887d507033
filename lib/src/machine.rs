//! What this machine is: CPUs, caches and their line sizes, NUMA, virtualisation, the
//! build. Read from Linux's procfs and sysfs; a fact that cannot be read is `None`
//! (shown as "unknown"), never a crash, so the same code runs on any OS.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use crate::build_info::BuildInfo;

/// The environment one run was measured in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub hostname: String,
    pub os: String,
    pub arch: String,
    pub kernel: Option<String>,
    pub cpu_model: Option<String>,
    pub cpu_vendor: Option<String>,
    /// Logical CPUs online (sysfs), else what the OS lets this process use.
    pub logical_cpus: usize,
    /// `std::thread::available_parallelism`: what this process may use (cgroups, affinity).
    pub available_parallelism: usize,
    pub physical_cores: Option<usize>,
    /// Logical CPUs per physical core (2 with SMT / hyper-threading).
    pub threads_per_core: Option<usize>,
    /// Groups of logical CPUs that share one physical core, e.g. ["0,4", "1,5"].
    pub smt_sibling_groups: Vec<String>,
    pub numa_nodes: Option<usize>,
    pub caches: Vec<Cache>,
    /// The CPU reports a hypervisor (cpuinfo flag): this is a virtual machine.
    pub hypervisor: Option<bool>,
    /// `size_of::<crossbeam_utils::CachePadded<u8>>()` on this target: the padding the
    /// ecosystem chooses for this architecture.
    pub cache_padded_bytes: usize,
    /// 1, 5 and 15 minute load averages when the description was taken.
    pub load_average: Option<[f64; 3]>,
    pub git_revision: Option<String>,
    pub utc_time: String,
    pub build: BuildInfo,
}

/// One cache level as seen from CPU 0's topology, deduplicated across CPUs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cache {
    pub level: u8,
    /// "Data", "Instruction" or "Unified".
    pub kind: String,
    pub size_bytes: Option<u64>,
    /// sysfs `coherency_line_size`: the unit the coherence protocol moves and invalidates.
    pub line_bytes: Option<u64>,
    /// CPUs sharing the instance that CPU 0 uses, as sysfs lists them ("0-1").
    pub shared_by_cpus: String,
    /// How many separate instances of this cache the machine has.
    pub instances: usize,
}

impl Machine {
    /// Reads the description of the machine this runs on.
    pub fn describe() -> Self {
        let cpuinfo = read_text("/proc/cpuinfo");
        let cpu_field = |name: &str| cpuinfo.as_deref().and_then(|text| cpuinfo_field(text, name));
        let logical = online_cpus().unwrap_or_else(logical_cpus);
        let siblings = smt_sibling_groups(logical);
        let physical_cores = (!siblings.is_empty()).then_some(siblings.len());
        Self {
            hostname: hostname(),
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            kernel: read_text("/proc/sys/kernel/osrelease"),
            cpu_model: cpu_field("model name").or_else(|| cpu_field("Model")),
            cpu_vendor: cpu_field("vendor_id").or_else(|| cpu_field("CPU implementer")),
            logical_cpus: logical,
            available_parallelism: logical_cpus(),
            physical_cores,
            threads_per_core: physical_cores.map(|cores| logical.div_ceil(cores.max(1))),
            smt_sibling_groups: siblings,
            numa_nodes: count_dirs("/sys/devices/system/node", "node"),
            caches: caches(logical),
            hypervisor: cpu_field("flags").map(|flags| flags.split_whitespace().any(|f| f == "hypervisor")),
            cache_padded_bytes: std::mem::size_of::<CachePadded<u8>>(),
            load_average: load_average(),
            git_revision: git_revision(),
            utc_time: utc_timestamp(SystemTime::now()),
            build: BuildInfo::current(),
        }
    }

    /// The largest coherency line size of any cache, the padding a layout needs to be safe
    /// from false sharing here (when the caches tell).
    pub fn largest_line_bytes(&self) -> Option<u64> {
        self.caches.iter().filter_map(|cache| cache.line_bytes).max()
    }
}

/// The data (or unified) cache of `level` that CPU 0 uses: its size and line size in bytes,
/// when sysfs tells.
pub fn data_cache(level: u8) -> Option<(Option<u64>, Option<u64>)> {
    caches(1)
        .into_iter()
        .find(|cache| cache.level == level && cache.kind != "Instruction")
        .map(|cache| (cache.size_bytes, cache.line_bytes))
}

/// Load averages from `/proc/loadavg` (1, 5, 15 minutes).
pub fn load_average() -> Option<[f64; 3]> {
    let text = read_text("/proc/loadavg")?;
    let mut fields = text.split_whitespace().map(|field| field.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

fn read_text(path: impl AsRef<Path>) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

fn cpuinfo_field(cpuinfo: &str, name: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

fn hostname() -> String {
    read_text("/proc/sys/kernel/hostname")
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_else(|| "unknown-host".into())
}

/// Number of CPUs in sysfs's `online` list ("0-3,8-11").
pub(crate) fn online_cpus() -> Option<usize> {
    parse_cpu_list(&read_text("/sys/devices/system/cpu/online")?).map(|cpus| cpus.len())
}

/// Parses a sysfs CPU list such as "0-3,8,10-11"; `None` for anything
/// [`crate::limits::cpus::cpu_ids`] refuses (ids above 4095 among them, refused before any
/// range is expanded).
pub fn parse_cpu_list(list: &str) -> Option<Vec<usize>> {
    crate::limits::cpus::cpu_ids(list).ok()
}

pub(crate) fn smt_sibling_groups(logical: usize) -> Vec<String> {
    let mut groups: Vec<String> = (0..logical)
        .filter_map(|cpu| read_text(format!("/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list")))
        .collect();
    groups.sort();
    groups.dedup();
    groups
}

fn count_dirs(parent: &str, prefix: &str) -> Option<usize> {
    let entries = fs::read_dir(parent).ok()?;
    let count = entries
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix(prefix).is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        })
        .count();
    (count > 0).then_some(count)
}

fn caches(logical: usize) -> Vec<Cache> {
    let mut found: Vec<Cache> = Vec::new();
    for cpu in 0..logical {
        let base = format!("/sys/devices/system/cpu/cpu{cpu}/cache");
        let Ok(entries) = fs::read_dir(&base) else { continue };
        let mut indexes: Vec<_> = entries.filter_map(Result::ok).map(|entry| entry.path()).collect();
        indexes.sort();
        for index in indexes.iter().filter(|path| path.is_dir()) {
            let field = |name: &str| read_text(index.join(name));
            let (Some(level), Some(kind)) = (field("level").and_then(|l| l.parse().ok()), field("type")) else {
                continue;
            };
            let shared = field("shared_cpu_list").unwrap_or_else(|| "unknown".into());
            let same_kind = |cache: &&mut Cache| cache.level == level && cache.kind == kind;
            if let Some(existing) = found.iter_mut().find(same_kind) {
                // CPU 0's instance was recorded first; count the others once each.
                let first_cpu = parse_cpu_list(&shared).and_then(|cpus| cpus.first().copied());
                if first_cpu == Some(cpu) {
                    existing.instances += 1;
                }
                continue;
            }
            found.push(Cache {
                level,
                kind,
                size_bytes: field("size").and_then(|size| parse_size(&size)),
                line_bytes: field("coherency_line_size").and_then(|line| line.parse().ok()),
                shared_by_cpus: shared,
                instances: 1,
            });
        }
    }
    found
}

/// Parses sysfs sizes such as "48K" or "32768K" or "1M".
fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, multiplier) = match text.chars().last()? {
        'K' => (&text[..text.len() - 1], 1024),
        'M' => (&text[..text.len() - 1], 1024 * 1024),
        'G' => (&text[..text.len() - 1], 1024 * 1024 * 1024),
        _ => (text, 1),
    };
    digits.parse::<u64>().ok().map(|value| value * multiplier)
}

/// The current git revision (short hash, "-dirty" when the tree has changes), or `None`
/// outside a repository or without git.
pub fn git_revision() -> Option<String> {
    let run = |args: &[&str]| {
        let output = Command::new("git").args(args).output().ok()?;
        output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let hash = run(&["rev-parse", "--short=12", "HEAD"])?;
    let dirty = run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|status| !status.is_empty());
    Some(if dirty { format!("{hash}-dirty") } else { hash })
}

/// ISO 8601 UTC time with seconds, e.g. "2026-11-29T21:30:05Z".
pub fn utc_timestamp(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// Days since 1970-01-01 to (year, month, day), Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// How many logical CPUs this process may run on.
pub fn logical_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |count| count.get())
}

/// The ids of the logical CPUs this process may be pinned to (its affinity mask), ascending.
pub fn available_cpu_ids() -> Vec<usize> {
    let mut ids: Vec<usize> = core_affinity::get_core_ids().unwrap_or_default().into_iter().map(|cpu| cpu.id).collect();
    ids.sort_unstable();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn cpu_lists_parse() {
        assert_eq!(parse_cpu_list("0-3,8,10-11"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_cpu_list("0"), Some(vec![0]));
        assert_eq!(parse_cpu_list("x"), None);
    }

    #[test]
    fn cache_sizes_parse() {
        assert_eq!(parse_size("48K"), Some(48 * 1024));
        assert_eq!(parse_size("2M"), Some(2 * 1024 * 1024));
        assert_eq!(parse_size("64"), Some(64));
        assert_eq!(parse_size("lots"), None);
    }

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let leap_day = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661);
        assert_eq!(utc_timestamp(leap_day), "2000-02-29T01:01:01Z");
    }

    #[test]
    fn description_never_fails_and_counts_cpus() {
        let machine = Machine::describe();
        assert!(machine.logical_cpus >= 1);
        assert!(machine.available_parallelism >= 1);
        assert!(machine.cache_padded_bytes >= 32);
        assert!(!machine.hostname.is_empty());
        assert!(machine.utc_time.ends_with('Z'));
    }
}
