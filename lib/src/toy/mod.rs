//! A toy experiment, compiled only in tests: the worked example of "Adding an experiment"
//! (the crate's documentation). It times summing a slice of numbers. All of it is this
//! folder and the line `Toy => toy::Toy;` in the registry's list; the tests below
//! show that the registry's loops (sections, the room's effects, names) take it up.

mod present;

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
    runtime_row: crate::experiment::NoRows,
);

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Measure;
    use crate::registry::Experiment;

    #[test]
    fn the_toy_measures_and_sums_right() {
        let config = Toy::quick();
        Toy::validate(&config).unwrap();
        let rows = Toy::run(&config, &mut |_| {}).unwrap().rows;
        assert_eq!(rows.len(), config.trials);
        assert!(rows.iter().all(|row| row.sum == config.values * (config.values + 1) / 2));
        assert_eq!(Toy::summarize(&rows)[0].samples, config.trials);
        let refused = Toy::validate(&Config { trials: 0, ..config }).unwrap_err().to_string();
        assert!(refused.contains("trials") && refused.contains("at least 1"), "{refused}");
    }

    #[test]
    fn one_registry_line_brings_the_toy_into_every_loop() {
        assert_eq!(Experiment::from_name(EXPERIMENT), Some(Experiment::Toy));
        assert_eq!(Experiment::ALL.last(), Some(&Experiment::Toy));
        assert_eq!(crate::present::room::effects().last().map(|effect| effect.id), Some(present::EFFECT.id));
        let sections = crate::present::sections(&[]).unwrap();
        let toy = sections.iter().find(|section| section.experiment == EXPERIMENT).expect("no toy section");
        assert_eq!(toy.title, present::TITLE);
        assert!(!toy.prose.is_empty(), "the toy's prose was not shown");
        assert_eq!(toy.summary(), "Not measured.");
    }
}
