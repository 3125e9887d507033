//! The GC-ratio sweep (article B): throughput of a signing workload against thread count
//! and a GOGC-style collection ratio, in a model collector and, beside it, in real Go.
//!
//! Rust has no garbage collector, so this module builds a small real one with the costs a
//! Go-like runtime pays per cycle, as real work: workers allocate every operation's objects
//! from their own 8 KiB span ([`span`]), refilled from a central heap under one lock and
//! flushed at every cycle ([`heap`]); the pacer starts a cycle after `max(live, 4 MiB) x
//! ratio / 100` bytes of allocation ([`trigger`]); a stop-the-world reaches every worker at
//! its next allocation ([`collector`], [`mutator`]); a quarter of the workers, as Go's
//! dedicated mark workers, scan every worker's roots and mark a real live graph ([`mark`],
//! [`live`]); sweeping is lazy, by the refills. The work per operation is ECDSA P-256
//! signing through `ring` or a cheaper hash chain ([`workload`]). Go marks concurrently
//! with the program and makes allocating goroutines assist; the model marks with the world
//! stopped and has no assists, so its pauses hold marking that Go overlaps with work.
//! [`go`] holds the real Go benchmark's rows; [`compare`] sets the two side by side.

pub mod answers;
pub mod chart;
pub mod collector;
pub mod compare;
pub mod config;
pub mod findings;
mod flags;
pub mod go;
pub mod handler;
pub mod heap;
pub mod live;
pub mod mark;
pub mod mutator;
pub mod present;
pub mod ratios;
mod row;
pub mod run;
pub mod search;
pub mod span;
pub mod summary;
pub mod trigger;
mod types;
mod verify;
pub mod workload;

pub use config::{default_thread_counts, Config, GcRatio, Workload, MAX_THREADS};
pub use findings::{curve_findings, pacing_findings, CurveFindings};
pub use go::{summarize_go, GoCell, GoRow, GO_CSV};
pub use ratios::{parse_ratios, MAX_RATIOS};
pub use run::{run, Row};
pub use summary::{finding, summarize, CellSummary, MIN_CYCLES_TO_JUDGE};

pub const EXPERIMENT: &str = "gc";

/// The GC-ratio sweep, as the experiment registry lists it: its [`Measure`](crate::experiment::Measure).
#[derive(Debug, Clone, Copy)]
pub struct GcSweep;

crate::experiment::measure!(
    GcSweep,
    about: "GC ratio x threads with a small stop-the-world collector (article B).",
    summary: CellSummary,
    runtime_row: GoRow,
    const REAL_RUNTIME: Option<crate::experiment::RealRuntime> = Some(crate::experiment::RealRuntime { key: "go", name: "Go", file: GO_CSV }),
    const CLOCK_PACED: bool = true;
    fn flags() -> crate::flags::Flags<Config> {
        flags::flags()
    }
);
