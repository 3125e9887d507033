//! An experiment's flags, described without a command-line parser: each experiment's
//! `flags.rs` says which of the lab's shared flags it reads and how ([`Shared`]), and which
//! flags of its own it has ([`Flag`]: name, value name, help, the parser of one value and how
//! the value sets the config). The command line turns the description into its flags; the
//! lib names no parser crate. A value refused is a [`ConfigError`]: the flag, the value as
//! given and what is allowed.

use std::sync::Arc;
use std::time::Duration;

use crate::error::ConfigError;
use crate::limits::{duration_from_seconds, MAX_TRIAL, MIN_TRIAL};

/// What one experiment reads from the command line: the shared flags, in the order they are
/// applied, then its own.
#[derive(Debug)]
pub struct Flags<C> {
    pub shared: Vec<Shared<C>>,
    pub own: Vec<Flag<C>>,
    /// Checks across its own flags once they are set, made only when the experiment was asked
    /// for (the values it was given, by flag name).
    pub settle: fn(&mut C, &Given) -> Result<(), ConfigError>,
}

impl<C> Default for Flags<C> {
    fn default() -> Self {
        Self { shared: Vec::new(), own: Vec::new(), settle: |_, _| Ok(()) }
    }
}

impl<C> Flags<C> {
    /// Sets each own flag `given` holds on `config` and, when the experiment was `selected`,
    /// those read only then and the checks across them.
    pub fn apply_own(&self, config: &mut C, given: &Given, selected: bool) -> Result<(), ConfigError> {
        for flag in self.own.iter().filter(|flag| selected || !flag.selected_only) {
            if let (Some(texts), Some(set)) = (given.get(flag.name), &flag.set) {
                set(config, texts).map_err(|allowed| ConfigError::new(flag.name, texts.join(","), allowed))?;
            }
        }
        if selected {
            (self.settle)(config, given)?;
        }
        Ok(())
    }

    /// The sense in which it reads `--seconds`, if it does.
    pub fn seconds_sense(&self) -> Option<&'static str> {
        self.shared.iter().find_map(|shared| match shared {
            Shared::Seconds { sense, .. } => Some(*sense),
            _ => None,
        })
    }

    /// The most threads it takes, if it reads `--threads`.
    pub fn most_threads(&self) -> Option<usize> {
        self.shared.iter().find_map(|shared| match shared {
            Shared::Threads { most, .. } => Some(*most),
            _ => None,
        })
    }
}

/// A flag several experiments read, and how this one sets its config from it.
#[derive(Debug)]
pub enum Shared<C> {
    /// `--threads`, at most `most`.
    Threads { most: usize, read: Threads<C> },
    /// `--iters`: increments per thread.
    Iters(fn(&mut C, u64)),
    /// `--trials`: measured trials per case.
    Trials(fn(&mut C, usize)),
    /// `--total`: increments in total.
    Total(fn(&mut C, u64)),
    /// `--seconds`, read in a sense of its own (e.g. "the seconds each GC trial runs").
    Seconds { sense: &'static str, set: fn(&mut C, Duration) },
}

impl<C> Shared<C> {
    /// The flag's name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Shared::Threads { .. } => "threads",
            Shared::Iters(_) => "iters",
            Shared::Trials(_) => "trials",
            Shared::Total(_) => "total",
            Shared::Seconds { .. } => "seconds",
        }
    }
}

/// How an experiment reads `--threads`.
#[derive(Debug)]
pub enum Threads<C> {
    /// One count; `what` names the experiment in the refusal of a list ("the stride sweep").
    One { what: &'static str, set: fn(&mut C, usize) },
    /// A list of counts.
    List(fn(&mut C, Vec<usize>)),
}

/// What a flag takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Nothing: it is given or not.
    Switch,
    /// One value.
    One,
    /// Values separated by commas.
    List,
}

/// Whether a value may start with '-' (else such a word is read as the next flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    Never,
    /// When the value is a number.
    Number,
    /// Always (a list whose first value is negative).
    Always,
}

/// Checks one value as given: what is allowed, when it is refused.
pub type Check = Arc<dyn Fn(&str) -> Result<(), String> + Send + Sync>;
type Set<C> = Box<dyn Fn(&mut C, &[String]) -> Result<(), String> + Send + Sync>;

