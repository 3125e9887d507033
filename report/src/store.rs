//! Measuring and saving, in one place: run folders on disk (`<out>/<label>-<utc>/`) with one
//! CSV per experiment and a manifest rewritten before and after each experiment, so a later
//! failure loses nothing already measured and says what it interrupted. Every file is
//! written whole or not at all ([`crate::write`]). Reading a run back is the lib's (`contention::runs`).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::experiment::Measure;
use contention::harness::Progress;
use contention::limits::saved::MAX_WRITTEN_TEXT_BYTES;
use contention::machine_check::assess::{assess, MachineRun};
use contention::runs::{default_label, ExperimentRecord, Manifest, Profile, Run, State, MANIFEST};
use contention::{Experiment, Machine};

use crate::bad_flag::bad_flag;
use crate::progress::Reporter;
use crate::write::{write_atomic, write_csv};

/// One selected experiment with its config, ready to measure (built by the options).
pub trait Planned: std::fmt::Debug + Send + Sync {
    fn experiment(&self) -> Experiment;
    /// Measures it into `run`: its rows, then what runs beside it.
    fn measure(&self, run: &mut RunWriter, progress: Progress) -> Result<()>;
}

/// Everything a run needs, decided and validated before anything is measured (by
/// `MeasureOptions::from_args`, where the command line is read).
#[derive(Debug)]
pub struct MeasureOptions {
    /// The selected experiments, in the order given, each with its config.
    pub plans: Vec<Box<dyn Planned>>,
    /// `--label`, checked; `None`: the hostname and a random suffix.
    pub label: Option<String>,
    pub profile: Profile,
    pub command_line: String,
}

/// Beside the rows of a run that included the machine experiment: the verdict and its facts.
pub const VERDICT_FILE: &str = "verdict.json";

/// Measures every selected experiment into a new run folder under `out` and returns it;
/// `finished` hears of each experiment once its rows and the manifest are saved.
pub fn measure_into(
    out: &Path,
    options: &MeasureOptions,
    finished: &mut dyn FnMut(&Path, Experiment) -> Result<()>,
) -> Result<PathBuf> {
    prepare_output_folder(out)?;
    let machine = Machine::describe();
    let label = options.label.clone().unwrap_or_else(|| default_label(&machine.hostname));
    let dir = create_run_folder(out, &run_folder_name(&label, &machine.utc_time))?;
    let tool = format!("contention {}", env!("CARGO_PKG_VERSION"));
    let mut run =
        RunWriter { manifest: Manifest::new(label, tool, options.command_line.clone(), options.profile, machine), dir };
    run.save_manifest()?;
    for plan in &options.plans {
        let experiment = plan.experiment();
        let mut reporter = Reporter::new(experiment.name());
        if let Err(error) = plan.measure(&mut run, &mut |event| reporter.update(event)) {
            // Best effort: the record already says `running`, which reads as interrupted too.
            let failure = contention::runs::visible_lines(&format!("{error:#}"));
            let _ = run.failed(contention::runs::clipped(&failure, MAX_WRITTEN_TEXT_BYTES));
            return Err(error.context(format!(
                "{} failed; experiments finished before it are saved in {}",
                experiment.name(),
                run.dir.display()
            )));
        }
        reporter.finish();
        finished(&run.dir, experiment)?;
    }
    Ok(run.dir)
}

/// The one writer of a run folder: its manifest, saved whole after every change, lists each
/// experiment as `running` before it starts and `complete` once its CSV is saved, so a run
/// stopped at any moment says how far each experiment got.
#[derive(Debug)]
pub struct RunWriter {
    dir: PathBuf,
    manifest: Manifest,
}

impl RunWriter {
    fn save_manifest(&self) -> Result<()> {
        let json = serde_json::to_vec_pretty(&self.manifest).context("encoding the manifest")?;
        write_atomic(&self.dir.join(MANIFEST), &json)
    }

