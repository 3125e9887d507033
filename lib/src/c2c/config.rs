//! The matrix's config: which CPUs, how many samples, the budget, and the method.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::unpinned;
use crate::error::ConfigError;
use crate::limits::{check_duration, check_range, MAX_BUDGET, MAX_ROUND_TRIPS_PER_PAIR, MAX_ROWS};
use crate::machine::available_cpu_ids;

/// The quick profile measures at most this many CPUs (spread over the machine), so a
/// many-core machine still finishes in seconds: n CPUs make n(n-1)/2 pairs.
pub const QUICK_MAX_CPUS: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Logical CPU ids to measure, every pair of them; empty means every CPU this process
    /// may run on.
    pub cpus: Vec<usize>,
    /// Measured samples per pair (one more is taken first and dropped).
    pub samples_per_pair: usize,
    pub round_trips_per_sample: u64,
    /// Wall-clock allowance; checked between pairs (between batches, unpinned).
    pub budget: Duration,
    /// Measure by the unpinned method even where threads can be pinned (`--unpinned`).
    #[serde(default)]
    pub unpinned: bool,
}

impl Default for Config {
    /// Every CPU, 100 samples of 1000 round trips per pair.
    fn default() -> Self {
        Self {
            cpus: Vec::new(),
            samples_per_pair: 100,
            round_trips_per_sample: 1000,
            budget: Duration::from_secs(300),
            unpinned: false,
        }
    }
}

impl Config {
    /// Seconds: at most [`QUICK_MAX_CPUS`] CPUs, 50 samples of 200 round trips per pair.
    pub fn quick() -> Self {
        let available = available_cpu_ids();
        Self {
            cpus: if available.len() > QUICK_MAX_CPUS { spread(&available, QUICK_MAX_CPUS) } else { Vec::new() },
            samples_per_pair: 50,
            round_trips_per_sample: 200,
            budget: Duration::from_secs(5),
            unpinned: false,
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        check_duration("budget", self.budget, Duration::ZERO, MAX_BUDGET)?;
        self.check_unpinned()?;
        self.check_cpus()?;
        let most_round_trips = MAX_ROUND_TRIPS_PER_PAIR / 2;
        check_range("round_trips_per_sample", self.round_trips_per_sample, 1, most_round_trips, "round trips")?;
        let cpus = self.cpus_to_measure().len();
        let pairs = cpus.saturating_mul(cpus.saturating_sub(1)) / 2;
        crate::limits::check_cases("cpus", pairs, &format!("pairs of {cpus} CPUs (list fewer with --cpus)"))?;
        // One more sample per pair is taken and dropped.
        let by_rows = (MAX_ROWS / pairs.max(1)).saturating_sub(1);
        let by_time = usize::try_from(MAX_ROUND_TRIPS_PER_PAIR / self.round_trips_per_sample - 1).unwrap_or(usize::MAX);
        let most_samples = by_rows.min(by_time);
        if most_samples == 0 {
            let allowed = format!("few enough CPUs that {pairs} pairs fit in {MAX_ROWS} rows: list fewer with --cpus");
            return Err(ConfigError::new("cpus", format!("{cpus} CPUs"), allowed));
        }
        let pairs_in_words = if pairs == 1 { "1 pair".to_string() } else { format!("{pairs} pairs") };
        let unit = format!(
            "samples per pair ({pairs_in_words} of CPUs; a run keeps at most {MAX_ROWS} rows, a pair at most \
             {MAX_ROUND_TRIPS_PER_PAIR} round trips)"
        );
        check_range("samples", self.samples_per_pair, 1, most_samples, &unit)
    }

    /// Whether [`run`] measures by the unpinned method: asked for, or where the OS cannot
    /// pin but tells which CPU a thread runs on.
    pub fn measures_unpinned(&self) -> bool {
        self.unpinned || (crate::platform::pinning_unavailable().is_some() && crate::platform::current_cpu().is_ok())
    }

    /// The unpinned method needs the CPU number and measures the pairs the scheduler gives.
    fn check_unpinned(&self) -> Result<(), ConfigError> {
        if !self.unpinned {
            return Ok(());
        }
        if let Err(why) = crate::platform::current_cpu() {
            return Err(ConfigError::new(
                "unpinned",
                true,
                format!("a build that reads which CPU a thread runs on; {why}"),
            ));
        }
        match self.cpus.first() {
            Some(cpu) => Err(ConfigError::new("cpus", cpu, "no list with --unpinned: the scheduler picks the pairs")),
            None => Ok(()),
        }
    }

    /// Listed CPUs must be ones this process may run on, each once, at least two.
    fn check_cpus(&self) -> Result<(), ConfigError> {
        if self.cpus.is_empty() {
            return Ok(());
        }
        let available = available_cpu_ids();
        if let Some(why) = crate::machine::cpu_ids_unnamed() {
            return Err(ConfigError::new(
                "cpus",
                self.cpus[0],
                format!("a logical CPU this process may run on; none is named here: {why}"),
            ));
        }
        let listed = available.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        for (index, cpu) in self.cpus.iter().enumerate() {
            if !available.contains(cpu) {
                return Err(ConfigError::new("cpus", cpu, format!("a logical CPU this process may run on: {listed}")));
            }
            if self.cpus[..index].contains(cpu) {
                return Err(ConfigError::new("cpus", cpu, "each CPU listed once"));
            }
        }
        if self.cpus.len() < 2 {
            return Err(ConfigError::new("cpus", self.cpus[0], format!("at least two CPUs to pair, from {listed}")));
        }
        Ok(())
    }

    /// The CPUs this config measures.
    pub fn cpus_to_measure(&self) -> Vec<usize> {
        if self.measures_unpinned() {
            unpinned::machine_cpus()
        } else if self.cpus.is_empty() {
            available_cpu_ids()
        } else {
            self.cpus.clone()
        }
    }
}

/// `count` ids evenly spread over `ids` (first and last included), or all of them.
fn spread(ids: &[usize], count: usize) -> Vec<usize> {
    if ids.len() <= count || count < 2 {
        return ids.iter().copied().take(count.max(2)).collect();
    }
    (0..count).map(|step| ids[step * (ids.len() - 1) / (count - 1)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_picks_first_last_and_evenly_between() {
        let ids: Vec<usize> = (0..16).collect();
        assert_eq!(spread(&ids, 4), vec![0, 5, 10, 15]);
        assert_eq!(spread(&[0, 1], 8), vec![0, 1]);
    }
}