/// One of an experiment's own flags.
pub struct Flag<C> {
    /// Its long name, e.g. "strides" for `--strides`.
    pub name: &'static str,
    /// The name of its value in the help, e.g. "BYTES" ("" for a switch).
    pub value_name: &'static str,
    /// Its line of help.
    pub help: &'static str,
    pub form: Form,
    pub dash: Dash,
    /// The only values it takes, each with its line of help ("" for none); empty: any value
    /// its check allows.
    pub choices: &'static [(&'static str, &'static str)],
    /// Read only when its experiment was asked for (a list checked as a whole).
    pub selected_only: bool,
    /// Checks one value (one item of a list).
    pub check: Check,
    /// Sets the config from the values given; `None`: a switch read beside the config, that
    /// skips the real runtime measured beside the model.
    set: Option<Set<C>>,
}

impl<C> std::fmt::Debug for Flag<C> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Flag").field("name", &self.name).field("form", &self.form).finish_non_exhaustive()
    }
}

impl<C: 'static> Flag<C> {
    fn new(name: &'static str, value_name: &'static str, help: &'static str, form: Form) -> Self {
        Self {
            name,
            value_name,
            help,
            form,
            dash: Dash::Never,
            choices: &[],
            selected_only: false,
            check: Arc::new(|_: &str| Ok(())),
            set: None,
        }
    }

    /// A flag of one value, read by `parse` (which says what is allowed when it refuses).
    pub fn one<V: 'static>(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
        parse: fn(&str) -> Result<V, String>,
        set: fn(&mut C, V),
    ) -> Self {
        let apply = move |config: &mut C, texts: &[String]| {
            let value = parse(texts.first().map_or("", String::as_str))?;
            set(config, value);
            Ok(())
        };
        Self { check: checker(parse), set: Some(Box::new(apply)), ..Self::new(name, value_name, help, Form::One) }
    }

    /// A flag of values separated by commas, each read by `parse`.
    pub fn list<V: 'static>(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
        parse: fn(&str) -> Result<V, String>,
        set: fn(&mut C, Vec<V>),
    ) -> Self {
        let apply = move |config: &mut C, texts: &[String]| {
            set(config, texts.iter().map(|text| parse(text)).collect::<Result<_, _>>()?);
            Ok(())
        };
        Self { check: checker(parse), set: Some(Box::new(apply)), ..Self::new(name, value_name, help, Form::List) }
    }

    /// A list, as [`Flag::list`], that `set` may refuse as a whole, saying what is allowed.
    pub fn whole_list<V: 'static>(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
        parse: fn(&str) -> Result<V, String>,
        set: fn(&mut C, Vec<V>) -> Result<(), String>,
    ) -> Self {
        let apply = move |config: &mut C, texts: &[String]| {
            set(config, texts.iter().map(|text| parse(text)).collect::<Result<_, _>>()?)
        };
        Self { check: checker(parse), set: Some(Box::new(apply)), ..Self::new(name, value_name, help, Form::List) }
    }

    /// A flag without a value.
    pub fn switch(name: &'static str, help: &'static str, set: fn(&mut C)) -> Self {
        let apply = move |config: &mut C, _texts: &[String]| {
            set(config);
            Ok(())
        };
        Self { set: Some(Box::new(apply)), ..Self::new(name, "", help, Form::Switch) }
    }

    /// The switch that skips the real runtime measured beside the model (`--no-go`).
    pub fn skip_runtime(name: &'static str, help: &'static str) -> Self {
        Self::new(name, "", help, Form::Switch)
    }

    /// Whether it is the switch that skips the real runtime.
    pub fn skips_runtime(&self) -> bool {
        self.set.is_none()
    }

    /// Its values may start with '-' as `dash` says, so that a negative one is refused by its
    /// check, naming what is allowed.
    pub fn dash(self, dash: Dash) -> Self {
        Self { dash, ..self }
    }

    /// It takes only these values.
    pub fn choices(self, choices: &'static [(&'static str, &'static str)]) -> Self {
        Self { choices, ..self }
    }

    /// It is read only when its experiment was asked for.
    pub fn selected_only(self) -> Self {
        Self { selected_only: true, ..self }
    }
}

