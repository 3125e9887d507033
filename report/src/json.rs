//! The report as JSON for scripts: every summary number (medians, intervals, ratios), each
//! machine's verdict with its reasons and facts, and the sections' findings and tables.
//!
//! # Shape (version 1)
//!
//! ```text
//! { "format": "contention-report", "version": 1, "generated_utc": "...",
//!   "skipped": ["why a run could not be read", ...],
//!   "runs": [ { "label", "dir", "started_utc", "machine": {...description...},
//!               "assessment": { "facts", "verdict": { "fitness", "reasons": [{kind, fitness, text}],
//!                               "unchecked" }, "hardware_counters", "measured_under_load" },
//!               "summaries": { "<each experiment's key>": [...], ... } } ],
//!   "sections": [ { "experiment", "title", "summary", "machines", "article", "findings": [{machine, text}],
//!                   "figures": [{title, caption, text}], "tables": [{caption, columns: [{label, group, numeric}],
//!                   rows: [[{text, noisy, link?, anchor?}]]}], "notes": [{machine, text}], "status": [{machine, text}],
//!                   "strip"?: {groups: [{label, tiles: [{id, letter, status, link, color, ink}]}], tally, key},
//!                   "details"?: [{summary, paragraphs}] } ] }
//! ```
//!
//! `summaries` holds one key per experiment of the lib's registry, in its order: its name
//! (`stride`, `locks`, ...), but the machine check's, which is `scaling`. `sections` opens, for one or two runs, with the articles'
//! headlines (`"experiment": "headline"`: the machine's verdict in one line as a finding, a
//! figure and a table row per article with this machine's counterpart, its interval and its
//! status, the claims' strip, and as `details` the verdict's reasons and the status legend). The last
//! section, `claims`, has one table row per numbered claim of the articles; a cell that names
//! another section carries its anchor as `link` ("#gc"). A summary an experiment did not measure is `null`. Summaries are the lib's own types
//! (`contention::stride::StrideSummary`, ...): a `Summary` has `median`, `median_low`,
//! `median_high`, `cv` and the rest. [`VERSION`] rises when a field is renamed or removed;
//! new fields may appear within a version.

use anyhow::{Context, Result};
use contention::experiment::Measure;
use contention::machine_check::assess::{assess, Assessment, MachineRun};
use contention::present::{Details, Finding, Present, Section, Strip, Table};
use contention::registry::Visitor;
use contention::runs::Run;
use contention::{Experiment, Machine};
use serde::ser::SerializeMap;
use serde::Serialize;

/// The JSON shape's version (see the module documentation).
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize)]
struct Export<'a> {
    format: &'static str,
    version: u32,
    generated_utc: String,
    runs: Vec<RunExport<'a>>,
    /// Runs that could not be read, each with why.
    skipped: &'a [String],
    sections: Vec<SectionExport<'a>>,
}

#[derive(Debug, Serialize)]
struct RunExport<'a> {
    label: String,
    dir: String,
    started_utc: &'a str,
    machine: &'a Machine,
    assessment: Assessment,
    summaries: Summaries,
}

/// Every experiment's summaries under its key, in the registry's order (`null`: not measured).
#[derive(Debug)]
struct Summaries(Vec<(&'static str, serde_json::Value)>);

impl Serialize for Summaries {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// One experiment's summaries of one run, under its JSON key.
struct SummaryOf<'a> {
    run: &'a Run,
}

impl Visitor for SummaryOf<'_> {
    type Output = Result<(&'static str, serde_json::Value), serde_json::Error>;

    fn visit<K: Present>(self) -> Self::Output {
        let summaries = match self.run.rows::<K::Row>() {
            Some(rows) => serde_json::to_value(K::summarize(rows))?,
            None => serde_json::Value::Null,
        };
        Ok((<K as Measure>::SUMMARY_KEY, summaries))
    }
}

#[derive(Debug, Serialize)]
struct SectionExport<'a> {
    experiment: &'static str,
    title: &'static str,
    summary: String,
    machines: &'a [String],
    article: &'a [String],
    findings: &'a [Finding],
    figures: Vec<FigureExport<'a>>,
    tables: Vec<&'a Table>,
    notes: &'a [Finding],
    /// What became of the experiment in a run where it is not simply complete.
    status: &'a [Finding],
    /// The claims' strip (the headline's, for one run): its groups of tiles and the tally.
    #[serde(skip_serializing_if = "Option::is_none")]
    strip: Option<&'a Strip>,
    /// The rules the page folds away (the status legend, the verdict's reasons), open here.
    #[serde(skip_serializing_if = "<[Details]>::is_empty")]
    details: &'a [Details],
}

/// A figure without its picture.
#[derive(Debug, Serialize)]
struct FigureExport<'a> {
    title: &'a str,
    caption: &'a str,
    text: &'a str,
}

pub fn render(runs: &[Run], skipped: &[String], sections: &[Section], generated_utc: String) -> Result<String> {
    let export = Export {
        format: "contention-report",
        version: VERSION,
        generated_utc,
        runs: runs.iter().map(run_export).collect::<Result<_>>()?,
        skipped,
        sections: sections.iter().map(section_export).collect(),
    };
    serde_json::to_string_pretty(&export).context("encoding the report as JSON")
}

fn run_export(run: &Run) -> Result<RunExport<'_>> {
    let summaries = Experiment::ALL.iter().map(|experiment| experiment.visit(SummaryOf { run }));
    Ok(RunExport {
        label: run.label(),
        dir: run.dir.display().to_string(),
        started_utc: &run.manifest.started_utc,
        machine: &run.manifest.machine,
        assessment: assess(&MachineRun::from_run(run)),
        summaries: Summaries(summaries.collect::<Result<_, _>>().context("encoding the summaries")?),
    })
}

fn section_export(section: &Section) -> SectionExport<'_> {
    SectionExport {
        experiment: section.experiment,
        title: section.title,
        summary: section.summary(),
        machines: &section.machines,
        article: &section.article,
        findings: &section.findings,
        figures: section
            .figures
            .iter()
            .map(|f| FigureExport { title: &f.title, caption: &f.caption, text: &f.text })
            .collect(),
        tables: section.article_tables.iter().chain(&section.tables).collect(),
        notes: &section.notes,
        status: &section.status,
        strip: section.strip.as_ref(),
        details: &section.details,
    }
}
