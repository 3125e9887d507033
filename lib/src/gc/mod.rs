//! The GC-ratio sweep (article B): throughput of a signing workload against thread count
//! and a GOGC-style collection ratio.
//!
//! Rust has no garbage collector, so this module builds a small real one. It is a model of
//! a tracing collector's *pacing*, not Go's runtime: a managed heap whose workers allocate
//! real objects for every operation ([`heap`]), a pacer that starts a cycle after
//! `max(live, 4 MiB) x ratio / 100` bytes of allocation ([`trigger`]), a stop-the-world
//! collector that parks every worker at a safepoint, traces a real live object graph
//! ([`live`]) and sweeps the garbage ([`collector`], [`mutator`]), and real work per
//! operation: ECDSA P-256 signing or a cheaper hash chain ([`workload`]). Go's collector
//! marks concurrently and sweeps lazily; here the whole cycle stops the world, so pauses
//! are the model's only GC cost and are measured directly.

pub mod collector;
pub mod config;
pub mod heap;
pub mod live;
pub mod mutator;
pub mod run;
pub mod summary;
pub mod trigger;
mod verify;
pub mod workload;

pub use config::{default_thread_counts, Config, GcRatio, Workload};
pub use run::{run, Row};
pub use summary::{finding, summarize, CellSummary};

pub const EXPERIMENT: &str = "gc";
