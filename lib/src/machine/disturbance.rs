//! What disturbed the machine during a run, as the verdict's facts and the clock and load
//! readings both name it.

use serde::{Deserialize, Serialize};

/// A share of CPU time (0..1) and the experiment it was worst during.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disturbance {
    pub share: f64,
    pub during: String,
}
