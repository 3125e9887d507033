//! Contention Lab's experiments: false sharing (stride sweep, four-way control, counter
//! layouts), a GC-pacing model, thread-pool sizing, the cache refill after a switch, the
//! machine's fitness, the timing harness and its statistics, the charts, the run format and
//! the presentation model that the report and the notebooks share.
//!
//! The lib measures and returns plain rows; it never prints and never writes files.
//! [`runs`] reads saved runs back into those rows (the one reader); each experiment presents
//! its rows and its article's numbers as a section of findings, figures, tables and notes,
//! every number written by [`format`], and [`present`] assembles the sections.
//!
//! # Layers
//!
//! Imports point down only; `lib/tests/layers.rs` fails, naming the edge, on any import
//! circle between these modules or between the files of one folder. From the bottom:
//!
//! 1. Leaves: [`error`], [`fault`], [`stats`], [`format`], [`limits`], [`checked`] (the row
//!    and text checks every reader shares), [`evidence`], [`judgement`] (the one rule a
//!    claim's status follows), [`group`], [`usage`], [`perf`], [`build_info`], [`verdict`],
//!    [`scale`] (log scales' ends and marks), [`platform`] (the OS layer), [`lab_cli`], and
//!    [`view`] (the sections, tables and figures every renderer reads).
//! 2. The machine and the timing: [`machine`] (its facts, and the conditions and clocks a
//!    run records), [`placement`], [`harness`], [`arena`], [`flags`] (an experiment's flags,
//!    without clap), the charts' kit [`chart`] (plain data to SVG), and [`experiment`] (what
//!    an experiment measures, to the rest).
//! 3. The run format, [`run_format`]: a saved run's types (its manifest, each experiment's
//!    rows behind its name, the notes, the typed CSV reader).
//! 4. The presentation kit, [`kit`]: an experiment's presenting side ([`kit::Present`]),
//!    what it hands up beside its section (room effects, headline row, answers to claims)
//!    and the loader of the articles' tables.
//! 5. The experiments, each one folder that measures, presents and answers its claims:
//!    [`c2c`] and [`machine_check`] (which reads the core-to-core summaries, and judges a
//!    run's fitness); [`transfers`] (a penalty counted in core-to-core transfers) and
//!    [`measured`] (what one machine measured, with its verdict) on them; then [`stride`],
//!    [`sharing`], [`counters`], [`gc`], [`pool`], [`locks`] and [`refill`]. An experiment
//!    may read another's rows (the machine's line-size claims read the stride sweep), never
//!    what stands above them.
//! 6. The [`registry`], which names every experiment once.
//! 7. The reader, [`runs`], which reads rows through the registry; the claims' table
//!    ([`reference`]); the workshop's challenges ([`challenge`]); and, on top, [`present`],
//!    the assembly (sections, headline, claims table, the room), which renders and never
//!    measures.
//!
//! # Adding an experiment
//!
//! An experiment `foo` is its folder plus one line in [`registry`] and its name in the
//! README. Its descriptor is two trait impls for one unit type, each stating only what it
//! has (the rest are defaults): [`experiment::Measure`] (name, help line, config, flags,
//! rows, run, summary, a runtime beside it, where its trials ran and what the cache-miss
//! counters read) and [`kit::Present`] (title, prose, section, the article's tables it reads,
//! the numbers the room compares, its article's headline row, the claims it answers). Its
//! folder `lib/src/foo/` holds:
//!
//! 1. Its `Config` (`Default` at the article's sizes, `quick()`, `validate()`), `run`, the
//!    flat `Row` (`Serialize + Deserialize`, checked on read by [`run_format::CheckedRow`]),
//!    the summary and the finding sentences, and the unit type with its `Measure` (the
//!    `measure!` macro; after a `;`, the hooks it overrides: `placements` and `cache_misses`
//!    when its rows record them, default none).
//! 2. Its flags, `flags.rs` (the shared flags it reads and its own, each with its parser and
//!    how it sets the `Config`, in [`flags`]' terms), returned by its `Measure::flags` hook:
//!    the command line makes them its flags (`run foo --help` shows those alone) and builds
//!    the config from them; nothing in the report names it.
//! 3. Its presentation, `present.rs` (or `present/`): its `Present` and section over saved
//!    runs, its prose (`prose.md`), the reference files it reads (`Present::REFERENCES`, each
//!    a `ReferenceFile` of `data/reference/foo.csv` declared beside the section and read by
//!    the one loader in [`kit::reference`]), its room effects (`Present::EFFECTS` and
//!    `Present::effect_values`) and headline row (`Present::headline`).
//! 4. Its answers, `answers.rs`: the numbered claims it answers (`Present::CLAIMS` and
//!    `Present::answer`; their rows in `data/reference/claims.csv` name it).
//! 5. Its chart, `chart.rs`, drawn with the charts' kit ([`chart`]).
//!
//! Outside it: the line `Foo => foo::FooType;` in the registry's list (`experiments!`),
//! which also declares the module `foo` (no `mod` line names it elsewhere), and its name in
//! the README's workshop commands. The store, the sections, the claims, the room's effects,
//! the machine's fitness, the page, the JSON, markdown and terminal output, the run reader
//! and CI's section check all iterate over the registry. Its rows join the report's fixture
//! run (`report/tests/fixtures/run-fixture/foo.csv`): `lib/tests/registry.rs` fails, naming
//! the file, while the fixture or the README lacks it, while a reference file it names is
//! not in `data/reference/`, or a claim it lists is not in `claims.csv` under its name.
//!
//! The toy experiment `lib/src/toy/` (compiled only in tests) is the smallest such, whole:
//! its folder holds the measuring side, its flags (`flags.rs`: `--values`, and `--trials`
//! shared), its chart (`chart.rs`), its `Present` with one claim it answers (`T1`, its row in
//! `claim.csv` beside it, judged from its summary), its prose and a saved run (`fixture/`)
//! that its tests present; outside the folder, its registry line `Toy => toy::Toy;` and the
//! README's pointer to it.
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
