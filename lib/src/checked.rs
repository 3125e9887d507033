//! What a saved row must hold beyond its types: a thread count of at least one, times and
//! rates that are finite and not negative, probabilities between 0 and 1. A file edited by
//! hand (or by anything but this lab) is refused at the first value that could not have
//! been measured, named by file, line and column with what is allowed.

/// One value a row cannot hold: its column, the value as written, and what is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct BadValue {
    pub column: &'static str,
    pub value: String,
    pub allowed: &'static str,
}

/// A saved row whose values can be checked after it is parsed: each type names its columns
/// by what they hold, and [`CheckedRow::check`] applies the rule of each kind.
pub trait CheckedRow {
    /// Columns that count something that must exist (threads, CPUs): at least 1.
    fn counts(&self) -> Vec<(&'static str, u64)>;
    /// Times, rates and shares: finite and at least 0.
    fn amounts(&self) -> Vec<(&'static str, f64)>;
    /// Probabilities: from 0 to 1.
    fn probabilities(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// Checks the program that wrote the row made of its own result (a real runtime's
    /// `verified`): each must be true.
    fn checks(&self) -> Vec<(&'static str, bool)> {
        Vec::new()
    }

    /// The first value this row cannot hold, in the order checks, probabilities, counts, amounts.
    fn check(&self) -> Result<(), BadValue> {
        all(passed, &self.checks())?;
        all(probability, &self.probabilities())?;
        all(at_least_one, &self.counts())?;
        all(not_negative, &self.amounts())
    }
}

const COUNT: &str = "a whole number of at least 1";
const NOT_NEGATIVE: &str = "a finite number of at least 0";
const PROBABILITY: &str = "a probability from 0 to 1";
const PASSED: &str = "true (the program that measured it checked its own result)";

/// A check the measuring program made of its result: it held.
fn passed(column: &'static str, value: bool) -> Result<(), BadValue> {
    if value {
        return Ok(());
    }
    Err(BadValue { column, value: value.to_string(), allowed: PASSED })
}

/// At least one (threads, strides, CPUs, round trips).
fn at_least_one(column: &'static str, value: u64) -> Result<(), BadValue> {
    if value >= 1 {
        return Ok(());
    }
    Err(BadValue { column, value: value.to_string(), allowed: COUNT })
}

/// Finite and at least 0 (times, rates, shares).
fn not_negative(column: &'static str, value: f64) -> Result<(), BadValue> {
    if value.is_finite() && value >= 0.0 {
        return Ok(());
    }
    Err(BadValue { column, value: value.to_string(), allowed: NOT_NEGATIVE })
}

fn probability(column: &'static str, value: f64) -> Result<(), BadValue> {
    if (0.0..=1.0).contains(&value) {
        return Ok(());
    }
    Err(BadValue { column, value: value.to_string(), allowed: PROBABILITY })
}

/// Each `(column, value)` checked by `rule`, in order.
fn all<T: Copy>(
    rule: fn(&'static str, T) -> Result<(), BadValue>,
    values: &[(&'static str, T)],
) -> Result<(), BadValue> {
    values.iter().try_for_each(|&(column, value)| rule(column, value))
}

/// Implements [`CheckedRow`] for a row type from its field names (which are its columns);
/// each experiment invokes it beside its row type.
macro_rules! checked_row {
    ($row:ty, counts: [$($count:ident),*], amounts: [$($amount:ident),*] $(, probabilities: [$($p:ident),*])? $(, checked: [$($flag:ident),*])?) => {
        impl $crate::checked::CheckedRow for $row {
            fn counts(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($count), self.$count)),*]
            }

            fn amounts(&self) -> Vec<(&'static str, f64)> {
                vec![$((stringify!($amount), self.$amount)),*]
            }

            $(fn probabilities(&self) -> Vec<(&'static str, f64)> {
                vec![$((stringify!($p), self.$p)),*]
            })?

            $(fn checks(&self) -> Vec<(&'static str, bool)> {
                vec![$((stringify!($flag), self.$flag)),*]
            })?
        }
    };
}
pub(crate) use checked_row;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_names_the_column_the_value_and_what_is_allowed() {
        assert!(at_least_one("threads", 1).is_ok());
        let zero = at_least_one("threads", 0).unwrap_err();
        assert_eq!((zero.column, zero.value.as_str(), zero.allowed), ("threads", "0", COUNT));
        assert_eq!(not_negative("p99_ms", -1.5).unwrap_err().value, "-1.5");
        assert!(not_negative("p99_ms", f64::NAN).is_err() && not_negative("p99_ms", 0.0).is_ok());
        assert_eq!(probability("hit_rate", 5.0).unwrap_err().allowed, PROBABILITY);
        assert!(probability("hit_rate", 0.97).is_ok());
    }
}
