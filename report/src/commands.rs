//! What each command does with its options: measure and save (through [`crate::store`]),
//! then render (page, markdown, JSON, terminal). Nothing here reads clap.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use contention::runs::Run;

use crate::experiment::Experiment;
use crate::options::{MeasureOptions, Options, ReportOptions, Source};
use crate::output::Format;
use crate::store::{self, write_atomic};
use crate::usage::usage;
use crate::{json, markdown, page, sections, terminal};

pub fn execute(options: Options) -> Result<()> {
    match options {
        Options::Run { measure, out } => {
            let dir = measure_and_print(&measure, &out)?;
            say(&format!("run saved in {}", dir.display()));
            Ok(())
        }
        Options::Report(report) => write_report(report),
    }
}

/// Measures into a new run folder, printing each experiment's findings as it finishes and,
/// when the machine was measured, the verdict over the whole run.
fn measure_and_print(measure: &MeasureOptions, out: &Path) -> Result<PathBuf> {
    let dir = store::measure_into(out, measure, &mut |dir, experiment| {
        let run = Run::load(dir)?;
        if let Some(text) = terminal::finished(&run, experiment)? {
            say(&format!("\n{text}\n"));
        }
        Ok(())
    })?;
    if measure.experiments.contains(&Experiment::Machine) {
        let run = Run::load(&dir)?;
        store::save_verdict(&run)?;
        say(&format!("\n{}\n", terminal::machine(&run)?));
    }
    Ok(dir)
}

fn write_report(report: ReportOptions) -> Result<()> {
    if let Some(out) = &report.out {
        check_writable(out)?;
    }
    let dirs = match report.source {
        Source::Saved(dirs) => dirs,
        Source::Measure(measure, runs) => {
            let dir = measure_and_print(&measure, &runs)?;
            say(&format!("run saved in {}", dir.display()));
            vec![dir]
        }
    };
    // A run that cannot be read is bad input: one message, exit 2.
    let runs: Vec<Run> =
        dirs.iter().map(|dir| Run::load(dir).map_err(|error| usage(error.to_string()))).collect::<Result<_>>()?;
    let sections = sections::all(&runs)?;
    let generated_utc = contention::machine::utc_timestamp(std::time::SystemTime::now());
    let text = match report.format {
        Format::Html => page::render(&runs, &sections, generated_utc)?,
        Format::Markdown => {
            let labels: Vec<String> = runs.iter().map(Run::label).collect();
            markdown::render(&page::title(&runs), &labels, &sections)
        }
        Format::Json => json::render(&runs, &sections, generated_utc)?,
    };
    match &report.out {
        Some(out) => {
            write_atomic(out, text.as_bytes())?;
            say(&format!("report written to {}", out.display()));
        }
        None => std::io::stdout().write_all(text.as_bytes()).context("writing the report to standard output")?,
    }
    Ok(())
}

/// Fails early, as bad usage, when the report could not be written to `out`.
fn check_writable(out: &Path) -> Result<()> {
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

/// Messages and findings go to stdout so scripts can read them (progress goes to stderr).
#[allow(clippy::print_stdout)]
fn say(message: &str) {
    println!("{message}");
}
