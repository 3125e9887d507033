//! A toy experiment, compiled only in tests: the worked example of "Adding an experiment"
//! (the crate's documentation). It times summing a slice of numbers. All of it is this
//! folder (measuring side, flags, chart, `Present` with a claim, prose, a saved run), the
//! line `Toy => toy::Toy;` in the registry's list and a sentence in the README; its tests
//! show that the registry's loops (sections, the room's effects, claims, names) take it up.

mod chart;
mod flags;
mod present;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::error::{ConfigError, RunError};
use crate::harness::{Outcome, Progress};
use crate::stats::Summary;

pub const EXPERIMENT: &str = "toy";

/// The toy, as the experiment registry lists it.
#[derive(Debug, Clone, Copy)]
pub struct Toy;

crate::experiment::measure!(
    Toy,
    about: "A toy: the time to sum a slice of numbers (tests only).",
    summary: Summary,
    runtime_row: crate::experiment::NoRows;
    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);

/// The longest slice one trial sums (800 MB of numbers).
pub const MAX_VALUES: u64 = 100_000_000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Config {
    pub values: u64,
    pub trials: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self { values: 100_000, trials: 5 }
    }
}

impl Config {
    pub fn quick() -> Self {
        Self { values: 1_000, trials: 3 }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_VALUES).contains(&self.values) {
            return Err(ConfigError::new("values", self.values, format!("1 to {MAX_VALUES} numbers")));
        }
        if self.trials == 0 {
            return Err(ConfigError::new("trials", self.trials, "at least 1"));
        }
        Ok(())
    }
}

/// One timed sum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub trial: u64,
    pub values: u64,
    pub sum: u64,
    pub ns_per_value: f64,
}

crate::checked::checked_row!(Row, counts: [values], amounts: [ns_per_value]);

pub fn run(config: &Config, _progress: Progress) -> Result<Outcome<Row>, RunError> {
    let numbers: Vec<u64> = (1..=config.values).collect();
    let rows = (0..config.trials as u64)
        .map(|trial| {
            let started = std::time::Instant::now();
            let sum: u64 = std::hint::black_box(&numbers).iter().sum();
            let elapsed = started.elapsed().as_nanos() as f64;
            Row { trial, values: config.values, sum, ns_per_value: elapsed / config.values as f64 }
        })
        .collect();
    Ok(Outcome { rows, budget_exhausted: false })
}

/// The time per value over the trials.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    Summary::of(&rows.iter().map(|row| row.ns_per_value).collect::<Vec<_>>()).into_iter().collect()
}
