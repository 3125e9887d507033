//! Every experiment's own flags, as its `flags.rs` in the lib describes them, made clap
//! arguments (in the registry's order), and their values read back by name for the lib to
//! set the configs with.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches};
use contention::experiment::Measure;
use contention::flags::{Dash, Flag, Form, Given};
use contention::registry::Visitor;
use contention::Experiment;

/// The values given to every experiment's own flags (part of every measuring command).
#[derive(Debug, Clone, Default)]
pub struct ExperimentFlags {
    pub given: Given,
}

/// One of an experiment's own flags, as the command line holds it.
struct OwnFlag {
    name: &'static str,
    form: Form,
    /// Whether it skips the real runtime measured beside the model (`--no-go`).
    skips_runtime: bool,
    arg: Arg,
}

struct OwnFlags;

impl Visitor for OwnFlags {
    type Output = Vec<OwnFlag>;
    fn visit<K: Measure>(self) -> Vec<OwnFlag> {
        let flags = K::flags().own;
        let own = |flag: &Flag<K::Config>| OwnFlag {
            name: flag.name,
            form: flag.form,
            skips_runtime: flag.skips_runtime(),
            arg: arg(flag),
        };
        flags.iter().map(own).collect()
    }
}

/// Every experiment's own flags, in the registry's order.
fn every_own_flag() -> impl Iterator<Item = OwnFlag> {
    Experiment::ALL.iter().flat_map(|&experiment| experiment.visit(OwnFlags))
}

/// Whether `name` is a switch that skips a real runtime rather than sizing a run.
pub fn skips_runtime(name: &str) -> bool {
    every_own_flag().any(|flag| flag.skips_runtime && flag.name == name)
}

/// The clap argument of `flag`: its long name is its id, and its check refuses a value as
/// every bad value is refused (`invalid {flag} = {value}: {allowed}`).
fn arg<C>(flag: &Flag<C>) -> Arg {
    let arg = Arg::new(flag.name).long(flag.name).help(flag.help).required(false);
    if flag.form == Form::Switch {
        return arg.action(ArgAction::SetTrue);
    }
    let arg = arg.value_name(flag.value_name);
    let arg = if flag.choices.is_empty() {
        let check = flag.check.clone();
        arg.value_parser(move |text: &str| check(text).map(|()| text.to_string()))
    } else {
        let choice = |&(name, help): &(&'static str, &'static str)| match help {
            "" => PossibleValue::new(name),
            help => PossibleValue::new(name).help(help),
        };
        arg.value_parser(PossibleValuesParser::new(flag.choices.iter().map(choice)))
    };
    let arg = match flag.form {
        Form::List => arg.action(ArgAction::Append).value_delimiter(','),
        _ => arg.action(ArgAction::Set),
    };
    match flag.dash {
        Dash::Never => arg,
        Dash::Number => arg.allow_negative_numbers(true),
        Dash::Always => arg.allow_hyphen_values(true),
    }
}

impl clap::Args for ExperimentFlags {
    fn augment_args(command: Command) -> Command {
        every_own_flag().fold(command, |command, flag| command.arg(flag.arg))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for ExperimentFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Given::default();
        for flag in every_own_flag() {
            match flag.form {
                Form::Switch if matches.get_flag(flag.name) => given.insert(flag.name, Vec::new()),
                Form::Switch => {}
                _ => {
                    if let Some(texts) = matches.get_many::<String>(flag.name) {
                        given.insert(flag.name, texts.cloned().collect());
                    }
                }
            }
        }
        Ok(Self { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
