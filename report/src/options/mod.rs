//! Options: the command line's values turned, in this one place, into plain settings that
//! the rest of the crate reads (library code and the renderers never see clap). Every
//! experiment's config is built and validated here, before anything is measured, by one
//! path generic over the experiment ([`config`]): its quick or default sizes, the shared
//! flags it reads, then its own, as its `flags.rs` in the lib describes them
//! ([`contention::flags`]), reached through the lib's registry.

mod beside;
mod challenge;
pub mod cli;
mod flags;
pub mod given;
pub mod help;
mod room;
mod send_cell;
mod shared;

use std::fmt::Debug;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use contention::experiment::Measure;
use contention::harness::Progress;
use contention::registry::Visitor;
use contention::runs::pack::PACK_EXTENSION;
use contention::runs::{Profile, RUNTIME_ELAPSED_KEY};
use contention::Experiment;

use crate::output::Format;
use crate::room::RoomOptions;
use crate::store::{MeasureOptions, Planned, RunWriter};
use cli::{Cli, Command, MeasureArgs, RoomCommand, DEFAULT_RUNS};
pub use flags::ExperimentFlags;
pub use room::{Prediction, SendTo};

/// `K`'s config from the flags: the quick or default sizes, the shared flags it reads, then
/// its own; the checks across them and its validation (once, here) only when it was
/// `selected` (an experiment not asked for leaves a flag it cannot read unused).
fn config<K: Measure>(args: &MeasureArgs, selected: bool) -> Result<K::Config> {
    let flags = K::flags();
    let mut config = if args.quick { K::quick() } else { Default::default() };
    shared::apply(&flags.shared, &mut config, args, selected)?;
    flags.apply_own(&mut config, &args.experiments.given, selected)?;
    if selected {
        K::validate(&config)?;
    }
    Ok(config)
}

struct Plan<K: Measure> {
    experiment: Experiment,
    config: K::Config,
    /// Whether the real runtime beside the model is measured: its switch (`--no-go`) was not given.
    runtime_wanted: bool,
}

impl<K: Measure> Debug for Plan<K> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Plan").field("experiment", &self.experiment).field("config", &self.config).finish()
    }
}

impl<K: Measure> Planned for Plan<K> {
    fn experiment(&self) -> Experiment {
        self.experiment
    }

    fn measure(&self, run: &mut RunWriter, progress: Progress) -> Result<()> {
        run.save::<K>(&self.config, &mut *progress)?;
        let Some(runtime) = K::REAL_RUNTIME else { return Ok(()) };
        let started = Instant::now();
        let measured = beside::measure(&self.config, self.runtime_wanted, run.dir(), progress);
        let Some(mut status) = measured else { return Ok(()) };
        // A skipped runtime took no time worth showing.
        if let Some(fields) =
            status.as_object_mut().filter(|fields| fields.get("status").and_then(|s| s.as_str()) != Some("skipped"))
        {
            fields.insert(RUNTIME_ELAPSED_KEY.into(), started.elapsed().as_secs_f64().into());
        }
        run.update(|record| record.config[runtime.key] = status)
    }
}

/// An experiment's config from the flags, ready to measure.
struct PlanOf<'a> {
    experiment: Experiment,
    args: &'a MeasureArgs,
    selected: bool,
}

impl Visitor for PlanOf<'_> {
    type Output = Result<Box<dyn Planned>>;
    fn visit<K: Measure>(self) -> Result<Box<dyn Planned>> {
        let config = config::<K>(self.args, self.selected)?;
        let given = &self.args.experiments.given;
        let skipped = K::flags().own.iter().any(|flag| flag.skips_runtime() && given.has(flag.name));
        Ok(Box::new(Plan::<K> { experiment: self.experiment, config, runtime_wanted: !skipped }))
    }
}

/// `experiment`'s config from the flags, ready to measure; validated when `selected`.
fn plan(experiment: Experiment, args: &MeasureArgs, selected: bool) -> Result<Box<dyn Planned>> {
    experiment.visit(PlanOf { experiment, args, selected })
}

/// The flags `experiment` reads, by clap id: its own, then the shared ones it takes.
pub fn flags_of(experiment: Experiment) -> FlagsOf {
    struct Read;
    impl Visitor for Read {
        type Output = (Vec<String>, Vec<(&'static str, &'static str)>);
        fn visit<K: Measure>(self) -> Self::Output {
            let flags = K::flags();
            let own = flags.own.iter().map(|flag| flag.name);
            let ids = own.chain(flags.shared.iter().map(|shared| shared.name())).map(str::to_string).collect();
            (ids, flags.seconds_sense().map(|sense| ("seconds", sense)).into_iter().collect())
        }
    }
    let (ids, own_sense) = experiment.visit(Read);
    FlagsOf { ids, own_sense }
}

/// The flags one experiment reads, by clap id, and those of them it reads in its own sense.
pub struct FlagsOf {
    pub ids: Vec<String>,
    pub own_sense: Vec<(&'static str, &'static str)>,
}

/// What the command was asked to do.
#[derive(Debug)]
pub enum Options {
    /// Measure into a new run folder under `out`, printing each experiment's findings, then
    /// send its pack to a live room when `send` says where.
    Run {
        measure: Box<MeasureOptions>,
        out: PathBuf,
        send: Option<SendTo>,
    },
    Report(ReportOptions),
    /// Write the run at `run` into the pack `out`, and send it to a live room when `send`
    /// says where.
    Pack {
        run: PathBuf,
        out: PackOut,
        /// The pack's default name, suggested where `out` is refused.
        default_name: String,
        send: Option<SendTo>,
    },
    /// Serve a live room.
    Room(RoomOptions),
    /// Send a seat's guesses to a live room.
    Predict(Prediction),
    /// Say whether this laptop is ready for the workshop.
    Check(crate::check::CheckOptions),
    /// `send` without a room: nothing measured, and why.
    NotSent(String),
    /// Check the lab's reference fix of a challenge against its baseline.
    Challenge(crate::challenge::ChallengeOptions),
}

