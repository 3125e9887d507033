//! What a saved row must hold beyond its types: counts of at least one, thread and CPU
//! counts and CPU ids a machine can have, times and rates that are 0 or within a physical
//! range (never subnormal, never infinite), probabilities between 0 and 1, text without
//! control characters. The bounds are [`crate::limits::saved`]'s and
//! [`crate::limits::cpus`]'s, the same the flags apply. A file edited by hand (or by
//! anything but this lab) is refused at the first value that could not have been measured,
//! named by file, line and column with what is allowed. [`text`] holds the checks on text
//! from outside that the run reader, the experiments and the room share.

pub mod text;

use crate::limits::cpus::{cpu_ids, MAX_CPU_ID};
use crate::limits::saved::{MAX_AMOUNT, MAX_COUNT, MAX_THREADS, MIN_AMOUNT};

/// One value a row cannot hold: its column, the value as written, and what is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct BadValue {
    pub column: &'static str,
    pub value: String,
    pub allowed: String,
}

/// A saved row whose values can be checked after it is parsed: each type names its columns
/// by what they hold, and [`CheckedRow::check`] applies the rule of each kind.
pub trait CheckedRow {
    /// Columns that count something that must exist (strides, round trips, cells): at
    /// least 1, at most [`MAX_COUNT`].
    fn counts(&self) -> Vec<(&'static str, u64)>;
    /// Times, rates and shares: 0, or finite within [`MIN_AMOUNT`] to [`MAX_AMOUNT`].
    fn amounts(&self) -> Vec<(&'static str, f64)>;
    /// Threads and CPUs counted: 1 to [`MAX_THREADS`].
    fn threads(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
    /// CPU ids: 0 to [`MAX_CPU_ID`].
    fn cpu_ids(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
    /// CPU lists ("0,2,4,6"), as [`cpu_ids`] reads them.
    fn cpu_lists(&self) -> Vec<(&'static str, &str)> {
        Vec::new()
    }
    /// Short text (a version, a metric's name): printable, at most [`MAX_CELL_CHARS`].
    fn texts(&self) -> Vec<(&'static str, &str)> {
        Vec::new()
    }
    /// Probabilities: from 0 to 1.
    fn probabilities(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
    /// Which case of its experiment the row belongs to (a stride, a pair of CPUs, a GC
    /// cell), hashed: a file may hold at most [`crate::limits::saved::MAX_CASES`] of them.
    /// Experiments with a fixed set of cases need not say.
    fn case_key(&self) -> u64 {
        0
    }

    /// Checks the program that wrote the row made of its own result (a real runtime's
    /// `verified`): each must be true.
    fn checks(&self) -> Vec<(&'static str, bool)> {
        Vec::new()
    }

    /// The first value this row cannot hold, in the order checks, probabilities, counts,
    /// threads, CPU ids, CPU lists, text, amounts.
    fn check(&self) -> Result<(), BadValue> {
        all(passed, &self.checks())?;
        all(probability, &self.probabilities())?;
        all(count, &self.counts())?;
        all(thread_count, &self.threads())?;
        all(cpu_id, &self.cpu_ids())?;
        self.cpu_lists().into_iter().try_for_each(|(column, list)| cpu_list(column, list))?;
        self.texts().into_iter().try_for_each(|(column, text)| short_text(column, text))?;
        all(amount, &self.amounts())
    }
}

/// A check the measuring program made of its result: it held.
fn passed(column: &'static str, value: bool) -> Result<(), BadValue> {
    if value {
        return Ok(());
    }
    Err(bad(column, value, "true (the program that measured it checked its own result)".into()))
}

/// The longest text cell accepted.
pub const MAX_CELL_CHARS: usize = 256;

fn bad(column: &'static str, value: impl ToString, allowed: String) -> BadValue {
    BadValue { column, value: value.to_string(), allowed }
}

fn count(column: &'static str, value: u64) -> Result<(), BadValue> {
    if (1..=MAX_COUNT).contains(&value) {
        return Ok(());
    }
    Err(bad(column, value, format!("a whole number from 1 to {MAX_COUNT}")))
}

fn thread_count(column: &'static str, value: u64) -> Result<(), BadValue> {
    if (1..=MAX_THREADS).contains(&value) {
        return Ok(());
    }
    Err(bad(column, value, format!("a whole number from 1 to {MAX_THREADS}")))
}

fn cpu_id(column: &'static str, value: u64) -> Result<(), BadValue> {
    if value <= MAX_CPU_ID as u64 {
        return Ok(());
    }
    Err(bad(column, value, format!("a CPU id from 0 to {MAX_CPU_ID}")))
}

fn cpu_list(column: &'static str, list: &str) -> Result<(), BadValue> {
    cpu_ids(list).map(drop).map_err(|why| {
        let shown: String = list.chars().take(40).collect();
        bad(column, format!("'{shown}'"), format!("{why}: {}", crate::limits::cpus::cpu_list_allowed()))
    })
}

fn short_text(column: &'static str, text: &str) -> Result<(), BadValue> {
    match text::check_text(text, MAX_CELL_CHARS, false) {
        Ok(()) => Ok(()),
        Err(why) => Err(bad(column, format!("'{}'", text::visible(&text.chars().take(40).collect::<String>())), why)),
    }
}

/// 0, or finite within [`MIN_AMOUNT`] to [`MAX_AMOUNT`] (times, rates, shares): never
/// negative, subnormal, infinite or NaN.
fn amount(column: &'static str, value: f64) -> Result<(), BadValue> {
    if value == 0.0 || (MIN_AMOUNT..=MAX_AMOUNT).contains(&value) {
        return Ok(());
    }
    Err(bad(column, number_text(value), format!("0, or a number from {MIN_AMOUNT:e} to {MAX_AMOUNT:e}")))
}

/// A number as a message quotes it: as Rust writes it, or in exponent form when that would
/// run to many digits ("1e-320", not 320 zeros).
pub(crate) fn number_text(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-6..1e16).contains(&magnitude) {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

fn probability(column: &'static str, value: f64) -> Result<(), BadValue> {
    if (0.0..=1.0).contains(&value) {
        return Ok(());
    }
    Err(bad(column, number_text(value), "a probability from 0 to 1".into()))
}

/// Each `(column, value)` checked by `rule`, in order.
fn all<T: Copy>(
    rule: fn(&'static str, T) -> Result<(), BadValue>,
    values: &[(&'static str, T)],
) -> Result<(), BadValue> {
    values.iter().try_for_each(|&(column, value)| rule(column, value))
}

/// Implements [`CheckedRow`] for a row type from its field names (which are its columns);
/// each experiment invokes it beside its row type, `cases` naming what makes a row's case
/// where an experiment's cases are open-ended.
macro_rules! checked_row {
    (
        $row:ty, counts: [$($count:ident),*], amounts: [$($amount:ident),*]
        $(, threads: [$($thread:ident),*])?
        $(, cpu_ids: [$($cpu:ident),*])?
        $(, cpu_lists: [$($list:ident),*])?
        $(, texts: [$($text:ident),*])?
        $(, probabilities: [$($p:ident),*])?
        $(, checked: [$($flag:ident),*])?
        $(, cases: |$r:ident| $key:expr)?
    ) => {
        impl $crate::checked::CheckedRow for $row {
            fn counts(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($count), self.$count)),*]
            }

            fn amounts(&self) -> Vec<(&'static str, f64)> {
                vec![$((stringify!($amount), self.$amount)),*]
            }

            $(fn threads(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($thread), self.$thread)),*]
            })?

            $(fn cpu_ids(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($cpu), self.$cpu)),*]
            })?

            $(fn cpu_lists(&self) -> Vec<(&'static str, &str)> {
                vec![$((stringify!($list), self.$list.as_str())),*]
            })?

            $(fn texts(&self) -> Vec<(&'static str, &str)> {
                vec![$((stringify!($text), self.$text.as_str())),*]
            })?

            $(fn probabilities(&self) -> Vec<(&'static str, f64)> {
                vec![$((stringify!($p), self.$p)),*]
            })?

            $(fn checks(&self) -> Vec<(&'static str, bool)> {
                vec![$((stringify!($flag), self.$flag)),*]
            })?

            $(fn case_key(&self) -> u64 {
                let $r = self;
                $crate::checked::hash_case($key)
            })?
        }
    };
}

