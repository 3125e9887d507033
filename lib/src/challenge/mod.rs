//! Fix it yourself: one challenge per mechanism the articles name, each code with a known
//! slowdown for a student to fix, a check that the fix is still correct, and a measured
//! speed-up judged against a goal this machine sets (perf-ninja's shape: code to edit, a
//! validation, a benchmark with a stated goal).
//!
//! - [`false_sharing`] (article A): the `[8]int64` sharded counter, compact; fix its layout.
//! - [`lock_wait`] (article C): a cache whose entry is computed under its shard's lock across
//!   a remote call's wait, as `computeIfAbsent` was; restructure it.
//! - [`allocation`] (article B): a signing handler that allocates per request on the lab's
//!   collector; make it allocate less.
//!
//! A check ([`check`]) runs in a fixed order: correctness first (a wrong fix is refused,
//! naming what was lost, and nothing is timed); then the baseline, the lab's reference fix
//! and the student's version, interleaved in one run with the harness's trials; then the one
//! rule ([`crate::judgement`]): the reference fix's speed-up on this machine is the goal, stated
//! before the student's figure, and the student's speed-up is judged against it by its
//! interval. A fix is never called faster on noise, and where the machine cannot show the
//! effect (one CPU, threads a scheduler will not pin, too few trials, a reference fix that is
//! itself not beyond the noise here) the check says so and why.

pub mod allocation;
mod check;
pub mod false_sharing;
pub mod lock_wait;
mod result;
mod text;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use check::{reading, Checked, Sample, Side, Verdict};
pub use result::{ChallengeResult, MAX_DESCRIPTION_CHARS};
pub use text::lines;

use crate::error::RunError;
use crate::harness::Progress;

use crate::error::ConfigError;

/// The challenges, in the articles' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Challenge {
    FalseSharing,
    LockAcrossWait,
    Allocation,
}

impl Challenge {
    pub const ALL: [Challenge; 3] = [Challenge::FalseSharing, Challenge::Allocation, Challenge::LockAcrossWait];

    /// The name a command, a file and the room use: `false-sharing`.
    pub fn name(self) -> &'static str {
        match self {
            Challenge::FalseSharing => "false-sharing",
            Challenge::LockAcrossWait => "lock-across-wait",
            Challenge::Allocation => "allocation",
        }
    }

    /// The article whose mechanism it is: "A", "B" or "C".
    pub fn article(self) -> &'static str {
        match self {
            Challenge::FalseSharing => "A",
            Challenge::Allocation => "B",
            Challenge::LockAcrossWait => "C",
        }
    }

    /// What the student fixes, in a line.
    pub fn task(self) -> &'static str {
        match self {
            Challenge::FalseSharing => "a sharded counter whose eight shards share one cache line",
            Challenge::LockAcrossWait => "a cache that holds its shard's lock while a remote call waits",
            Challenge::Allocation => "a signing handler that allocates per request on a collected heap",
        }
    }

    /// What a trial counts per second.
    pub fn unit(self) -> &'static str {
        match self {
            Challenge::FalseSharing => "adds per second",
            Challenge::LockAcrossWait => "requests per second",
            Challenge::Allocation => "signatures per second",
        }
    }
}

impl Challenge {
    /// The built-in check with the lab's reference fix in the student's place: what
    /// `contention challenge NAME` runs (a command cannot compile a student's file), and what
    /// the solutions notebooks check.
    pub fn check_reference(self, plan: &Plan, progress: Progress) -> Result<Checked, RunError> {
        match self {
            Challenge::FalseSharing => false_sharing::check::<false_sharing::Padded>(plan, progress),
            Challenge::LockAcrossWait => lock_wait::check::<lock_wait::ComputeOutsideLock>(plan, progress),
            Challenge::Allocation => allocation::check::<allocation::ReuseScratch>(plan, progress),
        }
    }
}

impl fmt::Display for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Challenge {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let names: Vec<&str> = Challenge::ALL.iter().map(|challenge| challenge.name()).collect();
        Challenge::ALL
            .into_iter()
            .find(|challenge| challenge.name() == text.trim())
            .ok_or_else(|| ConfigError::new("challenge", text, format!("one of {}", names.join(", "))))
    }
}

/// How much a check measures: trials per side and a wall-clock allowance, at the sizes of a
/// full check or a quick one (tests, a first try in a notebook).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    /// Measured trials of each side (baseline, reference fix, the student's).
    pub trials: usize,
    /// Wall-clock allowance for the measured trials (the correctness check runs first, apart).
    pub budget: Duration,
    /// Smaller trials (fewer adds, requests, shorter collector trials).
    pub quick: bool,
}

impl Default for Plan {
    /// Ten trials a side, within a minute.
    fn default() -> Self {
        Self { trials: 10, budget: Duration::from_secs(60), quick: false }
    }
}

impl Plan {
    /// Seconds: five trials a side (the minimum-evidence rule's count) at small sizes.
    pub fn quick() -> Self {
        Self { trials: 5, budget: Duration::from_secs(20), quick: true }
    }

    /// The quick plan when the arguments hold `--quick` (a challenge file's `main`), the
    /// full one otherwise.
    pub fn from_args(mut args: impl Iterator<Item = String>) -> Self {
        if args.any(|arg| arg == "--quick") {
            Self::quick()
        } else {
            Self::default()
        }
    }
}
