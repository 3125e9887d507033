//! Options: the command line's values turned, in this one place, into plain settings that
//! the rest of the crate reads (library code and the renderers never see clap). Every
//! experiment's config is built and validated here, before anything is measured.

mod c2c;
mod counters;
mod gc;
mod given;
mod machine;
mod pool;
mod sharing;
mod stride;

use std::path::PathBuf;

use anyhow::Result;
use contention::runs::pack::PACK_EXTENSION;
use contention::runs::Profile;

use crate::cli::{Cli, Command, MeasureArgs, DEFAULT_RUNS};
use crate::experiment::Experiment;
use crate::output::Format;

/// What the command was asked to do.
#[derive(Debug)]
pub enum Options {
    /// Measure into a new run folder under `out`, printing each experiment's findings.
    Run {
        measure: Box<MeasureOptions>,
        out: PathBuf,
    },
    Report(ReportOptions),
    /// Write the run at `run` into the pack `out` (`None`: standard output, `-o -`).
    Pack {
        run: PathBuf,
        out: Option<PathBuf>,
        /// The pack's default name, suggested where `out` is refused.
        default_name: String,
    },
}

/// Where a report's runs come from.
#[derive(Debug)]
pub enum Source {
    /// Measure every experiment first, into a new run folder under this folder.
    Measure(Box<MeasureOptions>, PathBuf),
    /// Saved run folders: one, or several side by side.
    Saved(Vec<PathBuf>),
}

#[derive(Debug)]
pub struct ReportOptions {
    pub source: Source,
    pub format: Format,
    /// `None`: standard output (`--out -`).
    pub out: Option<PathBuf>,
}

impl Options {
    pub fn from_cli(cli: Cli) -> Result<Self> {
        Ok(match cli.command {
            Command::Run(args) => Options::Run {
                measure: Box::new(MeasureOptions::from_args(&args.measure, &args.experiments)?),
                out: args.out,
            },
            Command::Pack(args) => {
                let name = args.run_dir.file_name().map_or("run".into(), |name| name.to_string_lossy().into_owned());
                let default_name = contention::runs::visible(&format!("{name}.{PACK_EXTENSION}"));
                let out = args.out.unwrap_or_else(|| PathBuf::from(&default_name));
                let out = (out.as_os_str() != "-").then_some(out);
                Options::Pack { run: args.run_dir, out, default_name }
            }
            Command::Report(args) => {
                let source = if let Some(from) = args.from {
                    given::refuse_beside_saved_runs(&args.measure, args.runs.is_some(), "--from")?;
                    Source::Saved(vec![from])
                } else if !args.compare.is_empty() {
                    given::refuse_beside_saved_runs(&args.measure, args.runs.is_some(), "--compare")?;
                    Source::Saved(args.compare)
                } else {
                    let runs = args.runs.unwrap_or_else(|| PathBuf::from(DEFAULT_RUNS));
                    Source::Measure(Box::new(MeasureOptions::from_args(&args.measure, Experiment::all())?), runs)
                };
                let out = args.out.unwrap_or_else(|| PathBuf::from(args.format.default_file()));
                let out = (out.as_os_str() != "-").then_some(out);
                Options::Report(ReportOptions { source, format: args.format, out })
            }
        })
    }
}

/// Everything a run needs, decided and validated before anything is measured.
#[derive(Debug, Clone)]
pub struct MeasureOptions {
    pub experiments: Vec<Experiment>,
    /// `--label`, checked; `None`: the hostname and a random suffix.
    pub label: Option<String>,
    pub profile: Profile,
    pub command_line: String,
    pub stride: contention::stride::Config,
    pub sharing: contention::sharing::Config,
    pub counters: contention::counters::Config,
    pub c2c: contention::c2c::Config,
    pub machine: contention::fitness::Config,
    pub gc: contention::gc::Config,
    /// Run the real Go benchmark beside the GC model (when `go` is on PATH).
    pub gc_go: bool,
    pub pool: contention::pool::Config,
}

impl MeasureOptions {
    /// Builds every selected experiment's config; a bad value is a usage error naming it.
    pub fn from_args(args: &MeasureArgs, experiments: &[Experiment]) -> Result<Self> {
        let mut unique = Vec::new();
        for &experiment in experiments {
            if !unique.contains(&experiment) {
                unique.push(experiment);
            }
        }
        let sized = given::sized(args);
        let profile = match (sized, args.quick) {
            (true, _) => Profile::Custom,
            (false, true) => Profile::Quick,
            (false, false) => Profile::Default,
        };
        if let Some(label) = &args.label {
            contention::runs::check_label(label)?;
        }
        Ok(Self {
            label: args.label.clone(),
            stride: stride::config(args, unique.contains(&Experiment::Stride))?,
            sharing: sharing::config(args, unique.contains(&Experiment::Sharing))?,
            counters: counters::config(args, unique.contains(&Experiment::Counters))?,
            c2c: c2c::config(args, unique.contains(&Experiment::C2c))?,
            machine: machine::config(args, unique.contains(&Experiment::Machine))?,
            gc: gc::config(args, unique.contains(&Experiment::Gc))?,
            gc_go: !args.no_go,
            pool: pool::config(args, unique.contains(&Experiment::Pool))?,
            experiments: unique,
            profile,
            command_line: contention::runs::clipped(
                &contention::runs::visible(&std::env::args().collect::<Vec<_>>().join(" ")),
                contention::limits::saved::MAX_WRITTEN_TEXT_BYTES,
            ),
        })
    }
}
