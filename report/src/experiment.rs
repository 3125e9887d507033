//! The experiments the command knows, by name, in the report's order.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Experiment {
    Machine,
    C2c,
    Stride,
    Sharing,
    Counters,
    Gc,
    Pool,
}

impl Experiment {
    /// Every experiment, in the report's order.
    pub fn all() -> &'static [Experiment] {
        &[
            Experiment::Machine,
            Experiment::C2c,
            Experiment::Stride,
            Experiment::Sharing,
            Experiment::Counters,
            Experiment::Gc,
            Experiment::Pool,
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            Experiment::Machine => contention::fitness::EXPERIMENT,
            Experiment::C2c => contention::c2c::EXPERIMENT,
            Experiment::Stride => contention::stride::EXPERIMENT,
            Experiment::Sharing => contention::sharing::EXPERIMENT,
            Experiment::Counters => contention::counters::EXPERIMENT,
            Experiment::Gc => contention::gc::EXPERIMENT,
            Experiment::Pool => contention::pool::EXPERIMENT,
        }
    }

    /// One line for `--help`.
    pub fn about(self) -> &'static str {
        match self {
            Experiment::Machine => "Can this machine show contention? Scaling and noise check, then the verdict.",
            Experiment::C2c => "Core-to-core latency: a cache line passed between every pair of CPUs.",
            Experiment::Stride => "False sharing: counters at growing distances (article A).",
            Experiment::Sharing => "False sharing: one total four ways (single, true, false, no sharing) (article A).",
            Experiment::Counters => {
                "Hot-counter fixes side by side with their memory: padded, striped, local flush (A, C)."
            }
            Experiment::Gc => "GC ratio x threads with a small stop-the-world collector (article B).",
            Experiment::Pool => "Thread-pool sizing: a bimodal service on fixed, split and async pools (article C).",
        }
    }
}
