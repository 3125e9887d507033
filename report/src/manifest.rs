//! `manifest.json`: what a run folder holds, on which machine, measured how.

use std::path::Path;
use std::time::SystemTime;

use anyhow::{bail, Context, Result};
use contention::fitness::conditions::{Conditions, Snapshot};
use contention::machine::utc_timestamp;
use contention::Machine;
use serde::{Deserialize, Serialize};

use crate::experiments::{Experiment, MeasureOptions, Profile};

/// Bumped whenever a run folder's layout or columns change; older runs are refused with a
/// message rather than misread.
pub const FORMAT_VERSION: u32 = 3;
pub const FILE_NAME: &str = "manifest.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    /// The tool that wrote the run, e.g. "contention 0.1.0".
    pub tool: String,
    /// The command line as typed.
    pub command: String,
    pub profile: Profile,
    pub started_utc: String,
    pub machine: Machine,
    /// Experiments in the order they finished; each has its CSV beside this file.
    pub experiments: Vec<ExperimentRecord>,
}

/// One experiment of a run: its config, its file and how it went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentRecord {
    pub name: String,
    pub file: String,
    pub config: serde_json::Value,
    pub rows: usize,
    /// The time budget ran out before every trial ran.
    pub budget_exhausted: bool,
    pub started_utc: String,
    pub finished_utc: String,
    pub load_average_before: Option<[f64; 3]>,
    pub load_average_after: Option<[f64; 3]>,
    /// Share of all CPU time (0..1) the hypervisor stole while the experiment ran.
    pub steal_share: Option<f64>,
    /// Share of all CPU time (0..1) other programs used while the experiment ran.
    pub background_share: Option<f64>,
    /// The machine's state when the experiment started (not saved: only the shares are).
    #[serde(skip)]
    started: Option<Snapshot>,
}

impl ExperimentRecord {
    pub fn start(experiment: Experiment, config: &impl Serialize) -> Result<Self> {
        let started = Snapshot::take();
        Ok(Self {
            name: experiment.name().to_string(),
            file: experiment.csv_file(),
            config: serde_json::to_value(config).context("recording the experiment's config")?,
            rows: 0,
            budget_exhausted: false,
            started_utc: utc_timestamp(SystemTime::now()),
            finished_utc: String::new(),
            load_average_before: started.load_average,
            load_average_after: None,
            steal_share: None,
            background_share: None,
            started: Some(started),
        })
    }

    pub fn finish(&mut self, rows: usize, budget_exhausted: bool) {
        let finished = Snapshot::take();
        self.rows = rows;
        self.budget_exhausted = budget_exhausted;
        self.finished_utc = utc_timestamp(SystemTime::now());
        if let Some(started) = self.started.take() {
            let conditions = Conditions::between(&started, &finished);
            self.steal_share = conditions.steal_share;
            self.background_share = conditions.background_share;
        }
        self.load_average_after = finished.load_average;
    }

    /// What the machine did while this experiment ran, as saved.
    pub fn conditions(&self) -> Conditions {
        Conditions {
            load_average_before: self.load_average_before,
            load_average_after: self.load_average_after,
            steal_share: self.steal_share,
            background_share: self.background_share,
        }
    }
}

impl Manifest {
    pub fn new(options: &MeasureOptions, machine: Machine) -> Self {
        Self {
            format_version: FORMAT_VERSION,
            tool: format!("contention {}", env!("CARGO_PKG_VERSION")),
            command: options.command_line.clone(),
            profile: options.profile,
            started_utc: machine.utc_time.clone(),
            machine,
            experiments: Vec::new(),
        }
    }

    /// Reads `dir/manifest.json`, refusing other format versions by name.
    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(FILE_NAME);
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))?;
        match value.get("format_version").and_then(serde_json::Value::as_u64) {
            Some(version) if version == u64::from(FORMAT_VERSION) => {}
            Some(version) => bail!(
                "{} is from format version {version}; this contention reads version {FORMAT_VERSION}: \
                 measure again with `contention run`, or render it with the version that wrote it",
                path.display()
            ),
            None => bail!("{} has no format_version: it was not written by `contention run`", path.display()),
        }
        serde_json::from_value(value).with_context(|| format!("{} does not match the manifest format", path.display()))
    }
}
