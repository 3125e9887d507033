//! `manifest.json`: what a run folder holds, on which machine, measured how. The report
//! writes it whole before each experiment starts (the experiment `running`) and again once
//! its CSV is saved (`complete`), so a run stopped at any moment says how far each
//! experiment got; [`super::Run::load`] reads it back.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::experiment::RealRuntime;
use crate::machine::clocks::Clocks;
use crate::machine::conditions::{Conditions, Snapshot};
use crate::machine::utc_timestamp;
use crate::machine::Machine;

/// Bumped whenever a run folder's layout or columns change; older runs are refused with a
/// message rather than misread, except [`OLDEST_READ_VERSION`] and later.
pub const FORMAT_VERSION: u32 = 7;
/// The oldest format still read: 6 differs only by two columns that carried nothing
/// (`verified`, always true, and the pool's `censored`, always its `dropped`), ignored on read.
pub const OLDEST_READ_VERSION: u32 = 6;
/// The file every run folder holds.
pub const MANIFEST: &str = "manifest.json";

/// "quick", "default" or "custom" (sizes given on the command line): stated on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    Quick,
    Default,
    Custom,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    /// The tool that wrote the run, e.g. "contention 0.1.0".
    pub tool: String,
    /// The command line as typed.
    pub command: String,
    pub profile: Profile,
    /// How pages name this run (`--label`, or the hostname and a random suffix); runs
    /// written before labels existed have none and are named by host and start minute.
    #[serde(default)]
    pub label: String,
    pub started_utc: String,
    pub machine: Machine,
    /// Experiments in the order they finished; each has its CSV beside this file.
    pub experiments: Vec<ExperimentRecord>,
}

impl Manifest {
    pub fn new(label: String, tool: String, command: String, profile: Profile, machine: Machine) -> Self {
        Self {
            format_version: FORMAT_VERSION,
            tool,
            command,
            profile,
            label,
            started_utc: machine.utc_time.clone(),
            machine,
            experiments: Vec::new(),
        }
    }

    /// The record of `experiment` (its name, e.g. `contention::stride::EXPERIMENT`).
    pub fn record(&self, experiment: &str) -> Option<&ExperimentRecord> {
        self.experiments.iter().find(|record| record.name == experiment)
    }
}

/// How far an experiment got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Started; its CSV is not known to be saved (the run may have been stopped since).
    Running,
    /// Its CSV is saved whole and holds `rows` rows.
    Complete,
    /// It stopped with an error, recorded in `failure`.
    Failed,
}

/// One experiment of a run: its config, its file and how it went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentRecord {
    pub name: String,
    pub file: String,
    pub config: serde_json::Value,
    pub state: State,
    /// Why it failed, when `state` is [`State::Failed`].
    pub failure: Option<String>,
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
    /// CPU frequency, governor and boost when the experiment started and finished.
    pub clocks_before: Clocks,
    pub clocks_after: Clocks,
    /// Seconds it ran, its real runtime beside it excluded (that one's are in its status
    /// under the config); absent in runs written before it was recorded.
    #[serde(default)]
    pub elapsed_s: Option<f64>,
    /// The machine's state when the experiment started (not saved: only the shares are).
    #[serde(skip)]
    started: Option<Snapshot>,
    /// The real runtime its experiment measures beside it, from the registry when the run is
    /// read (by the reader, `runs`); not saved.
    #[serde(skip)]
    pub runtime: Option<RealRuntime>,
}

impl ExperimentRecord {
    /// Starts the record of `experiment`, whose rows go to `<experiment>.csv`.
    pub fn start(experiment: &str, config: &impl Serialize) -> Result<Self, serde_json::Error> {
        let started = Snapshot::take();
        Ok(Self {
            name: experiment.to_string(),
            file: format!("{experiment}.csv"),
            config: serde_json::to_value(config)?,
            state: State::Running,
            failure: None,
            rows: 0,
            budget_exhausted: false,
            started_utc: utc_timestamp(SystemTime::now()),
            finished_utc: String::new(),
            load_average_before: started.load_average,
            load_average_after: None,
            steal_share: None,
            background_share: None,
            clocks_before: started.clocks.clone(),
            clocks_after: Clocks::default(),
            elapsed_s: None,
            started: Some(started),
            runtime: None,
        })
    }

