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

/// A saved row whose values can be checked after it is parsed.
pub trait CheckedRow {
    fn check(&self) -> Result<(), BadValue>;
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

impl CheckedRow for crate::stride::Row {
    fn check(&self) -> Result<(), BadValue> {
        all(at_least_one, &[("stride_bytes", self.stride_bytes), ("threads", self.threads)])?;
        not_negative("ns_per_op", self.ns_per_op)
    }
}

impl CheckedRow for crate::sharing::Row {
    fn check(&self) -> Result<(), BadValue> {
        at_least_one("threads", self.threads)?;
        not_negative("ns_per_increment", self.ns_per_increment)
    }
}

impl CheckedRow for crate::counters::Row {
    fn check(&self) -> Result<(), BadValue> {
        all(at_least_one, &[("threads", self.threads), ("cells", self.cells)])?;
        not_negative("ns_per_increment", self.ns_per_increment)
    }
}

impl CheckedRow for crate::c2c::Row {
    fn check(&self) -> Result<(), BadValue> {
        at_least_one("round_trips", self.round_trips)?;
        not_negative("one_way_ns", self.one_way_ns)
    }
}

impl CheckedRow for crate::fitness::Row {
    fn check(&self) -> Result<(), BadValue> {
        at_least_one("threads", self.threads)?;
        not_negative("ns_per_op", self.ns_per_op)
    }
}

impl CheckedRow for crate::gc::Row {
    fn check(&self) -> Result<(), BadValue> {
        at_least_one("threads", self.threads)?;
        let rates = [
            ("ops_per_sec", self.ops_per_sec),
            ("cycles_per_sec", self.cycles_per_sec),
            ("pause_share", self.pause_share),
        ];
        all(not_negative, &rates)
    }
}

impl CheckedRow for crate::gc::GoRow {
    fn check(&self) -> Result<(), BadValue> {
        at_least_one("threads", self.threads)?;
        let rates = [
            ("ops_per_sec", self.ops_per_sec),
            ("cycles_per_sec", self.cycles_per_sec),
            ("pause_share", self.pause_share),
            ("alloc_bytes_per_op", self.alloc_bytes_per_op),
            ("alloc_objects_per_op", self.alloc_objects_per_op),
        ];
        all(not_negative, &rates)
    }
}

impl CheckedRow for crate::pool::Row {
    fn check(&self) -> Result<(), BadValue> {
        probability("hit_rate", self.hit_rate)?;
        all(at_least_one, &[("pool_threads", self.pool_threads), ("cpus", self.cpus)])?;
        let times = [
            ("offered_rate_per_s", self.offered_rate_per_s),
            ("mean_wait_ms", self.mean_wait_ms),
            ("queue_timeout_ms", self.queue_timeout_ms),
            ("completed_per_s", self.completed_per_s),
            ("capacity_per_sec", self.capacity_per_sec),
            ("mean_ms", self.mean_ms),
            ("p50_ms", self.p50_ms),
            ("p99_ms", self.p99_ms),
            ("p999_ms", self.p999_ms),
            ("max_ms", self.max_ms),
            ("hit_p99_ms", self.hit_p99_ms),
            ("miss_p99_ms", self.miss_p99_ms),
            ("lock_wait_ms", self.lock_wait_ms),
            ("db_wait_ms", self.db_wait_ms),
            ("run_delay_ms", self.run_delay_ms),
            ("cpu_share", self.cpu_share),
            ("switch_cost_ns", self.switch_cost_ns),
        ];
        all(not_negative, &times)
    }
}

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
