//! The values a GC sweep is set up with, which its parts share (the config, the pacer's
//! trigger, the ratio list, the workload): a GOGC-style ratio and the work per operation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;

/// A GOGC-style setting: collect after allocating `percent` % of the live heap (of Go's 4 MiB heap
/// minimum where the live heap is smaller), or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum GcRatio {
    Percent(u32),
    /// No pacing: only the heap ceiling forces a cycle (like GOGC=off with a memory limit).
    Off,
}

impl GcRatio {
    /// Go's default, GOGC=100: the baseline every speed-up is measured against.
    pub const DEFAULT: GcRatio = GcRatio::Percent(100);

    /// Sort key: percent ascending, `off` last (it behaves like an infinite ratio).
    pub fn order_key(self) -> u64 {
        match self {
            GcRatio::Percent(percent) => u64::from(percent),
            GcRatio::Off => u64::MAX,
        }
    }
}

impl fmt::Display for GcRatio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GcRatio::Percent(percent) => write!(f, "{percent}"),
            GcRatio::Off => f.write_str("off"),
        }
    }
}

impl FromStr for GcRatio {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("off") {
            return Ok(GcRatio::Off);
        }
        match text.parse::<u32>() {
            Ok(percent) if percent >= 1 => Ok(GcRatio::Percent(percent)),
            _ => {
                Err(ConfigError::new("ratios", text, "a whole percentage of at least 1 (GOGC-style, e.g. 100), or off"))
            }
        }
    }
}

impl TryFrom<String> for GcRatio {
    type Error = ConfigError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<GcRatio> for String {
    fn from(ratio: GcRatio) -> Self {
        ratio.to_string()
    }
}

/// The real work each operation does between its allocations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Workload {
    /// ECDSA P-256 signing through `ring` (the article's benchmark, at about Go's speed);
    /// needs the crate's `ecdsa` feature.
    Ecdsa,
    /// A cheaper built-in one: chained SipHash rounds (std's hasher) over the message.
    Hash,
}

impl Workload {
    /// ECDSA when this build has it, else the hash workload.
    pub fn preferred() -> Self {
        if cfg!(feature = "ecdsa") {
            Workload::Ecdsa
        } else {
            Workload::Hash
        }
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Workload::Ecdsa => "ecdsa",
            Workload::Hash => "hash",
        })
    }
}

impl FromStr for Workload {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ecdsa" => Ok(Workload::Ecdsa),
            "hash" => Ok(Workload::Hash),
            _ => Err(ConfigError::new("workload", text, "ecdsa or hash")),
        }
    }
}
