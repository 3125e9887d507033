//! Contention Lab's experiments: false sharing (stride sweep), the timing harness and its
//! statistics, the machine description, and the charts the report and notebooks share.
//!
//! The lib measures and returns plain rows; it never prints and never writes files.

pub mod arena;
pub mod build_info;
pub mod c2c;
pub mod chart;
pub mod counters;
pub mod error;
pub mod fitness;
pub mod gc;
pub mod harness;
pub mod machine;
pub mod notebook;
pub mod perf;
pub mod pool;
pub mod sharing;
pub mod stats;
pub mod stride;

pub use build_info::BuildInfo;
pub use error::{ConfigError, RunError};
pub use machine::Machine;
