//! What the refill experiment measures: working sets sized from this machine's L1 and L2,
//! and what the other thread touches, sized from its L2 and L3.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::limits::{check_range, check_trials, check_warmup_and_budget};
use crate::machine::data_cache;

/// The largest working set or buffer accepted: well past any L3, small beside memory.
pub const MAX_BUFFER_BYTES: usize = 1 << 30;
/// Sizes assumed where sysfs does not tell: a common laptop's L1d, L2 and L3.
const GUESS_L1: u64 = 32 << 10;
const GUESS_L2: u64 = 1 << 20;
const GUESS_L3: u64 = 16 << 20;

/// What the other thread touches while it holds the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Evicts {
    /// Nothing: the switch alone.
    None,
    /// Twice L2: the working set must come back from L3.
    PastL2,
    /// Twice L3: the working set must come back from memory (the article's "L3 or memory").
    PastL3,
}

impl Evicts {
    pub const ALL: [Evicts; 3] = [Evicts::None, Evicts::PastL2, Evicts::PastL3];

    pub fn name(self) -> &'static str {
        match self {
            Evicts::None => "none",
            Evicts::PastL2 => "past-l2",
            Evicts::PastL3 => "past-l3",
        }
    }

    /// How a table says it.
    pub fn words(self) -> &'static str {
        match self {
            Evicts::None => "touches nothing",
            Evicts::PastL2 => "touches 2 x L2",
            Evicts::PastL3 => "touches 2 x L3",
        }
    }
}

impl fmt::Display for Evicts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Working sets the owner walks: half of L1d and half of L2 by default.
    pub working_sets_bytes: Vec<usize>,
    /// What the other thread touches, each a case with every working set.
    pub evicts: Vec<Evicts>,
    /// Bytes the other thread writes for [`Evicts::PastL2`] and [`Evicts::PastL3`].
    pub past_l2_bytes: usize,
    pub past_l3_bytes: usize,
    /// One node per line of this size (sysfs `coherency_line_size` of L1d, else 64).
    pub line_bytes: usize,
    pub trials: usize,
    pub warmup: Duration,
    /// Wall-clock allowance; the rounds are spread over its first half.
    pub budget: Duration,
}

impl Default for Config {
    /// Sets of half L1d and half L2, the other thread touching nothing, 2 x L2 and 2 x L3
    /// (at most 256 MiB), 15 trials each.
    fn default() -> Self {
        let (l1, line) = data_cache(1).unwrap_or((None, None));
        let l2 = data_cache(2).and_then(|(size, _)| size).unwrap_or(GUESS_L2);
        let l3 = data_cache(3).and_then(|(size, _)| size).unwrap_or(GUESS_L3);
        let half = |bytes: u64| (bytes / 2) as usize;
        Self {
            working_sets_bytes: vec![half(l1.unwrap_or(GUESS_L1)), half(l2)],
            evicts: Evicts::ALL.to_vec(),
            past_l2_bytes: 2 * l2 as usize,
            past_l3_bytes: (2 * l3 as usize).min(256 << 20),
            line_bytes: line.map_or(64, |line| line as usize).clamp(8, 4096),
            trials: 15,
            warmup: Duration::from_millis(100),
            budget: Duration::from_secs(30),
        }
    }
}

impl Config {
    /// Seconds: 9 trials, their rounds spread over 2.5 s.
    pub fn quick() -> Self {
        Self { trials: 9, warmup: Duration::from_millis(20), budget: Duration::from_secs(5), ..Self::default() }
    }

    /// The bytes the other thread writes in `evicts`.
    pub fn evict_bytes(&self, evicts: Evicts) -> usize {
        match evicts {
            Evicts::None => 0,
            Evicts::PastL2 => self.past_l2_bytes,
            Evicts::PastL3 => self.past_l3_bytes,
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !self.line_bytes.is_power_of_two() || !(8..=4096).contains(&self.line_bytes) {
            return Err(ConfigError::new("line-bytes", self.line_bytes, "a power of two from 8 to 4096"));
        }
        if self.working_sets_bytes.is_empty() || self.working_sets_bytes.len() > 16 {
            let value = format!("{} sizes", self.working_sets_bytes.len());
            return Err(ConfigError::new("working-sets", value, "1 to 16 working-set sizes"));
        }
        let bytes = format!("bytes (at least two {}-byte lines)", self.line_bytes);
        for &size in &self.working_sets_bytes {
            check_range("working-sets", size, 2 * self.line_bytes, MAX_BUFFER_BYTES, &bytes)?;
        }
        if self.evicts.is_empty() {
            return Err(ConfigError::new("evicts", "(none)", "none, past-l2 or past-l3"));
        }
        check_range("past-l2-bytes", self.past_l2_bytes, self.line_bytes, MAX_BUFFER_BYTES, "bytes")?;
        check_range("past-l3-bytes", self.past_l3_bytes, self.line_bytes, MAX_BUFFER_BYTES, "bytes")?;
        check_trials(self.trials, 1)?;
        crate::limits::check_rows("trials", self.working_sets_bytes.len() * self.evicts.len(), self.trials)?;
        check_warmup_and_budget(self.warmup, self.budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_caches_and_validate() {
        let config = Config::default();
        config.validate().unwrap();
        Config::quick().validate().unwrap();
        assert!(config.working_sets_bytes[0] < config.working_sets_bytes[1]);
        assert!(config.past_l2_bytes <= config.past_l3_bytes.max(config.past_l2_bytes));
        assert_eq!(config.evict_bytes(Evicts::None), 0);
    }

    #[test]
    fn bad_values_are_named() {
        let check = |config: Config, field: &str| assert_eq!(config.validate().unwrap_err().field, field);
        check(Config { line_bytes: 48, ..Config::quick() }, "line-bytes");
        check(Config { working_sets_bytes: vec![8], ..Config::quick() }, "working-sets");
        check(Config { working_sets_bytes: vec![], ..Config::quick() }, "working-sets");
        check(Config { evicts: vec![], ..Config::quick() }, "evicts");
        check(Config { past_l3_bytes: MAX_BUFFER_BYTES + 1, ..Config::quick() }, "past-l3-bytes");
        check(Config { trials: 0, ..Config::quick() }, "trials");
    }
}
