//! What every experiment is to the rest of the lab: [`Measure`], implemented once per
//! experiment by a unit type in the experiment's own module (`stride::StrideSweep`, ...),
//! names its config, its rows, how it runs and how its rows summarise. The experiment
//! registry, the layer above the experiments, lists those types once; the run reader, the
//! report's store, sections, page, JSON, markdown and terminal iterate over that list.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::checked::CheckedRow;
use crate::error::{ConfigError, RunError};
use crate::harness::{Outcome, Progress};
use crate::perf::CounterReading;

/// The bounds every saved row type meets: written as CSV, read back and checked.
pub trait SavedRow:
    Serialize + DeserializeOwned + CheckedRow + Clone + Debug + PartialEq + Send + Sync + 'static
{
}

impl<T: Serialize + DeserializeOwned + CheckedRow + Clone + Debug + PartialEq + Send + Sync + 'static> SavedRow for T {}

/// One experiment's measuring side. Everything here is below the presentation layer.
pub trait Measure: 'static {
    /// Its name on the command line, in run folders (`<NAME>.csv`) and as its section's anchor.
    const NAME: &'static str;
    /// One line for `--help`.
    const ABOUT: &'static str;
    /// The key its summaries have in the JSON export.
    const SUMMARY_KEY: &'static str = Self::NAME;
    /// The real runtime measured beside the model (Go beside the GC model), when the
    /// experiment has one.
    const REAL_RUNTIME: Option<RealRuntime> = None;
    /// Whether a complete run may hold no rows (core-to-core latency on one CPU: no pair).
    const MAY_HAVE_NO_ROWS: bool = false;
    /// Whether its trials last set wall-clock times (arrival windows, seconds per trial), so
    /// that a faster machine does not finish it sooner: the laptop check does not scale its time.
    const CLOCK_PACED: bool = false;

    /// `Default` at the article's sizes where the machine allows.
    type Config: Serialize + Clone + Debug + Default + Send + Sync + 'static;
    /// One row per trial, saved as `<NAME>.csv`.
    type Row: SavedRow;
    /// The rows of [`Measure::REAL_RUNTIME`]'s runtime ([`NoRows`] when there is none).
    type RuntimeRow: SavedRow;
    /// Medians with their intervals, per case.
    type Summary: Serialize;

    /// Sizes that finish in seconds (notebooks, workshops).
    fn quick() -> Self::Config;
    /// Refuses a config that cannot run, naming the field, the value and what is allowed.
    fn validate(config: &Self::Config) -> Result<(), ConfigError>;
    fn run(config: &Self::Config, progress: Progress) -> Result<Outcome<Self::Row>, RunError>;
    fn summarize(rows: &[Self::Row]) -> Vec<Self::Summary>;

    /// The flags it reads from the command line (its `flags.rs`): none unless it says.
    fn flags() -> crate::flags::Flags<Self::Config> {
        crate::flags::Flags::default()
    }

    /// Where each of its team trials ran, as its rows recorded it (the CPUs' list, and
    /// whether the threads were pinned), for the machine's fitness: none unless it says.
    fn placements(_rows: &[Self::Row]) -> Vec<(&str, bool)> {
        Vec::new()
    }

    /// The hardware counters' cache-miss readings its trials took: none unless it says.
    fn cache_misses(_rows: &[Self::Row]) -> Vec<CounterReading> {
        Vec::new()
    }
}

/// A real runtime an experiment measures beside its Rust model (Go beside the GC model, the
/// JVM beside the locks), and where its rows sit: the manifest records, under the
/// experiment's config key `key`, `{"status": "ran", "file": ..., "rows": ...}` once it ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RealRuntime {
    pub key: &'static str,
    /// What pages call the runtime, e.g. "Go".
    pub name: &'static str,
    /// The file when the record names none.
    pub file: &'static str,
}

/// The rows of a runtime an experiment does not have: never written, never read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoRows {}

impl CheckedRow for NoRows {
    fn counts(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }

    fn amounts(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Implements [`Measure`] for an experiment's unit type in its own module, forwarding to the
/// names every experiment module has: `EXPERIMENT`, `Config` (`quick`, `validate`), `Row`,
/// `run` and `summarize`. Constants beyond the name and help line follow as `const` items,
/// then, after a `;`, the hooks it overrides (`fn placements`, `fn cache_misses`).
macro_rules! measure {
    (
        $kind:ty, about: $about:expr, summary: $summary:ty, runtime_row: $runtime_row:ty
        $(, const $name:ident: $type:ty = $value:expr)* $(,)?
        $(; $($hook:item)*)?
    ) => {
        impl $crate::experiment::Measure for $kind {
            const NAME: &'static str = EXPERIMENT;
            const ABOUT: &'static str = $about;
            $(const $name: $type = $value;)*
            type Config = Config;
            type Row = Row;
            type RuntimeRow = $runtime_row;
            type Summary = $summary;

            fn quick() -> Config {
                Config::quick()
            }

            fn validate(config: &Config) -> Result<(), $crate::error::ConfigError> {
                config.validate()
            }

            fn run(
                config: &Config,
                progress: $crate::harness::Progress,
            ) -> Result<$crate::harness::Outcome<Row>, $crate::error::RunError> {
                run(config, progress)
            }

            fn summarize(rows: &[Row]) -> Vec<$summary> {
                summarize(rows)
            }

            $($($hook)*)?
        }
    };
}
pub(crate) use measure;