    /// The record of a CSV named after `experiment` that no record lists (a manifest lost
    /// or cut short): rows read back, config unknown (`null`).
    pub fn unlisted(experiment: &str, rows: usize) -> Self {
        Self {
            name: experiment.to_string(),
            file: format!("{experiment}.csv"),
            config: serde_json::Value::Null,
            state: State::Running,
            failure: None,
            rows,
            budget_exhausted: false,
            started_utc: String::new(),
            finished_utc: String::new(),
            load_average_before: None,
            load_average_after: None,
            steal_share: None,
            background_share: None,
            clocks_before: Clocks::default(),
            clocks_after: Clocks::default(),
            elapsed_s: None,
            started: None,
            runtime: None,
        }
    }

    pub fn finish(&mut self, rows: usize, budget_exhausted: bool) {
        let finished = Snapshot::take();
        self.state = State::Complete;
        self.rows = rows;
        self.budget_exhausted = budget_exhausted;
        self.finished_utc = utc_timestamp(SystemTime::now());
        if let Some(started) = self.started.take() {
            let conditions = Conditions::between(&started, &finished);
            self.steal_share = conditions.steal_share;
            self.background_share = conditions.background_share;
            self.elapsed_s = conditions.elapsed_s;
        }
        self.load_average_after = finished.load_average;
        self.clocks_after = finished.clocks;
    }

    /// Records that the experiment stopped with `reason`.
    pub fn fail(&mut self, reason: String) {
        self.state = State::Failed;
        self.failure = Some(reason);
        self.finished_utc = utc_timestamp(SystemTime::now());
        self.elapsed_s = self.started.as_ref().map(|started| started.at.elapsed().as_secs_f64());
    }

    /// What the machine did while this experiment ran, as saved.
    pub fn conditions(&self) -> Conditions {
        Conditions {
            load_average_before: self.load_average_before,
            load_average_after: self.load_average_after,
            steal_share: self.steal_share,
            background_share: self.background_share,
            clocks_before: self.clocks_before.clone(),
            clocks_after: self.clocks_after.clone(),
            elapsed_s: self.elapsed_s,
            runtime_elapsed: self.runtime_elapsed(),
        }
    }

    /// The real runtime run beside this experiment and its seconds, when it was tried.
    pub(crate) fn runtime_elapsed(&self) -> Option<(String, f64)> {
        let runtime = self.runtime?;
        let seconds = self.config.get(runtime.key)?.get(RUNTIME_ELAPSED_KEY)?.as_f64()?;
        Some((runtime.name.to_string(), seconds))
    }

    /// What the real runtime run beside this experiment left out and why (cells past its
    /// budget, a cell that timed out), as its status recorded it; `None` when it left nothing out.
    pub fn runtime_note(&self) -> Option<String> {
        let runtime = self.runtime?;
        let note = self.config.get(runtime.key)?.get(RUNTIME_NOTE_KEY)?.as_str()?;
        Some(format!("{}: {note}", runtime.name))
    }
}

/// Where a real runtime's status (under the experiment's config) records the seconds it ran.
pub const RUNTIME_ELAPSED_KEY: &str = "elapsed_s";
/// Where it records what it left out and why.
pub const RUNTIME_NOTE_KEY: &str = "note";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_keeps_how_long_it_and_its_runtime_beside_it_ran() {
        let mut record = ExperimentRecord::start("gc", &serde_json::json!({})).unwrap();
        record.runtime = Some(RealRuntime { key: "go", name: "Go", file: "go.csv" });
        std::thread::sleep(std::time::Duration::from_millis(20));
        record.finish(3, false);
        let elapsed = record.elapsed_s.expect("a finished record knows how long it ran");
        assert!((0.02..60.0).contains(&elapsed), "{elapsed}");
        assert_eq!(record.conditions().runtime_elapsed, None, "Go did not run");

        record.config = serde_json::json!({"go": {"status": "ran", RUNTIME_ELAPSED_KEY: 6.5}});
        assert_eq!(record.conditions().runtime_elapsed, Some(("Go".to_string(), 6.5)));
        assert_eq!(record.runtime_note(), None, "Go left nothing out");
        record.config["go"][RUNTIME_NOTE_KEY] = "3 of 9 cells".into();
        assert_eq!(record.runtime_note().as_deref(), Some("Go: 3 of 9 cells"));
        // An experiment with no runtime beside it shows none, whatever its config holds.
        record.runtime = None;
        assert_eq!(record.conditions().runtime_elapsed, None);
    }

    #[test]
    fn runs_written_before_elapsed_time_was_recorded_still_read() {
        let mut saved = serde_json::to_value(ExperimentRecord::unlisted("stride", 2)).unwrap();
        saved.as_object_mut().unwrap().remove("elapsed_s");
        let record: ExperimentRecord = serde_json::from_value(saved).unwrap();
        assert_eq!(record.elapsed_s, None);
    }
}
