//! The environment section: every fact of each machine's description and build, one
//! column per machine, and how to reproduce each run.

use contention::machine::Cache;
use contention::notebook::machine::human_bytes;
use contention::Machine;
use serde::Serialize;

use super::machine_label;
use crate::experiments::Profile;
use crate::load::RunData;

#[derive(Debug, Serialize)]
pub struct EnvironmentSection {
    pub machines: Vec<String>,
    pub facts: Vec<FactRow>,
    pub reproduce: Vec<Reproduce>,
}

#[derive(Debug, Serialize)]
pub struct FactRow {
    pub label: String,
    pub values: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct Reproduce {
    pub machine: String,
    pub command: String,
    pub profile: String,
    pub folder: String,
    pub configs: Vec<String>,
}

const UNKNOWN: &str = "unknown";

fn known<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or(UNKNOWN.into(), ToString::to_string)
}

fn machine_facts(machine: &Machine) -> Vec<(String, String)> {
    let build = &machine.build;
    let mut facts = vec![
        ("host".into(), machine.hostname.clone()),
        ("CPU model".into(), known(&machine.cpu_model)),
        ("CPU vendor".into(), known(&machine.cpu_vendor)),
        ("logical CPUs".into(), machine.logical_cpus.to_string()),
        ("available parallelism".into(), machine.available_parallelism.to_string()),
        ("physical cores".into(), known(&machine.physical_cores)),
        ("threads per core (SMT)".into(), known(&machine.threads_per_core)),
        (
            "SMT sibling groups".into(),
            if machine.smt_sibling_groups.is_empty() { UNKNOWN.into() } else { machine.smt_sibling_groups.join(" | ") },
        ),
        ("NUMA nodes".into(), known(&machine.numa_nodes)),
        (
            "hypervisor".into(),
            machine.hypervisor.map_or(UNKNOWN.into(), |v| if v { "yes (virtual machine)".into() } else { "no".into() }),
        ),
        ("OS / kernel".into(), format!("{} {} ({})", machine.os, known(&machine.kernel), machine.arch)),
        (
            "load average at start".into(),
            machine
                .load_average
                .map_or(UNKNOWN.into(), |[one, five, fifteen]| format!("{one:.2} {five:.2} {fifteen:.2}")),
        ),
        ("CachePadded<u8> size".into(), format!("{} bytes", machine.cache_padded_bytes)),
    ];
    facts.extend(machine.caches.iter().map(cache_fact));
    facts.extend([
        ("rustc".into(), build.rustc_version.clone()),
        ("target".into(), build.target.clone()),
        (
            "build".into(),
            format!(
                "profile {}, opt-level {}, debug assertions {}",
                build.profile,
                build.opt_level,
                if build.debug_assertions { "on" } else { "off" }
            ),
        ),
        ("target CPU features".into(), build.target_features.replace(',', " ")),
        ("contention crate".into(), build.crate_version.clone()),
        ("git revision".into(), known(&machine.git_revision)),
        ("measured at (UTC)".into(), machine.utc_time.clone()),
    ]);
    facts
}

fn cache_fact(cache: &Cache) -> (String, String) {
    let kind = match cache.kind.as_str() {
        "Data" => "d",
        "Instruction" => "i",
        _ => "",
    };
    let size = cache.size_bytes.map_or(UNKNOWN.into(), human_bytes);
    let line = cache.line_bytes.map_or(UNKNOWN.into(), |line| format!("{line} B"));
    (
        format!("L{}{kind} cache", cache.level),
        format!(
            "{size}, line {line}, CPU 0's shared by CPUs {}, {} instance(s)",
            cache.shared_by_cpus, cache.instances
        ),
    )
}

/// What each profile means, stated on the page beside the run that used it.
pub fn profile_text(profile: Profile) -> &'static str {
    match profile {
        Profile::Quick => "quick: every experiment at small sizes (about 90 s on 2 CPUs); medians are rougher",
        Profile::Default => "default: the articles' sizes where this machine allows (up to 10 minutes on 2 CPUs)",
        Profile::Custom => "custom: sizes set on the command line (below)",
    }
}

pub fn section(runs: &[RunData]) -> EnvironmentSection {
    let per_machine: Vec<Vec<(String, String)>> = runs.iter().map(|run| machine_facts(&run.manifest.machine)).collect();
    // Labels in first-seen order, so machines with other cache levels still line up.
    let mut labels: Vec<String> = Vec::new();
    for facts in &per_machine {
        for (label, _) in facts {
            if !labels.contains(label) {
                labels.push(label.clone());
            }
        }
    }
    let facts = labels
        .into_iter()
        .map(|label| FactRow {
            values: per_machine
                .iter()
                .map(|facts| facts.iter().find(|(l, _)| *l == label).map_or("-".into(), |(_, v)| v.clone()))
                .collect(),
            label,
        })
        .collect();
    EnvironmentSection {
        machines: runs.iter().map(machine_label).collect(),
        facts,
        reproduce: runs
            .iter()
            .map(|run| Reproduce {
                machine: machine_label(run),
                command: run.manifest.command.clone(),
                profile: profile_text(run.manifest.profile).into(),
                folder: run.dir.display().to_string(),
                configs: run
                    .manifest
                    .experiments
                    .iter()
                    .map(|e| format!("{}: {}", e.name, config_text(&e.config)))
                    .collect(),
            })
            .collect(),
    }
}

/// A config as `key=value` pairs, durations (serde's `{secs, nanos}`) in seconds.
pub fn config_text(config: &serde_json::Value) -> String {
    let Some(fields) = config.as_object() else { return config.to_string() };
    fields.iter().map(|(key, value)| format!("{key}={}", config_value(value))).collect::<Vec<_>>().join(" ")
}

fn config_value(value: &serde_json::Value) -> String {
    let seconds = value.get("secs").and_then(serde_json::Value::as_u64);
    let nanos = value.get("nanos").and_then(serde_json::Value::as_u64);
    match (value, seconds, nanos) {
        (serde_json::Value::Object(fields), Some(secs), Some(nanos)) if fields.len() == 2 => {
            format!("{}s", secs as f64 + nanos as f64 / 1e9)
        }
        (serde_json::Value::Array(items), _, _) => items.iter().map(config_value).collect::<Vec<_>>().join(","),
        (serde_json::Value::String(text), _, _) => text.clone(),
        _ => value.to_string(),
    }
}
