//! Contention Lab's experiments: false sharing (stride sweep, four-way control, counter
//! layouts), a GC-pacing model, thread-pool sizing, the cache refill after a switch, the
//! machine's fitness, the timing harness and its statistics, the charts, the run format and the presentation model that
//! the report and the notebooks share.
//!
//! The lib measures and returns plain rows; it never prints and never writes files.
//! [`runs`] reads saved runs back into those rows (the one reader); [`present`] turns rows
//! and the articles' [`reference`] numbers into sections of findings, figures, tables and
//! notes, every number written by [`format`].
//!
//! # Layers
//!
//! Imports point down only; `lib/tests/layers.rs` fails, naming the edge, on any import
//! circle between these modules or between the files of one folder. From the bottom:
//!
//! 1. Leaves: [`error`], [`fault`], [`stats`], [`format`], [`limits`], [`checked`] (the row
//!    and text checks every reader shares), [`evidence`], [`judgement`] (the one rule a
//!    claim's status follows), [`group`], [`usage`], [`perf`], [`build_info`], and [`view`] (the
//!    sections, tables and figures every renderer reads).
//! 2. The machine and the timing: [`machine`], [`placement`], [`harness`], [`arena`],
//!    [`verdict`], and [`experiment`] (what an experiment is to the rest); the presentation
//!    kit an experiment fills and hands up, [`kit`], and the charts' kit, [`chart`] (plain
//!    data to SVG: the style, frames and axes each experiment's chart draws with).
//! 3. The experiments, which import nothing above them and no other experiment but one: [`c2c`],
//!    [`stride`], [`sharing`], [`counters`], [`gc`], [`pool`], [`locks`], [`refill`], and
//!    [`machine_check`] (the machine check, which reads the core-to-core summaries); then
//!    [`transfers`], which counts a penalty in core-to-core transfers.
//! 4. The [`registry`], which names every experiment once.
//! 5. The run format and its reader, [`runs`], which reads rows through the registry.
//! 6. Over saved runs: [`reference`] (the articles' numbers, in the experiments' types),
//!    [`assess`] (the machine's fitness over a run), [`scale`] (log scales' ends and marks)
//!    and, on top, [`present`], which renders and never measures.
//!
//! # Adding an experiment
//!
//! An experiment `foo` is its own files plus one line in [`registry`]. Its descriptor is two
//! trait impls for one unit type, each stating only what it has (the rest are defaults):
//! [`experiment::Measure`] (name, help line, config, rows, run, summary, a runtime beside it,
//! where its trials ran and what the cache-miss counters read) and [`present::Present`]
//! (title, prose, section, the article's tables it reads, the numbers the room compares, its
//! article's headline row, the claims it answers). What it touches:
//!
//! 1. `lib/src/foo.rs` (or `lib/src/foo/`): its `Config` (`Default` at the article's sizes,
//!    `quick()`, `validate()`), `run`, the flat `Row` (`Serialize + Deserialize`, checked on
//!    read by [`runs::CheckedRow`]), the summary and the finding sentences, and the unit type
//!    with its `Measure` (the `measure!` macro; after a `;`, the hooks it overrides:
//!    `placements` and `cache_misses` when its rows record them, default none).
//! 2. `lib/src/present/foo.rs` (or `lib/src/present/foo/`): its section and its `Present`: title, prose (`lib/src/foo/prose.md`), the section over saved runs, the
//!    reference files it reads (`Present::REFERENCES`), its room effects (`Present::EFFECTS`
//!    and `Present::effect_values`), headline row (`Present::headline`) and the claims it
//!    answers (`Present::CLAIMS` and `Present::answer`), each default none.
//! 3. Its chart, `lib/src/foo/chart.rs` (its `mod` line in its own folder), drawn with the
//!    charts' kit ([`chart`]).
//! 4. If the article published numbers: `data/reference/foo.csv`, and its row type and
//!    `ReferenceFile` constant in [`reference`] (read by the one loader,
//!    `ReferenceFile::rows`); if it answers numbered claims, their rows in
//!    `data/reference/claims.csv` name it.
//! 5. The line `Foo => foo::FooType, present::foo;` in the registry's list
//!    (`experiments!`), which also declares the modules `foo` (here) and `present::foo`:
//!    no `mod` line names them elsewhere. The store, the sections, the claims, the room's effects, the machine's fitness, the page,
//!    the JSON, markdown and terminal output, the run reader and CI's section check all
//!    iterate over the registry.
//! 6. Its flags, `lib/src/foo/flags.rs` (the shared flags it reads and its own, each with its
//!    parser and how it sets the `Config`, in [`flags`]' terms), returned by its
//!    `Measure::flags` hook: the command line makes them its flags (`run foo --help` shows
//!    those alone) and builds the config from them; nothing in the report names it.
//! 7. Its rows in the report's fixture run (`report/tests/fixtures/run-fixture/foo.csv`),
//!    and its name in the README's workshop commands: `lib/tests/registry.rs` fails, naming
//!    the file, while either is missing, and while a reference file it names is not in
//!    `data/reference/`, a claim it lists is not in `claims.csv` or a claim there names
//!    another experiment than the one that lists it.
//!
//! The toy experiment `lib/src/toy/` (compiled only in tests) is the smallest such, whole:
//! its folder holds the measuring side, its flags (`flags.rs`: `--values`, and `--trials`
//! shared), its chart (`chart.rs`), its `Present` with one claim it answers (`T1`, its row in
//! `claim.csv` beside it, judged from its summary), its prose and a saved run (`fixture/`)
//! that its tests present; outside the folder, its registry line `Toy => toy::Toy;` (no
//! presentation module: it presents itself from its folder) and the README's pointer to it.
//! Its tests show the registry's loops take it up, and `lib/tests/registry.rs` checks that
//! nothing else names it, and that no other file lists every experiment.

pub mod arena;
pub mod build_info;
pub mod challenge;
pub mod chart;
pub mod checked;
pub mod error;
pub mod evidence;
pub mod experiment;
#[doc(hidden)]
pub mod fault;
pub mod flags;
pub mod format;
pub mod group;
pub mod harness;
pub mod judgement;
pub mod kit;
pub mod lab_cli;
pub mod limits;
pub mod machine;
pub mod measured;
pub mod perf;
pub mod placement;
pub mod platform;
pub mod present;
pub mod reference;
pub mod registry;
pub mod run_format;
pub mod runs;
pub mod scale;
pub mod stats;
pub mod transfers;
pub mod usage;
pub mod verdict;
pub mod view;

// Each experiment's module (`pool`, `gc`, ...), declared from the registry's list.
registry::experiments!(modules);

pub use build_info::BuildInfo;
pub use error::{ConfigError, RunError};
pub use machine::Machine;
pub use registry::Experiment;