fn checker<V: 'static>(parse: fn(&str) -> Result<V, String>) -> Check {
    Arc::new(move |text: &str| parse(text).map(drop))
}

/// The values given to an experiment's own flags, by flag name, as written (a list split at
/// its commas; a switch given holds none).
#[derive(Debug, Clone, Default)]
pub struct Given {
    values: Vec<(&'static str, Vec<String>)>,
}

impl Given {
    /// Records `texts` as given to the flag `name`.
    pub fn insert(&mut self, name: &'static str, texts: Vec<String>) {
        self.values.push((name, texts));
    }

    /// The values given to `name`, if it was given.
    pub fn get(&self, name: &str) -> Option<&[String]> {
        self.values.iter().find(|(given, _)| *given == name).map(|(_, texts)| texts.as_slice())
    }

    /// Whether `name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// A whole number from `low` to `high`, in decimal digits; `allowed` says so in words.
pub fn whole(text: &str, low: u64, high: u64, allowed: impl FnOnce() -> String) -> Result<u64, String> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(value) if digits && (low..=high).contains(&value) => Ok(value),
        _ => Err(allowed()),
    }
}

/// A count from 1 to `high` of `unit`s.
pub fn count(text: &str, high: u64, unit: &str) -> Result<usize, String> {
    whole(text, 1, high, || format!("1 to {high} {unit}")).map(|value| value as usize)
}

/// A finite decimal number within `range` (`open_low`: above its start, not at it).
pub fn number(
    text: &str,
    (low, high): (f64, f64),
    open_low: bool,
    allowed: impl FnOnce() -> String,
) -> Result<f64, String> {
    let plain = !text.starts_with('+') && !text.trim_start_matches('-').starts_with(|c: char| c.is_ascii_alphabetic());
    let in_range = |value: f64| value.is_finite() && value <= high && (value > low || (!open_low && value == low));
    match text.parse::<f64>() {
        Ok(value) if plain && in_range(value) => Ok(value),
        _ => Err(allowed()),
    }
}

/// Seconds from the shortest trial to the longest ([`MIN_TRIAL`] to [`MAX_TRIAL`]).
pub fn seconds(text: &str) -> Result<Duration, String> {
    let (low, high) = (MIN_TRIAL.as_secs_f64(), MAX_TRIAL.as_secs_f64());
    let allowed = || format!("{low} to {high} seconds");
    let value = number(text, (low, high), false, allowed)?;
    duration_from_seconds("seconds", value, MIN_TRIAL, MAX_TRIAL).map_err(|_| allowed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Sizes {
        widths: Vec<u64>,
    }

    #[test]
    fn a_list_is_checked_item_by_item_and_refused_whole_with_its_text() {
        let flags = Flags::<Sizes> {
            own: vec![Flag::whole_list(
                "widths",
                "N",
                "Widths",
                |text| whole(text, 1, 9, || "1 to 9".into()),
                |sizes, widths| {
                    if widths.len() > 2 {
                        return Err("at most two widths".into());
                    }
                    sizes.widths = widths;
                    Ok(())
                },
            )],
            ..Flags::default()
        };
        assert_eq!((flags.own[0].check)("10"), Err("1 to 9".into()));
        let mut given = Given::default();
        given.insert("widths", vec!["1".into(), "2".into()]);
        let mut sizes = Sizes::default();
        flags.apply_own(&mut sizes, &given, true).unwrap();
        assert_eq!(sizes.widths, [1, 2]);
        given = Given::default();
        given.insert("widths", vec!["1".into(), "2".into(), "3".into()]);
        let error = flags.apply_own(&mut sizes, &given, true).unwrap_err().to_string();
        assert_eq!(error, "invalid widths = 1,2,3: at most two widths");
    }

    #[test]
    fn numbers_are_plain_finite_and_in_range() {
        let allowed = || "0 to 1".to_string();
        assert_eq!(number("0.5", (0.0, 1.0), false, allowed), Ok(0.5));
        for bad in ["+0.5", "inf", "NaN", "-0.1", "1.5", "0"] {
            assert!(number(bad, (0.0, 1.0), true, allowed).is_err(), "{bad}");
        }
        assert!(whole("07", 1, 9, String::new).is_ok() && whole(" 7", 1, 9, String::new).is_err());
    }
}
