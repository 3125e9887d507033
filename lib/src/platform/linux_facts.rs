//! Linux's machine facts, read from procfs and sysfs: the CPU model and vendor from
//! `/proc/cpuinfo`, online CPUs, SMT siblings, caches and their coherency line sizes from
//! `/sys/devices/system/cpu`, NUMA nodes from `/sys/devices/system/node`.

use std::fs;
use std::path::Path;

use super::{Cache, CoreKinds, CpuFacts, Known, Unknown};

pub fn cpu_facts() -> CpuFacts {
    let cpuinfo = read_text("/proc/cpuinfo");
    let cpu_field = |name: &str| cpuinfo.as_deref().and_then(|text| cpuinfo_field(text, name));
    let online = read_text("/sys/devices/system/cpu/online").and_then(|list| count_cpu_list(&list));
    let logical = online.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |count| count.get()));
    CpuFacts {
        model: cpu_field("model name").or_else(|| cpu_field("Model")),
        vendor: cpu_field("vendor_id").or_else(|| cpu_field("CPU implementer")),
        kernel: read_text("/proc/sys/kernel/osrelease"),
        online_cpus: online,
        smt_sibling_groups: smt_sibling_groups(logical),
        physical_cores: None,
        performance_cpus: None,
        efficiency_cpus: None,
        numa_nodes: count_dirs("/sys/devices/system/node", "node"),
        caches: caches(logical),
        hypervisor: cpu_field("flags").map(|flags| flags.split_whitespace().any(|flag| flag == "hypervisor")),
    }
}

/// Intel's hybrid CPUs: the kernel's perf PMUs `cpu_core` (P cores) and `cpu_atom` (E cores)
/// each list their CPUs.
pub fn core_kinds() -> Known<CoreKinds> {
    let list = |kind: &str| read_text(format!("/sys/devices/{kind}/cpus")).and_then(|list| expand_cpu_list(&list));
    match (list("cpu_core"), list("cpu_atom")) {
        (Some(performance), Some(efficiency)) => Ok(CoreKinds { performance, efficiency }),
        _ => Err(Unknown("every core is alike here (no hybrid cpu_core and cpu_atom lists in /sys/devices)")),
    }
}

/// The CPUs of a sysfs list such as "0-3,8".
fn expand_cpu_list(list: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in list.split(',') {
        let (first, last) = part.trim().split_once('-').unwrap_or((part.trim(), part.trim()));
        let (first, last) = (first.parse::<usize>().ok()?, last.parse::<usize>().ok()?);
        cpus.extend(first..=last.min(first.saturating_add(4095)));
    }
    Some(cpus)
}

fn read_text(path: impl AsRef<Path>) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// The value of `/proc/cpuinfo`'s first line named `name`.
pub(super) fn cpuinfo_field(cpuinfo: &str, name: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

/// How many CPUs a sysfs list such as "0-3,8-11" names.
fn count_cpu_list(list: &str) -> Option<usize> {
    list.split(',').try_fold(0usize, |count, part| {
        let (first, last) = part.trim().split_once('-').unwrap_or((part.trim(), part.trim()));
        let (first, last) = (first.parse::<usize>().ok()?, last.parse::<usize>().ok()?);
        (last >= first).then(|| count + (last - first + 1))
    })
}

/// The first CPU of a sysfs list ("2-3" -> 2).
fn first_cpu(list: &str) -> Option<usize> {
    list.split([',', '-']).next()?.trim().parse().ok()
}

fn smt_sibling_groups(logical: usize) -> Vec<String> {
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
                if first_cpu(&shared) == Some(cpu) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_sizes_parse() {
        assert_eq!(parse_size("48K"), Some(48 * 1024));
        assert_eq!(parse_size("2M"), Some(2 * 1024 * 1024));
        assert_eq!(parse_size("64"), Some(64));
        assert_eq!(parse_size("lots"), None);
    }

    #[test]
    fn cpu_lists_count_and_start() {
        assert_eq!(count_cpu_list("0-3,8,10-11"), Some(7));
        assert_eq!(count_cpu_list("3-1"), None);
        assert_eq!(expand_cpu_list("0-2,8"), Some(vec![0, 1, 2, 8]));
        assert_eq!(expand_cpu_list("x"), None);
        assert_eq!(first_cpu("2-3,6"), Some(2));
        assert_eq!(first_cpu("x"), None);
    }
}
