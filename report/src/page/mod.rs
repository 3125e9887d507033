//! The standalone HTML page: view models of already-formatted strings, filled into
//! templates compiled into the binary. Templates hold no logic beyond `if`/`for`.

mod counters;
mod environment;
mod gc;
mod machine;
mod pool;
mod reference;
mod sharing;
mod stride;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::perf::CounterReading;
use contention::stats::Summary;
use minijinja::{context, AutoEscape, Environment, UndefinedBehavior};
use serde::Serialize;

use crate::load::{load_run, RunData};
use crate::run_dir::write_atomic;
use crate::usage::usage;

/// A run's label in charts and table headers: its hostname and when it started, to the
/// minute, so two runs of one machine stay apart.
pub fn machine_label(run: &RunData) -> String {
    let started = &run.manifest.started_utc;
    let minute = started.get(..16).unwrap_or(started).replace('T', " ");
    format!("{} ({minute} UTC)", run.manifest.machine.hostname)
}

/// What the hardware counters said for one experiment's trials, grouped by case (stride,
/// sharing case), in one sentence: the median per case, or that they were unavailable.
pub fn cache_miss_note(groups: Vec<(String, Vec<CounterReading>)>) -> String {
    let medians: Vec<String> = groups
        .into_iter()
        .filter_map(|(case, readings)| {
            let counts: Vec<f64> = readings
                .iter()
                .filter_map(|reading| match reading {
                    CounterReading::Counted(count) => Some(*count as f64),
                    CounterReading::Unavailable => None,
                })
                .collect();
            Summary::of(&counts).map(|summary| format!("{case}: {:.0}", summary.median))
        })
        .collect();
    if medians.is_empty() {
        "Cache misses per trial: unavailable here (the kernel allowed no hardware counter; see the machine section)."
            .into()
    } else {
        format!("Median cache misses per trial (perf_event_open): {}.", medians.join(", "))
    }
}

/// One machine's sentence in a section (a finding, a config line).
#[derive(Debug, Serialize)]
pub struct MachineFinding {
    pub machine: String,
    pub text: String,
}

/// An experiment's line in the page summary from (machine, sentence) pairs: the one
/// machine's sentence, or each prefixed by its machine; "Not measured." when none.
pub fn summary_line<'a>(findings: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let findings: Vec<(&str, &str)> = findings.into_iter().collect();
    match findings.as_slice() {
        [] => "Not measured.".into(),
        [(_, only)] => only.to_string(),
        many => many.iter().map(|(machine, text)| format!("{machine}: {text}")).collect::<Vec<_>>().join(" "),
    }
}

/// The config `experiment` ran with in `run`, as `key=value` pairs ("" when it did not run).
pub fn config_of(run: &RunData, experiment: &str) -> String {
    let record = run.manifest.experiments.iter().find(|e| e.name == experiment);
    record.map_or(String::new(), |e| environment::config_text(&e.config))
}

/// One line of the summary at the top of the page.
#[derive(Debug, Serialize)]
struct SummaryLine {
    experiment: String,
    anchor: &'static str,
    finding: String,
}

#[derive(Debug, Serialize)]
struct PageView {
    title: String,
    generated_utc: String,
    comparing: bool,
    /// Charts on the page, so the browser check can tell a missing one.
    chart_count: usize,
    machines: Vec<String>,
    summary: Vec<SummaryLine>,
    machine: machine::MachineSection,
    stride: stride::StrideSection,
    sharing: sharing::SharingSection,
    counters: counters::CountersSection,
    gc: gc::GcSection,
    pool: pool::PoolSection,
    environment: environment::EnvironmentSection,
}

/// Loads `runs`, renders the page and writes it to `out` (whole or not at all).
pub fn write_report(runs: &[PathBuf], out: &Path) -> Result<()> {
    check_writable(out)?;
    // A run that cannot be read is bad input: one message, exit 2.
    let runs: Vec<RunData> =
        runs.iter().map(|dir| load_run(dir).map_err(|error| usage(format!("{error:#}")))).collect::<Result<_>>()?;
    let html = render(&runs)?;
    write_atomic(out, html.as_bytes())
}

