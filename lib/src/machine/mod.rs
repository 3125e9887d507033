//! What this machine is: CPUs, caches and their line sizes, NUMA, virtualisation, the
//! build. The OS's facts come through [`crate::platform`]; a fact that cannot be read is
//! `None` (shown as "unknown"), never a crash, so the same code runs on any OS.

pub mod clocks;
pub mod conditions;
pub mod disturbance;

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use crate::build_info::BuildInfo;
pub use crate::platform::Cache;
use crate::platform::{self, CpuFacts};

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
    /// Logical CPUs of the fast kind (Apple's and Intel's P cores), where the OS tells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance_cpus: Option<usize>,
    /// Logical CPUs of the frugal kind (E cores); 0 where every core is alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub efficiency_cpus: Option<usize>,
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

impl Machine {
    /// Reads the description of the machine this runs on.
    pub fn describe() -> Self {
        let facts: CpuFacts = platform::cpu_facts();
        let logical = facts.online_cpus.unwrap_or_else(logical_cpus);
        let grouped = (!facts.smt_sibling_groups.is_empty()).then_some(facts.smt_sibling_groups.len());
        let physical_cores = grouped.or(facts.physical_cores);
        Self {
            hostname: platform::hostname().unwrap_or_else(|_| "unknown-host".into()),
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            kernel: facts.kernel,
            cpu_model: facts.model,
            cpu_vendor: facts.vendor,
            logical_cpus: logical,
            available_parallelism: logical_cpus(),
            physical_cores,
            threads_per_core: physical_cores.map(|cores| logical.div_ceil(cores.max(1))),
            smt_sibling_groups: facts.smt_sibling_groups,
            performance_cpus: facts.performance_cpus,
            efficiency_cpus: facts.efficiency_cpus,
            numa_nodes: facts.numa_nodes,
            caches: facts.caches,
            hypervisor: facts.hypervisor,
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
/// when the OS tells.
pub fn data_cache(level: u8) -> Option<(Option<u64>, Option<u64>)> {
    platform::cpu_facts()
        .caches
        .into_iter()
        .find(|cache| cache.level == level && cache.kind != "Instruction")
        .map(|cache| (cache.size_bytes, cache.line_bytes))
}

/// Load averages (1, 5, 15 minutes).
pub fn load_average() -> Option<[f64; 3]> {
    platform::load_average().ok()
}

/// Parses a sysfs CPU list such as "0-3,8,10-11"; `None` for anything
/// [`crate::limits::cpus::cpu_ids`] refuses (ids above 4095 among them, refused before any
/// range is expanded).
pub fn parse_cpu_list(list: &str) -> Option<Vec<usize>> {
    crate::limits::cpus::cpu_ids(list).ok()
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
    platform::available_cpu_ids()
}

/// Why no CPU can be named here, where the OS names none this process may be pinned to
/// (macOS, the portable fallback); `None` where it names them.
pub fn cpu_ids_unnamed() -> Option<&'static str> {
    if !available_cpu_ids().is_empty() {
        return None;
    }
    Some(platform::pinning_unavailable().map_or("the OS named no CPU this process may run on", |unknown| unknown.0))
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
