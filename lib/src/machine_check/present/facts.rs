//! The machine's description as facts in words: one list for the page's environment
//! section, the notebooks and the terminal.

use crate::format;
use crate::machine::{Cache, Machine};
use crate::view::{Cell, Column, Table};

const UNKNOWN: &str = "unknown";

fn known<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or(UNKNOWN.into(), ToString::to_string)
}

/// Every fact of the description and build as (label, value), in reading order.
pub fn facts(machine: &Machine) -> Vec<(String, String)> {
    let build = &machine.build;
    let on_off = |flag: bool| if flag { "on" } else { "off" };
    let mut facts = vec![
        ("host".to_string(), machine.hostname.clone()),
        ("CPU model".into(), known(&machine.cpu_model)),
        ("CPU vendor".into(), known(&machine.cpu_vendor)),
        ("logical CPUs (online)".into(), machine.logical_cpus.to_string()),
        ("CPUs this process may use".into(), machine.available_parallelism.to_string()),
        ("physical cores".into(), known(&machine.physical_cores)),
        ("threads per core (SMT)".into(), known(&machine.threads_per_core)),
    ];
    // Only where the OS tells (macOS, Windows): a run from Linux keeps its rows as they were.
    if let (Some(fast), Some(frugal)) = (machine.performance_cpus, machine.efficiency_cpus) {
        facts.push(("performance / efficiency CPUs".into(), format!("{fast} / {frugal}")));
    }
    facts.extend([
        (
            "SMT sibling groups".into(),
            if machine.smt_sibling_groups.is_empty() { UNKNOWN.into() } else { machine.smt_sibling_groups.join(" | ") },
        ),
        ("NUMA nodes".into(), known(&machine.numa_nodes)),
        (
            "virtual machine (hypervisor flag)".into(),
            machine.hypervisor.map_or(UNKNOWN.into(), |vm| if vm { "yes".into() } else { "no".into() }),
        ),
        ("OS / kernel".into(), format!("{} {} ({})", machine.os, known(&machine.kernel), machine.arch)),
        (
            "load average at start (1, 5, 15 min)".into(),
            machine
                .load_average
                .map_or(UNKNOWN.into(), |[one, five, fifteen]| format!("{one:.2} {five:.2} {fifteen:.2}")),
        ),
        ("size_of::<CachePadded<u8>>()".into(), format!("{} bytes", machine.cache_padded_bytes)),
    ]);
    facts.extend(machine.caches.iter().map(cache_fact));
    facts.extend([
        ("rustc".into(), build.rustc_version.clone()),
        ("target".into(), build.target.clone()),
        (
            "build".into(),
            format!(
                "profile {}, opt-level {}, debug assertions {}{}",
                build.profile,
                build.opt_level,
                on_off(build.debug_assertions),
                if build.is_optimised() { " (fit for timing)" } else { " (NOT fit for timing)" }
            ),
        ),
        ("target CPU features".into(), build.target_features.replace(',', " ")),
        ("contention crate".into(), build.crate_version.clone()),
        ("git revision".into(), known(&machine.git_revision)),
        ("described at (UTC)".into(), machine.utc_time.clone()),
    ]);
    facts
}

fn cache_fact(cache: &Cache) -> (String, String) {
    let kind = match cache.kind.as_str() {
        "Data" => "d",
        "Instruction" => "i",
        _ => "",
    };
    let size = cache.size_bytes.map_or(UNKNOWN.into(), format::bytes);
    let line = cache.line_bytes.map_or(UNKNOWN.into(), |line| format!("{line}-byte lines"));
    (
        format!("L{}{kind} cache", cache.level),
        format!("{size}, {line}, CPU 0's shared by CPUs {} ({} in all)", cache.shared_by_cpus, cache.instances),
    )
}

/// The facts of one or several machines, one column each (labelled by `labels`).
pub fn facts_table(machines: &[(&str, &Machine)]) -> Table {
    let per_machine: Vec<Vec<(String, String)>> = machines.iter().map(|(_, machine)| facts(machine)).collect();
    let mut labels: Vec<String> = Vec::new();
    for (label, _) in per_machine.iter().flatten() {
        if !labels.contains(label) {
            labels.push(label.clone());
        }
    }
    let rows = labels
        .into_iter()
        .map(|label| {
            let mut row = vec![Cell::from(label.clone())];
            row.extend(per_machine.iter().map(|facts| {
                facts
                    .iter()
                    .find(|(l, _)| *l == label)
                    .map_or_else(Cell::missing, |(_, value)| Cell::from(value.clone()))
            }));
            row
        })
        .collect();
    let mut columns = vec![Column::text("fact")];
    columns.extend(machines.iter().map(|(label, _)| Column::text(*label)));
    Table { id: "facts", caption: "The machine as it described itself".into(), columns, rows }
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
    sentences.push(match machine.largest_line_bytes() {
        Some(line) => format!(
            "The caches report {line}-byte coherency lines, so counters {line} or more bytes apart should not share one; \
             crossbeam's CachePadded pads to {} bytes on this architecture.",
            machine.cache_padded_bytes
        ),
        None => format!(
            "The caches do not report their line size here; crossbeam's CachePadded pads to {} bytes on this architecture.",
            machine.cache_padded_bytes
        ),
    });
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
        let table = facts_table(&[("here", &machine)]);
        let labels: Vec<&str> = table.rows.iter().map(|row| row[0].text.as_str()).collect();
        for expected in ["host", "logical CPUs (online)", "build", "git revision"] {
            assert!(labels.contains(&expected), "missing {expected}");
        }
        assert!(table.rows.iter().all(|row| !row[1].text.is_empty()));
    }

    #[test]
    fn performance_and_efficiency_cpus_show_only_where_the_os_told() {
        let mut machine = Machine::describe();
        let has_row = |machine: &Machine| facts(machine).iter().any(|(label, _)| label.starts_with("performance"));
        (machine.performance_cpus, machine.efficiency_cpus) = (None, None);
        assert!(!has_row(&machine));
        (machine.performance_cpus, machine.efficiency_cpus) = (Some(8), Some(4));
        let shown = facts(&machine).into_iter().find(|(label, _)| label.starts_with("performance"));
        assert_eq!(shown.map(|(_, value)| value), Some("8 / 4".to_string()));
        let mut saved = serde_json::to_value(&machine).unwrap();
        saved.as_object_mut().unwrap().retain(|key, _| !key.ends_with("_cpus") || key == "logical_cpus");
        let read: Machine = serde_json::from_value(saved).unwrap();
        assert_eq!((read.performance_cpus, read.efficiency_cpus), (None, None), "a run saved before reads as unknown");
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
}