/// Fails early, as bad usage, when the page could not be written to `out`.
pub fn check_writable(out: &Path) -> Result<()> {
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let fail = |reason: &str| usage(format!("invalid out = {}: {reason}", out.display()));
    if out.is_dir() {
        return Err(fail("it is a folder; give a file name such as report.html"));
    }
    if !parent.is_dir() {
        return Err(fail("its folder does not exist"));
    }
    let probe = parent.join(format!(".contention-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| fail(&format!("its folder is not writable ({e})")))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// Renders the page for one run, or several side by side.
pub fn render(runs: &[RunData]) -> Result<String> {
    let stride = stride::section(runs)?;
    let sharing = sharing::section(runs)?;
    let counters = counters::section(runs)?;
    let machine = machine::section(runs)?;
    let gc = gc::section(runs)?;
    let pool = pool::section(runs)?;
    let view = PageView {
        title: if runs.len() > 1 {
            format!("Contention Lab: {} machines compared", runs.len())
        } else {
            format!(
                "Contention Lab: {}",
                runs.first().map_or("no run".into(), |run| run.manifest.machine.hostname.clone())
            )
        },
        generated_utc: contention::machine::utc_timestamp(std::time::SystemTime::now()),
        comparing: runs.len() > 1,
        chart_count: [stride.measured, sharing.measured, counters.measured].into_iter().filter(|&m| m).count()
            + machine.chart_count
            + gc.machines.len()
            + usize::from(gc.measured)
            + 2 * usize::from(pool.measured),
        machines: runs.iter().map(machine_label).collect(),
        summary: vec![
            SummaryLine { experiment: "This machine".into(), anchor: "machine", finding: machine.summary.clone() },
            SummaryLine {
                experiment: "False sharing: stride sweep".into(),
                anchor: "stride",
                finding: stride.finding_summary.clone(),
            },
            SummaryLine {
                experiment: "False sharing: four-way control".into(),
                anchor: "sharing",
                finding: sharing.finding_summary.clone(),
            },
            SummaryLine {
                experiment: "Fixing a hot counter".into(),
                anchor: "counters",
                finding: counters.finding_summary.clone(),
            },
            SummaryLine {
                experiment: "Garbage collection: ratio against threads".into(),
                anchor: "gc",
                finding: gc.finding_summary.clone(),
            },
            SummaryLine {
                experiment: "Thread-pool sizing".into(),
                anchor: "pool",
                finding: pool.finding_summary.clone(),
            },
        ],
        machine,
        stride,
        sharing,
        counters,
        gc,
        pool,
        environment: environment::section(runs),
    };
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    for (name, source) in TEMPLATES {
        env.add_template(name, source).with_context(|| format!("template {name}"))?;
    }
    env.get_template("report.html")?.render(context! { page => view }).context("rendering the report")
}

const TEMPLATES: &[(&str, &str)] = &[
    ("report.html", include_str!("../../templates/report.html")),
    ("style.css", include_str!("../../templates/style.css")),
    ("machine.html", include_str!("../../templates/machine.html")),
    ("stride.html", include_str!("../../templates/stride.html")),
    ("sharing.html", include_str!("../../templates/sharing.html")),
    ("counters.html", include_str!("../../templates/counters.html")),
    ("gc.html", include_str!("../../templates/gc.html")),
    ("pool.html", include_str!("../../templates/pool.html")),
    ("environment.html", include_str!("../../templates/environment.html")),
];

/// "1234.5" -> "1 234.5"-style thin grouping is not needed; numbers are formatted with a
/// precision suited to their size so tables stay readable.
pub fn format_number(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".into();
    }
    let magnitude = value.abs();
    if magnitude >= 100.0 {
        format!("{value:.0}")
    } else if magnitude >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_miss_note_gives_medians_or_says_unavailable() {
        let counted = vec![
            (
                "8 B".to_string(),
                vec![CounterReading::Counted(100), CounterReading::Counted(300), CounterReading::Counted(150)],
            ),
            ("64 B".to_string(), vec![CounterReading::Unavailable, CounterReading::Counted(20)]),
        ];
        assert_eq!(cache_miss_note(counted), "Median cache misses per trial (perf_event_open): 8 B: 150, 64 B: 20.");
        let unavailable = vec![("8 B".to_string(), vec![CounterReading::Unavailable])];
        assert!(cache_miss_note(unavailable).starts_with("Cache misses per trial: unavailable here"));
    }
}
