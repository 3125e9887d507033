//! Contention Lab's experiments: false sharing (stride sweep, four-way control, counter
//! layouts), a GC-pacing model, thread-pool sizing, the machine's fitness, the timing
//! harness and its statistics, the charts, the run format and the presentation model that
//! the report and the notebooks share.
//!
//! The lib measures and returns plain rows; it never prints and never writes files.
//! [`runs`] reads saved runs back into those rows (the one reader); [`present`] turns rows
//! and the articles' [`reference`] numbers into sections of findings, figures, tables and
//! notes, every number written by [`format`].
//!
//! # Adding an experiment
//!
//! An experiment `foo` needs these files, and nothing else:
//!
//! 1. `lib/src/foo.rs` (or `lib/src/foo/`): its `Config` (`Default` at the article's sizes,
//!    `quick()`, `validate()`), `run`, the flat `Row` (`Serialize + Deserialize`), the
//!    summary and the finding sentences, and `pub const EXPERIMENT: &str = "foo"`.
//! 2. `lib/src/chart/foo.rs`: its chart, plain data to SVG.
//! 3. `lib/src/present/foo.rs`: `section(&[Measured<Row>], article) -> Section`; reference
//!    numbers, if the article published some, in `data/reference/foo.csv` read by
//!    [`reference`].
//! 4. One registry entry each: a field and a match arm in [`runs::Run`] (and its name in
//!    [`runs::EXPERIMENTS`]), a variant of the report's `Experiment` (`report/src/experiment.rs`),
//!    its arms in `report/src/store.rs` (measure) and `report/src/sections.rs` (present),
//!    and its view in `report/src/page/mod.rs` with an include in `report.html`.
//! 5. Its flags: fields in `report/src/cli.rs`'s `MeasureArgs` and `report/src/options/foo.rs`.
//! 6. Its prose: `report/templates/foo.html` (the article's situation; it includes
//!    `section.html` for the rest) and a notebook.

pub mod arena;
pub mod build_info;
pub mod c2c;
pub mod chart;
pub mod counters;
pub mod error;
pub mod evidence;
#[doc(hidden)]
pub mod fault;
pub mod fitness;
pub mod format;
pub mod gc;
pub mod group;
pub mod harness;
pub mod limits;
pub mod machine;
pub mod perf;
pub mod placement;
pub mod pool;
pub mod present;
pub mod reference;
pub mod runs;
pub mod sharing;
pub mod stats;
pub mod stride;

pub use build_info::BuildInfo;
pub use error::{ConfigError, RunError};
pub use machine::Machine;
