//! A manifest is input like any other: before any file it names is opened, every record is
//! checked (a known experiment, its own CSV in the run folder, listed once, values in range),
//! every string holds only text that can be shown (its label and host name as `--label`
//! would accept them), the machine's counts are a machine's, and a CSV over
//! [`super::MAX_CSV_BYTES`] is refused rather than read.

use std::path::Path;

use super::{check_label, check_text, Manifest, RunsError, State};
use crate::checked::number_text;
use crate::limits::cpus::cpu_ids;
use crate::limits::saved::MAX_TEXT_BYTES;
use crate::limits::{MAX_BUDGET, MAX_CPUS, MAX_ROWS};
use crate::registry::Experiment;

/// The longest host name read (Linux allows 64 bytes; other systems up to 255).
const MAX_HOSTNAME_CHARS: usize = 255;
/// The longest field name a manifest's object may have.
const MAX_KEY_CHARS: usize = 64;
/// The most cache levels and kinds a machine description lists.
const MAX_CACHES: usize = 64;

/// The longest an experiment (or its runtime beside it) may have run, in seconds: twice the
/// longest budget, which a last trial may overrun.
const MAX_ELAPSED_S: f64 = 2.0 * MAX_BUDGET.as_secs() as f64;

/// Checks every experiment record of the manifest at `path`.
pub(super) fn check_manifest(path: &Path, manifest: &Manifest) -> Result<(), RunsError> {
    let invalid = |index: usize, field: &str, message: String| RunsError::Invalid {
        path: super::shown(path),
        field: format!("experiments[{index}].{field}"),
        message,
    };
    check_machine(path, manifest)?;
    for (index, record) in manifest.experiments.iter().enumerate() {
        let Some(experiment) = Experiment::from_name(&record.name) else {
            let message = format!("unknown experiment '{}' (known: {})", record.name, Experiment::names().join(", "));
            return Err(invalid(index, "name", message));
        };
        if manifest.experiments[..index].iter().any(|earlier| earlier.name == record.name) {
            return Err(invalid(index, "name", format!("'{}' is listed twice", record.name)));
        }
        let own_file = format!("{}.csv", record.name);
        if record.file != own_file {
            let message = format!("'{}': the experiment's file is {own_file}, in the run folder", record.file);
            return Err(invalid(index, "file", message));
        }
        // Some experiments may find nothing to measure (c2c on one CPU: no pair); an
        // experiment not complete has no rows recorded.
        let fewest = usize::from(!experiment.may_have_no_rows() && record.state == State::Complete);
        if record.rows < fewest || record.rows > MAX_ROWS {
            return Err(invalid(index, "rows", format!("{}: {fewest} to {MAX_ROWS}", record.rows)));
        }
        for (field, share) in [("steal_share", record.steal_share), ("background_share", record.background_share)] {
            if let Some(share) = share.filter(|share| !(0.0..=1.0).contains(share)) {
                return Err(invalid(index, field, format!("{}: a share from 0 to 1", number_text(share))));
            }
        }
        let beside = record.runtime_elapsed().map(|(_, seconds)| seconds);
        for (field, seconds) in [("elapsed_s", record.elapsed_s), ("config's runtime elapsed_s", beside)] {
            if let Some(seconds) = seconds.filter(|seconds| !(0.0..=MAX_ELAPSED_S).contains(seconds)) {
                let message = format!("{}: seconds from 0 to {MAX_ELAPSED_S}", number_text(seconds));
                return Err(invalid(index, field, message));
            }
        }
    }
    Ok(())
}

/// The label and host name as `--label` would take them (the host name may be longer), the
/// machine's counts within [`MAX_CPUS`], its CPU lists readable.
fn check_machine(path: &Path, manifest: &Manifest) -> Result<(), RunsError> {
    let invalid = |field: &str, message: String| RunsError::Invalid {
        path: super::shown(path),
        field: field.to_string(),
        message,
    };
    if !manifest.label.is_empty() {
        check_label(&manifest.label)
            .map_err(|error| invalid("label", format!("{}: {}", error.value, error.allowed)))?;
    }
    let machine = &manifest.machine;
    let hostname = &machine.hostname;
    if let Err(why) = check_text(hostname, MAX_HOSTNAME_CHARS, false) {
        return Err(invalid("machine.hostname", format!("{why}: a host name without control characters")));
    }
    let counts = [
        ("machine.logical_cpus", Some(machine.logical_cpus)),
        ("machine.available_parallelism", Some(machine.available_parallelism)),
        ("machine.physical_cores", machine.physical_cores),
        ("machine.threads_per_core", machine.threads_per_core),
        ("machine.numa_nodes", machine.numa_nodes),
        ("machine.cache_padded_bytes", Some(machine.cache_padded_bytes)),
    ];
    for (field, count) in counts {
        if let Some(count) = count.filter(|&count| count > MAX_CPUS) {
            return Err(invalid(field, format!("{count}: at most {MAX_CPUS}")));
        }
    }
    let lists = machine.smt_sibling_groups.iter().chain(machine.caches.iter().map(|cache| &cache.shared_by_cpus));
    if machine.smt_sibling_groups.len() > MAX_CPUS || machine.caches.len() > MAX_CACHES {
        let message = format!("at most {MAX_CPUS} sibling groups and {MAX_CACHES} caches");
        return Err(invalid("machine", message));
    }
    for list in lists {
        cpu_ids(list).map_err(|why| invalid("machine", format!("CPU list '{}': {why}", super::visible(list))))?;
    }
    Ok(())
}

/// Every string of the manifest `value` (as read, before its types are checked) within
/// [`MAX_TEXT_BYTES`], without hidden characters but line breaks and tabs; the first that
/// is not is named by its place in the manifest.
pub(super) fn check_strings(path: &Path, value: &serde_json::Value) -> Result<(), RunsError> {
    let mut places = vec![(String::new(), value)];
    while let Some((place, value)) = places.pop() {
        match value {
            serde_json::Value::String(text) => {
                let too_long = (text.len() > MAX_TEXT_BYTES).then(|| format!("longer than {MAX_TEXT_BYTES} bytes"));
                if let Some(why) = too_long.or_else(|| check_text(text, usize::MAX, true).err()) {
                    let field = if place.is_empty() { "(top)".to_string() } else { place };
                    let value = super::visible(&text.chars().take(80).collect::<String>());
                    let message =
                        format!("\"{value}\" {why}: text without control characters or bidirectional overrides");
                    return Err(RunsError::Invalid { path: super::shown(path), field, message });
                }
            }
            serde_json::Value::Array(items) => {
                places.extend(items.iter().enumerate().map(|(index, item)| (format!("{place}[{index}]"), item)));
            }
            serde_json::Value::Object(fields) => {
                for (key, item) in fields {
                    let field = if place.is_empty() { key.clone() } else { format!("{place}.{key}") };
                    if let Err(why) = check_text(key, MAX_KEY_CHARS, false) {
                        let field = super::visible(&field);
                        return Err(RunsError::Invalid { path: super::shown(path), field, message: why });
                    }
                    places.push((field, item));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
