//! The machine's description and verdict as a plain-text table for the terminal: two
//! columns, long values wrapped, no colour (it must read the same in a CI log).

use contention::Machine;

use super::{check_rows, Assessment};
use crate::load::RunData;
use crate::page::machine_label;

const LABEL_WIDTH: usize = 26;
const LINE_WIDTH: usize = 100;

/// Prints the table to stdout.
pub fn print(run: &RunData, assessment: &Assessment) {
    #[allow(clippy::print_stdout)] // `contention run machine` exists to print this table
    {
        print!("{}", render(run, assessment));
    }
}

/// The whole table as text.
pub fn render(run: &RunData, assessment: &Assessment) -> String {
    let mut text = format!("\nMachine: {}\n", machine_label(run));
    for (label, value) in description_rows(&run.manifest.machine) {
        text.push_str(&row(&label, &value));
    }
    text.push_str("\nFitness checks\n");
    for (label, value) in check_rows(assessment) {
        text.push_str(&row(&label, &value));
    }
    let verdict = &assessment.verdict;
    text.push_str(&format!("\nVerdict: {}\n", verdict.fitness.as_str().to_uppercase()));
    for reason in &verdict.reasons {
        text.push_str(&wrapped(&format!("- {}", reason.text), "  ", "    "));
    }
    if verdict.reasons.is_empty() {
        text.push_str("  Nothing checked stands in the way of showing contention effects.\n");
    }
    if !verdict.unchecked.is_empty() {
        text.push_str(&wrapped(&format!("Not checked: {}.", verdict.unchecked.join("; ")), "  ", "    "));
    }
    if !assessment.measured_under_load.is_empty() {
        let names = assessment.measured_under_load.join(", ");
        text.push_str(&wrapped(&format!("Measured under load: {names}."), "  ", "    "));
    }
    text
}

fn description_rows(machine: &Machine) -> Vec<(String, String)> {
    let known = |value: Option<String>| value.unwrap_or_else(|| "unknown".into());
    let caches: Vec<String> = machine
        .caches
        .iter()
        .map(|cache| {
            let kind = match cache.kind.as_str() {
                "Data" => "d",
                "Instruction" => "i",
                _ => "",
            };
            let size = cache.size_bytes.map_or("?".into(), |bytes| match bytes {
                bytes if bytes >= 1 << 20 => format!("{} MiB", bytes >> 20),
                bytes => format!("{} KiB", bytes >> 10),
            });
            let line = cache.line_bytes.map_or(String::new(), |line| format!(" ({line} B lines)"));
            format!("L{}{kind} {size}{line}", cache.level)
        })
        .collect();
    vec![
        ("CPU model".into(), known(machine.cpu_model.clone())),
        ("logical CPUs (usable)".into(), format!("{} ({})", machine.logical_cpus, machine.available_parallelism)),
        ("physical cores".into(), known(machine.physical_cores.map(|cores| cores.to_string()))),
        (
            "SMT sibling groups".into(),
            known((!machine.smt_sibling_groups.is_empty()).then(|| machine.smt_sibling_groups.join(" | "))),
        ),
        ("caches".into(), if caches.is_empty() { "unknown".into() } else { caches.join(", ") }),
        ("NUMA nodes".into(), known(machine.numa_nodes.map(|nodes| nodes.to_string()))),
        ("virtual machine".into(), known(machine.hypervisor.map(|vm| if vm { "yes".into() } else { "no".into() }))),
        ("OS / kernel".into(), format!("{} {} ({})", machine.os, known(machine.kernel.clone()), machine.arch)),
        (
            "load average at start".into(),
            known(machine.load_average.map(|[one, five, fifteen]| format!("{one:.2} {five:.2} {fifteen:.2}"))),
        ),
    ]
}

/// "  label ........ value", the value wrapped under itself.
fn row(label: &str, value: &str) -> String {
    let first = format!("  {label:<LABEL_WIDTH$}  ");
    let rest = " ".repeat(first.len());
    wrapped(value, &first, &rest)
}

/// Wraps `text` at word boundaries to [`LINE_WIDTH`], the first line after `first`, the
/// others after `rest`.
fn wrapped(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.len() + 1 + word.len() > LINE_WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_wrap_under_themselves() {
        let text = wrapped(&"word ".repeat(40), "  label  ", "         ");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|line| line.len() <= LINE_WIDTH), "{text}");
        assert!(lines[1..].iter().all(|line| line.starts_with("         word")), "{text}");
        assert_eq!(text.split_whitespace().filter(|w| *w == "word").count(), 40, "no word lost");
    }

    #[test]
    fn rows_align_values() {
        assert_eq!(row("CPU model", "AMD EPYC"), format!("  {:<LABEL_WIDTH$}  AMD EPYC\n", "CPU model"));
    }
}