    fn started(&mut self, record: ExperimentRecord) -> Result<()> {
        self.manifest.experiments.push(record);
        self.save_manifest()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The experiment started last, changed by `change`, then saved.
    pub fn update(&mut self, change: impl FnOnce(&mut ExperimentRecord)) -> Result<()> {
        let record = self.manifest.experiments.last_mut().context("no experiment has started")?;
        change(record);
        self.save_manifest()
    }

    /// Records the experiment started last as failed, unless it had not started or had
    /// already completed (a failure after its rows were saved does not unsave them).
    fn failed(&mut self, reason: String) -> Result<()> {
        match self.manifest.experiments.last() {
            Some(record) if record.state == State::Running => self.update(|record| record.fail(reason)),
            _ => Ok(()),
        }
    }

    /// Records experiment `K` as running, runs it, writes its rows whole to
    /// `<run>/<name>.csv`, then records it complete (rows, time, machine conditions before
    /// and after).
    pub fn save<K: Measure>(&mut self, config: &K::Config, progress: Progress) -> Result<()> {
        let record = ExperimentRecord::start(K::NAME, config).context("recording the experiment's config")?;
        let file = self.dir.join(&record.file);
        self.started(record)?;
        let outcome = K::run(config, progress)?;
        write_csv(&file, &outcome.rows)?;
        self.update(|record| record.finish(outcome.rows.len(), outcome.budget_exhausted))
    }
}

/// Saves the verdict over the whole run as `verdict.json`, with whether this process may
/// open hardware counters at all (known only while measuring).
pub fn save_verdict(run: &Run) -> Result<()> {
    let mut assessment = assess(&MachineRun::from_run(run));
    if let Err(reason) = contention::perf::availability() {
        assessment.hardware_counters = format!("unavailable: {reason}");
    }
    let json = serde_json::to_vec_pretty(&assessment).context("encoding the verdict")?;
    write_atomic(&run.dir.join(VERDICT_FILE), &json)
}

/// Creates `out` if needed and proves it writable before minutes of measuring.
fn prepare_output_folder(out: &Path) -> Result<()> {
    let unwritable = |reason: &dyn std::fmt::Display| {
        bad_flag(format!("invalid out = {}: the output folder must be a writable directory ({reason})", out.display()))
    };
    fs::create_dir_all(out).map_err(|e| unwritable(&e))?;
    let probe = out.join(format!(".write-probe-{}", std::process::id()));
    fs::write(&probe, b"").map_err(|e| unwritable(&e))?;
    fs::remove_file(&probe).map_err(|e| unwritable(&e))?;
    // Runs killed mid-write left temporary files; their folders are not written again.
    crate::write::remove_stale_temporaries(out);
    if let Ok(entries) = fs::read_dir(out) {
        let folders = entries.filter_map(Result::ok).filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()));
        folders.for_each(|folder| crate::write::remove_stale_temporaries(&folder.path()));
    }
    Ok(())
}

/// "<label>-<utc>" with the label's odd characters replaced and the time compacted, so the
/// name is valid on every filesystem.
fn run_folder_name(label: &str, utc_time: &str) -> String {
    let label: String =
        label.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect();
    let utc: String = utc_time.chars().filter(|c| *c != '-' && *c != ':').collect();
    format!("{label}-{utc}")
}

/// Most suffixes tried for runs started in the same second on the same host.
const MAX_SAME_SECOND_RUNS: u32 = 1000;

/// Creates `out/<name>`, or `<name>-2`, `<name>-3`, ... when another run holds it:
/// creating a folder is atomic, so each run folder has exactly one writer.
fn create_run_folder(out: &Path, name: &str) -> Result<PathBuf> {
    for attempt in 1..=MAX_SAME_SECOND_RUNS {
        let dir = if attempt == 1 { out.join(name) } else { out.join(format!("{name}-{attempt}")) };
        match fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error).with_context(|| format!("creating {}", dir.display())),
        }
    }
    anyhow::bail!("{MAX_SAME_SECOND_RUNS} run folders named {name}* already exist in {}", out.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use contention::runs::Profile;

    #[test]
    fn runs_started_together_get_folders_of_their_own() {
        let out = std::env::temp_dir().join(format!("contention-folders-{}", std::process::id()));
        fs::create_dir_all(&out).unwrap();
        let first = create_run_folder(&out, "host-20261201T000000Z").unwrap();
        let second = create_run_folder(&out, "host-20261201T000000Z").unwrap();
        let _ = fs::remove_dir_all(&out);
        assert!(first.ends_with("host-20261201T000000Z"));
        assert!(second.ends_with("host-20261201T000000Z-2"));
    }

    #[test]
    fn a_failure_marks_only_an_experiment_still_running() {
        let dir = std::env::temp_dir().join(format!("contention-writer-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let manifest = Manifest::new("t".into(), "t".into(), "t".into(), Profile::Quick, Machine::describe());
        let mut run = RunWriter { dir: dir.clone(), manifest };
        run.started(ExperimentRecord::start("stride", &1).unwrap()).unwrap();
        run.update(|record| record.finish(1, false)).unwrap();
        run.failed("late".into()).unwrap();
        assert_eq!(run.manifest.experiments[0].state, State::Complete, "saved rows stay saved");
        run.started(ExperimentRecord::start("sharing", &1).unwrap()).unwrap();
        run.failed("a wrong sum".into()).unwrap();
        let saved: Manifest = serde_json::from_slice(&fs::read(dir.join(MANIFEST)).unwrap()).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        let states: Vec<State> = saved.experiments.iter().map(|record| record.state).collect();
        assert_eq!(states, [State::Complete, State::Failed]);
        assert_eq!(saved.experiments[1].failure.as_deref(), Some("a wrong sum"));
    }
}