pub(crate) use checked_row;

/// Implements [`CheckedRow::case_key`]'s hash from the fields that make a row's case.
pub(crate) fn hash_case(key: impl std::hash::Hash) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_names_the_column_the_value_and_what_is_allowed() {
        assert!(thread_count("threads", 1).is_ok() && thread_count("threads", 4096).is_ok());
        let zero = thread_count("threads", 0).unwrap_err();
        assert_eq!((zero.column, zero.value.as_str()), ("threads", "0"));
        assert_eq!(zero.allowed, "a whole number from 1 to 4096");
        assert!(thread_count("threads", 4097).is_err() && count("cells", 0).is_err());
        assert_eq!(amount("p99_ms", -1.5).unwrap_err().value, "-1.5");
        assert_eq!(amount("p99_ms", -1.5).unwrap_err().allowed, "0, or a number from 1e-12 to 1e15");
        assert!(amount("p99_ms", f64::NAN).is_err() && amount("p99_ms", 0.0).is_ok());
        assert!(probability("hit_rate", 5.0).is_err() && probability("hit_rate", 0.97).is_ok());
    }

    #[test]
    fn subnormal_huge_and_absurd_values_are_refused() {
        for value in [1e-320, 5e-324, 1e308, f64::INFINITY, 1e-13, 2e15] {
            assert!(amount("ns_per_op", value).is_err(), "{value}");
        }
        assert!(cpu_id("cpu_a", 4095).is_ok() && cpu_id("cpu_a", 4096).is_err());
        let error = cpu_list("cpus", "0-100000").unwrap_err();
        assert_eq!(error.value, "'0-100000'");
        assert!(error.allowed.starts_with("CPU 100000 is above 4095: CPU ids from 0 to 4095"), "{error:?}");
        assert!(short_text("go_version", "go1.19.8").is_ok());
        assert!(short_text("go_version", "go\u{1b}[2J").is_err());
    }
}
