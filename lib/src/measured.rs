//! What one machine measured for an experiment ([`Measured`]), and the per-machine
//! sentences and notes every section builds from it.

use serde::Serialize;

use crate::experiment::SavedRow;
use crate::run_format::Run;
use crate::transfers::OneWay;
use crate::verdict::Verdict;
use crate::view::{Finding, Section};

/// What one machine measured for an experiment: its label, its rows, the config it ran
/// with, its logical CPUs and its fitness verdict, when known.
#[derive(Debug, Clone)]
pub struct Measured<'a, Row> {
    pub label: String,
    pub rows: &'a [Row],
    pub config: Option<serde_json::Value>,
    pub logical_cpus: Option<usize>,
    /// Said inline by a finding that shows no effect: what on this machine may hide it.
    pub verdict: Option<Verdict>,
    /// The typical one-way core-to-core transfer measured in the same run, when it was: the
    /// unit a false-sharing penalty is counted in ([`crate::transfers`]).
    pub one_way: Option<OneWay>,
}

impl<'a, Row> Measured<'a, Row> {
    /// One machine's rows measured in this session (a notebook): no saved config.
    pub fn new(label: impl Into<String>, rows: &'a [Row]) -> Self {
        Self { label: label.into(), rows, config: None, logical_cpus: None, verdict: None, one_way: None }
    }

    /// The same, with the config it ran with (stated in the notes).
    pub fn with_config(mut self, config: &impl Serialize) -> Self {
        self.config = serde_json::to_value(config).ok();
        self
    }

    /// The same, on a machine with `logical_cpus` CPUs (say which cells oversubscribe it).
    pub fn on_cpus(mut self, logical_cpus: usize) -> Self {
        self.logical_cpus = Some(logical_cpus);
        self
    }

    /// The same, on a machine with this fitness `verdict` (a finding without an effect says
    /// what in it may hide the effect).
    pub fn with_verdict(mut self, verdict: Verdict) -> Self {
        self.verdict = Some(verdict);
        self
    }

    /// The same, with the one-way core-to-core latency measured beside it.
    pub fn with_one_way(mut self, one_way: Option<OneWay>) -> Self {
        self.one_way = one_way;
        self
    }

    /// Every run in `runs` that holds rows of this type.
    pub fn from_runs(runs: &'a [Run]) -> Vec<Self>
    where
        Row: SavedRow,
    {
        runs.iter()
            .filter_map(|run| {
                run.rows::<Row>().map(|rows| Self {
                    label: run.label(),
                    rows,
                    config: run.record_of::<Row>().map(|record| record.config.clone()),
                    logical_cpus: Some(run.manifest.machine.logical_cpus),
                    verdict: run.verdict.clone(),
                    one_way: one_way_of(run),
                })
            })
            .collect()
    }
}

/// The typical one-way core-to-core transfer `run` measured, if it did.
pub fn one_way_of(run: &Run) -> Option<OneWay> {
    OneWay::of(&crate::c2c::summarize(run.rows::<crate::c2c::Row>()?))
}

/// One sentence per machine, from its summaries and its fitness verdict.
pub fn per_machine<Row, S>(
    machines: &[Measured<'_, Row>],
    summaries: &[S],
    sentence: impl Fn(&S, Option<&Verdict>) -> String,
) -> Vec<Finding> {
    machines.iter().zip(summaries).map(|(m, s)| Finding::about(&m.label, sentence(s, m.verdict.as_ref()))).collect()
}

/// A section's machines and its lines for each from `sentence`: its findings with the machine's
/// caveat, its headlines without (the headline table above them says it); then each
/// machine's penalty counted in core-to-core transfers, where `transfers` finds one.
pub fn findings_and_headlines<Row, S>(
    section: &mut Section,
    machines: &[Measured<'_, Row>],
    summaries: &[S],
    sentence: impl Fn(&S, Option<&Verdict>) -> String,
    transfers: impl Fn(&S, Option<OneWay>) -> Option<String>,
) {
    section.machines = machines.iter().map(|m| m.label.clone()).collect();
    section.findings = per_machine(machines, summaries, &sentence);
    section.headlines = per_machine(machines, summaries, |s, _| sentence(s, None));
    let penalties = machines.iter().zip(summaries);
    section.findings.extend(penalties.filter_map(|(m, s)| Some(Finding::about(&m.label, transfers(s, m.one_way)?))));
}

/// "label: a, b, c" for each machine, every one of its summaries in words by `point`: what
/// a chart shows, for its text stand-in.
pub fn points_per_machine<Row, S>(
    machines: &[Measured<'_, Row>],
    summaries: &[Vec<S>],
    point: impl Fn(&S) -> String,
) -> Vec<String> {
    machines
        .iter()
        .zip(summaries)
        .map(|(m, s)| format!("{}: {}", m.label, s.iter().map(&point).collect::<Vec<_>>().join(", ")))
        .collect()
}

/// "Measured with `key=value ...`." for each machine that knows its config.
pub fn config_notes<Row>(machines: &[Measured<'_, Row>]) -> Vec<Finding> {
    machines
        .iter()
        .filter_map(|m| {
            let config = crate::format::config_text(m.config.as_ref()?);
            Some(Finding::about(&m.label, format!("Measured with {config}.")))
        })
        .collect()
}
