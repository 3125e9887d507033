//! The machine section, first on the page: can each machine show contention (the verdict
//! and its reasons), the checks behind it, the core-to-core latency heatmap, and what else
//! the machine was doing while each experiment ran.

use anyhow::Result;
use contention::c2c::{finding as c2c_finding, PairSummary};
use contention::chart::c2c::c2c_heatmap;
use contention::fitness::scaling;
use serde::Serialize;

use super::{format_number, machine_label};
use crate::experiments::machine::{assess, check_rows, Assessment};
use crate::load::RunData;

/// Above this many pairs the table is left out: the heatmap shows them all.
const MAX_PAIRS_IN_TABLE: usize = 28;

#[derive(Debug, Serialize)]
pub struct MachineSection {
    /// The summary line at the top of the page.
    pub summary: String,
    pub comparing: bool,
    pub machines: Vec<MachineView>,
    pub chart_count: usize,
}

#[derive(Debug, Serialize)]
pub struct MachineView {
    pub machine: String,
    /// "fit", "limited" or "unfit" (also the CSS class of the verdict box).
    pub fitness: String,
    /// The verdict and its reasons in a few words (the summary line).
    pub headline: String,
    pub reasons: Vec<String>,
    pub unchecked: String,
    pub checks: Vec<Check>,
    pub c2c_measured: bool,
    pub c2c_finding: String,
    pub c2c_chart_svg: String,
    pub pairs: Vec<PairRow>,
    pub pairs_left_out: usize,
    pub scaling_finding: String,
    pub conditions: Vec<ConditionRow>,
    pub under_load: String,
}

#[derive(Debug, Serialize)]
pub struct Check {
    pub label: String,
    pub value: String,
}

#[derive(Debug, Serialize)]
pub struct PairRow {
    pub cpus: String,
    pub median_ns: String,
    pub interval_ns: String,
    pub samples: String,
    pub noisy: bool,
}

#[derive(Debug, Serialize)]
pub struct ConditionRow {
    pub experiment: String,
    pub load_before: String,
    pub load_after: String,
    pub steal: String,
    pub background: String,
    /// "yes", "no" or "unknown" (too short to tell, or no /proc/stat).
    pub under_load: String,
}

pub fn section(runs: &[RunData]) -> Result<MachineSection> {
    let machines: Vec<MachineView> = runs.iter().map(view).collect::<Result<_>>()?;
    let summary = match machines.as_slice() {
        [] => "No run to judge.".into(),
        [only] => only.headline.clone(),
        many => many.iter().map(|view| format!("{}: {}", view.machine, view.headline)).collect::<Vec<_>>().join(" "),
    };
    Ok(MachineSection {
        summary,
        comparing: runs.len() > 1,
        chart_count: machines.iter().filter(|machine| machine.c2c_measured).count(),
        machines,
    })
}

/// The verdict in a few words, for the summary at the top of the page.
fn headline(assessment: &Assessment) -> String {
    let mut line = format!("{}.", assessment.verdict.headline());
    if !assessment.measured_under_load.is_empty() {
        line.push_str(&format!(" Measured under load: {}.", assessment.measured_under_load.join(", ")));
    }
    line
}

fn view(run: &RunData) -> Result<MachineView> {
    let assessment = assess(run);
    let label = machine_label(run);
    let pairs = assessment.c2c.clone().unwrap_or_default();
    let c2c_chart_svg =
        if pairs.is_empty() { String::new() } else { c2c_heatmap(&format!("One-way latency (ns), {label}"), &pairs)? };
    Ok(MachineView {
        fitness: assessment.verdict.fitness.as_str().into(),
        headline: headline(&assessment),
        reasons: assessment.verdict.reasons.iter().map(|reason| reason.text.clone()).collect(),
        unchecked: assessment.verdict.unchecked.join("; "),
        checks: check_rows(&assessment).into_iter().map(|(label, value)| Check { label, value }).collect(),
        c2c_measured: !pairs.is_empty(),
        c2c_finding: assessment.c2c.as_deref().map_or(String::new(), c2c_finding),
        c2c_chart_svg,
        pairs: pairs.iter().take(MAX_PAIRS_IN_TABLE).map(pair_row).collect(),
        pairs_left_out: pairs.len().saturating_sub(MAX_PAIRS_IN_TABLE),
        scaling_finding: assessment.scaling.as_deref().map_or(String::new(), scaling::finding),
        conditions: conditions(run),
        under_load: under_load_note(&assessment),
        machine: label,
    })
}

fn pair_row(pair: &PairSummary) -> PairRow {
    let ns = &pair.one_way_ns;
    PairRow {
        cpus: format!("{} and {}", pair.cpu_a, pair.cpu_b),
        median_ns: format_number(ns.median),
        interval_ns: format!("{}-{}", format_number(ns.median_low), format_number(ns.median_high)),
        samples: ns.samples.to_string(),
        noisy: ns.is_noisy(),
    }
}

fn conditions(run: &RunData) -> Vec<ConditionRow> {
    let load = |load: Option<[f64; 3]>| load.map_or("unknown".into(), |[one, _, _]| format!("{one:.2}"));
    let share = |share: Option<f64>| share.map_or("unknown".into(), |share| format!("{:.1}%", share * 100.0));
    run.manifest
        .experiments
        .iter()
        .map(|record| {
            let conditions = record.conditions();
            ConditionRow {
                experiment: record.name.clone(),
                load_before: load(conditions.load_average_before),
                load_after: load(conditions.load_average_after),
                steal: share(conditions.steal_share),
                background: share(conditions.background_share),
                under_load: match (conditions.under_load(), conditions.steal_share.or(conditions.background_share)) {
                    (true, _) => "yes".into(),
                    (false, Some(_)) => "no".into(),
                    (false, None) => "unknown".into(),
                },
            }
        })
        .collect()
}

fn under_load_note(assessment: &Assessment) -> String {
    match assessment.measured_under_load.as_slice() {
        [] => String::new(),
        names => format!(
            "Measured under load: {}. Other programs or the hypervisor took CPU time while they ran, so their \
             effects may be blurred or missing; measure again on a quiet machine to confirm.",
            names.join(", ")
        ),
    }
}