/// Where `pack` writes the pack.
#[derive(Debug)]
pub enum PackOut {
    File(PathBuf),
    /// `-o -`.
    Stdout,
    /// `--send` without `--out`: the pack goes only to the room.
    Nowhere,
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
    /// The options of `cli`, whose measuring flags `given` were set on the command line.
    pub fn from_cli(cli: Cli, given: &[String]) -> Result<Self> {
        Ok(match cli.command {
            Command::Run(args) => Options::Run {
                measure: Box::new(MeasureOptions::from_args(
                    &args.measure,
                    given,
                    &args.experiments.iter().map(|selected| selected.0).collect::<Vec<_>>(),
                )?),
                out: args.out,
                send: SendTo::from_args(&args.send)?,
            },
            Command::Pack(args) => {
                let send = SendTo::from_args(&args.send)?;
                let name = args.run_dir.file_name().map_or("run".into(), |name| name.to_string_lossy().into_owned());
                let default_name = contention::runs::visible(&format!("{name}.{PACK_EXTENSION}"));
                let out = match (args.out, &send) {
                    (Some(out), _) if out.as_os_str() == "-" => PackOut::Stdout,
                    (Some(out), _) => PackOut::File(out),
                    (None, None) => PackOut::File(PathBuf::from(&default_name)),
                    (None, Some(_)) => PackOut::Nowhere,
                };
                Options::Pack { run: args.run_dir, out, default_name, send }
            }
            Command::Room(RoomCommand::Serve(args)) => Options::Room(RoomOptions::from_args(args)?),
            Command::Room(RoomCommand::Predict(args)) => Options::Predict(Prediction::from_args(args)?),
            Command::Check(args) => Options::Check(crate::check::CheckOptions {
                room: args
                    .room
                    .map(|url| {
                        crate::room::client::Room::parse(&url)
                            .map_err(|why| crate::bad_flag::bad_flag(format!("invalid room = {url}: {why}")))
                    })
                    .transpose()?,
                send_as: check_send_as(args.code, args.label)?,
                examples: args.examples,
            }),
            Command::Send(args) => send_cell::options(args)?,
            Command::Guess(args) => send_cell::guess_options(args)?,
            Command::Challenge(args) => Options::Challenge(challenge::challenge_options(args)?),
            Command::Report(args) => {
                let source = if let Some(from) = args.from {
                    given::refuse_beside_saved_runs(given, args.runs.is_some(), "--from")?;
                    Source::Saved(vec![from])
                } else if !args.compare.is_empty() {
                    given::refuse_beside_saved_runs(given, args.runs.is_some(), "--compare")?;
                    Source::Saved(args.compare)
                } else {
                    let runs = args.runs.unwrap_or_else(|| PathBuf::from(DEFAULT_RUNS));
                    Source::Measure(Box::new(MeasureOptions::from_args(&args.measure, given, Experiment::ALL)?), runs)
                };
                let out = args.out.unwrap_or_else(|| PathBuf::from(args.format.default_file()));
                let out = (out.as_os_str() != "-").then_some(out);
                Options::Report(ReportOptions { source, format: args.format, out })
            }
        })
    }
}

impl MeasureOptions {
    /// Builds every selected experiment's config; a bad value is a bad-flag error naming it.
    pub fn from_args(args: &MeasureArgs, given: &[String], experiments: &[Experiment]) -> Result<Self> {
        let mut unique = Vec::new();
        for &experiment in experiments {
            if !unique.contains(&experiment) {
                unique.push(experiment);
            }
        }
        shared::refuse_read_two_ways(given, &unique)?;
        let sized = given::sized(given);
        let profile = match (sized, args.quick) {
            (true, _) => Profile::Custom,
            (false, true) => Profile::Quick,
            (false, false) => Profile::Default,
        };
        if let Some(label) = &args.label {
            contention::runs::check_label(label)?;
        }
        // Every experiment's flags are read, so a bad value is refused whether or not its
        // experiment runs; only the selected ones are validated whole.
        let mut plans = Vec::new();
        for &experiment in Experiment::ALL {
            let selected = unique.contains(&experiment);
            let plan = plan(experiment, args, selected)?;
            if selected {
                plans.push(plan);
            }
        }
        plans.sort_by_key(|plan| unique.iter().position(|&experiment| experiment == plan.experiment()));
        Ok(Self {
            plans,
            label: args.label.as_deref().map(contention::runs::normalize_label),
            profile,
            command_line: contention::runs::clipped(
                &contention::runs::visible(&std::env::args().collect::<Vec<_>>().join(" ")),
                contention::limits::saved::MAX_WRITTEN_TEXT_BYTES,
            ),
        })
    }
}

/// `check --code CODE --label SEAT`, both checked before anything is probed.
fn check_send_as(code: Option<String>, label: Option<String>) -> Result<Option<(String, String)>> {
    let (Some(code), Some(seat)) = (code, label) else { return Ok(None) };
    crate::room::code::check(&code)?;
    contention::runs::check_label(&seat)
        .map_err(|error| crate::bad_flag::bad_flag(error.to_string().replacen("label", "seat", 1)))?;
    Ok(Some((code, seat)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_experiment_has_options() {
        for &experiment in Experiment::ALL {
            let plan = plan(experiment, &MeasureArgs { quick: true, ..MeasureArgs::default() }, true);
            assert_eq!(plan.map(|plan| plan.experiment()).ok(), Some(experiment));
        }
    }
}
