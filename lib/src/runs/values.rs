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

    /// The first value this row cannot hold, in the order probabilities, counts, amounts.
    fn check(&self) -> Result<(), BadValue> {
        all(probability, &self.probabilities())?;
        all(at_least_one, &self.counts())?;
        all(not_negative, &self.amounts())
    }
}

const COUNT: &str = "a whole number of at least 1";
const NOT_NEGATIVE: &str = "a finite number of at least 0";
const PROBABILITY: &str = "a probability from 0 to 1";

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

/// Implements [`CheckedRow`] for a row type from its field names (which are its columns).
macro_rules! checked_row {
    ($row:ty, counts: [$($count:ident),*], amounts: [$($amount:ident),*] $(, probabilities: [$($p:ident),*])?) => {
        impl CheckedRow for $row {
            fn counts(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($count), self.$count)),*]
            }

            fn amounts(&self) -> Vec<(&'static str, f64)> {
                vec![$((stringify!($amount), self.$amount)),*]
            }

            $(fn probabilities(&self) -> Vec<(&'static str, f64)> {
                vec![$((stringify!($p), self.$p)),*]
            })?
        }
    };
}

checked_row!(crate::stride::Row, counts: [stride_bytes, threads], amounts: [ns_per_op]);
checked_row!(crate::sharing::Row, counts: [threads], amounts: [ns_per_increment]);
checked_row!(crate::counters::Row, counts: [threads, cells], amounts: [ns_per_increment]);
checked_row!(crate::c2c::Row, counts: [round_trips], amounts: [one_way_ns]);
checked_row!(crate::fitness::Row, counts: [threads], amounts: [ns_per_op]);
checked_row!(crate::gc::Row, counts: [threads], amounts: [ops_per_sec, cycles_per_sec, pause_share]);
checked_row!(
    crate::gc::GoRow,
    counts: [threads],
    amounts: [ops_per_sec, cycles_per_sec, pause_share, alloc_bytes_per_op, alloc_objects_per_op]
);
checked_row!(
    crate::locks::Row,
    counts: [threads, ops, logical_cpus],
    amounts: [ns_per_op, ops_per_sec, wait_ms],
    probabilities: [read_share, min_share, max_share, blocked_share]
);
checked_row!(
    crate::locks::JavaRow,
    counts: [threads, ops],
    amounts: [ns_per_op, ops_per_sec],
    probabilities: [read_share, min_share, max_share, blocked_share]
);
checked_row!(
    crate::pool::Row,
    counts: [pool_threads, cpus],
    amounts: [
        offered_rate_per_s, mean_wait_ms, queue_timeout_ms, completed_per_s, capacity_per_sec, mean_ms, p50_ms,
        p99_ms, p999_ms, max_ms, hit_p99_ms, miss_p99_ms, lock_wait_ms, db_wait_ms, run_delay_ms, cpu_share,
        switch_cost_ns
    ],
    probabilities: [hit_rate]
);

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
