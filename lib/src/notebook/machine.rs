//! The machine description as a notebook table: the facts that decide whether an effect
//! can show here (CPUs, SMT, cache lines, virtualisation, load) and how the lib was built.

use super::{table, Rich};
use crate::machine::{Cache, Machine};

const UNKNOWN: &str = "unknown";

fn known<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or(UNKNOWN.into(), ToString::to_string)
}

/// Every fact of the description as (label, value) pairs, in reading order.
pub fn facts(machine: &Machine) -> Vec<(String, String)> {
    let build = &machine.build;
    let on_off = |flag: bool| if flag { "on" } else { "off" };
    let mut facts = vec![
        ("host".to_string(), machine.hostname.clone()),
        ("CPU model".into(), known(&machine.cpu_model)),
        ("logical CPUs (online)".into(), machine.logical_cpus.to_string()),
        ("CPUs this process may use".into(), machine.available_parallelism.to_string()),
        ("physical cores".into(), known(&machine.physical_cores)),
        ("threads per core (SMT)".into(), known(&machine.threads_per_core)),
        ("SMT sibling groups".into(), sibling_groups(machine)),
        ("NUMA nodes".into(), known(&machine.numa_nodes)),
        ("virtual machine (hypervisor flag)".into(), machine.hypervisor.map_or(UNKNOWN.into(), |v| yes_no(v).into())),
        ("OS / kernel".into(), format!("{} {} ({})", machine.os, known(&machine.kernel), machine.arch)),
        ("load average (1, 5, 15 min)".into(), load(machine.load_average)),
        ("size_of::<CachePadded<u8>>()".into(), format!("{} bytes", machine.cache_padded_bytes)),
    ];
    facts.extend(machine.caches.iter().map(cache_fact));
    facts.extend([
        ("rustc".into(), build.rustc_version.clone()),
        (
            "lib build".into(),
            format!(
                "opt-level {}, debug assertions {}{}",
                build.opt_level,
                on_off(build.debug_assertions),
                if build.is_optimised() { " (fit for timing)" } else { " (NOT fit for timing)" }
            ),
        ),
        ("git revision".into(), known(&machine.git_revision)),
        ("described at (UTC)".into(), machine.utc_time.clone()),
    ]);
    facts
}

fn yes_no(flag: bool) -> &'static str {
    if flag {
        "yes"
    } else {
        "no"
    }
}

fn sibling_groups(machine: &Machine) -> String {
    if machine.smt_sibling_groups.is_empty() {
        UNKNOWN.into()
    } else {
        machine.smt_sibling_groups.join(" | ")
    }
}

fn load(average: Option<[f64; 3]>) -> String {
    average.map_or(UNKNOWN.into(), |[one, five, fifteen]| format!("{one:.2} {five:.2} {fifteen:.2}"))
}

fn cache_fact(cache: &Cache) -> (String, String) {
    let kind = match cache.kind.as_str() {
        "Data" => "d",
        "Instruction" => "i",
        _ => "",
    };
    let size = cache.size_bytes.map_or(UNKNOWN.into(), human_bytes);
    let line = cache.line_bytes.map_or(UNKNOWN.into(), |line| format!("{line}-byte lines"));
    (
        format!("L{}{kind} cache", cache.level),
        format!("{size}, {line}, shared by CPUs {} ({} in all)", cache.shared_by_cpus, cache.instances),
    )
}

/// Bytes in binary units: "48 KiB", "1.5 MiB".
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The description as a two-column table.
pub fn facts_table(machine: &Machine) -> Rich {
    let rows: Vec<Vec<String>> = facts(machine).into_iter().map(|(label, value)| vec![label, value]).collect();
    table(&["fact", "this machine"], &rows)
}

/// What the description implies for the experiments, in sentences: how many threads the
/// sweeps can pin, and which padding the cache lines call for.
pub fn implications(machine: &Machine) -> Vec<String> {
    let mut sentences = Vec::new();
    let cpus = machine.available_parallelism;
    sentences.push(if cpus >= 8 {
        format!("This process may use {cpus} CPUs: the stride sweep can run the article's 8 threads, each pinned to its own CPU.")
    } else if cpus >= 2 {
        format!(
            "This process may use {cpus} CPUs: the stride sweep runs {cpus} threads, not the article's 8, \
             so expect a smaller penalty than the article's (fewer cores fight over each line)."
        )
    } else {
        "This process may use one CPU: threads take turns instead of running at once, so no cache line \
         can move between cores and false sharing cannot show here."
            .into()
    });
    if let Some(per_core) = machine.threads_per_core.filter(|&threads| threads > 1) {
        sentences.push(format!(
            "Each physical core runs {per_core} hardware threads (SMT): two threads on one core share its L1 cache, \
             so a line they both write never leaves the core and the penalty can vanish for that pair."
        ));
    }
    match machine.largest_line_bytes() {
        Some(line) => sentences.push(format!(
            "The caches report {line}-byte coherency lines, so counters {line} or more bytes apart should not share one; \
             crossbeam's CachePadded pads to {} bytes on this architecture.",
            machine.cache_padded_bytes
        )),
        None => sentences.push(format!(
            "The caches do not report their line size here; crossbeam's CachePadded pads to {} bytes on this architecture.",
            machine.cache_padded_bytes
        )),
    }
    if machine.hypervisor == Some(true) {
        sentences.push(
            "This is a virtual machine: its virtual CPUs may share physical cores with other guests, \
             so timings vary more and cross-core transfers may cost more than on bare metal."
                .into(),
        );
    }
    sentences
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_cover_cpus_caches_and_build() {
        let machine = Machine::describe();
        let facts = facts(&machine);
        let labels: Vec<&str> = facts.iter().map(|(label, _)| label.as_str()).collect();
        for expected in ["host", "logical CPUs (online)", "lib build", "git revision"] {
            assert!(labels.contains(&expected), "missing {expected}");
        }
        assert_eq!(facts.len(), 16 + machine.caches.len());
        assert!(facts.iter().all(|(_, value)| !value.is_empty()));
        let table = facts_table(&machine);
        assert_eq!(table.plain.lines().count(), facts.len() + 2);
    }

    #[test]
    fn implications_follow_the_cpu_count() {
        let mut machine = Machine::describe();
        machine.available_parallelism = 1;
        assert!(implications(&machine)[0].contains("cannot show"));
        machine.available_parallelism = 2;
        assert!(implications(&machine)[0].contains("runs 2 threads"));
        machine.available_parallelism = 16;
        assert!(implications(&machine)[0].contains("article's 8 threads"));
    }

    #[test]
    fn implications_name_smt_line_size_and_virtualisation() {
        let mut machine = Machine::describe();
        machine.threads_per_core = Some(2);
        machine.hypervisor = Some(true);
        machine.caches.retain(|_| false);
        let sentences = implications(&machine).join(" ");
        assert!(sentences.contains("2 hardware threads"));
        assert!(sentences.contains("do not report their line size"));
        assert!(sentences.contains("virtual machine"));
    }

    #[test]
    fn human_bytes_uses_binary_units() {
        assert_eq!(human_bytes(48 * 1024), "48 KiB");
        assert_eq!(human_bytes(1536 * 1024), "1.5 MiB");
        assert_eq!(human_bytes(64), "64 B");
    }
}
