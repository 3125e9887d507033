//! The presentation kit, below the experiments: an experiment's presenting side
//! ([`Present`], beside its `Measure`), what it hands the report beside its section (the
//! room's [`Effect`]s and their values, its article's [`HeadlineRow`], its [`Answer`]s to the
//! claims and the [`Context`] they read, the article's tables it reads through
//! [`reference`]), and what every experiment words alike ([`cache_miss_note`], [`status`]).
//! It imports the leaves, the experiments' traits and the run format: never an experiment,
//! the registry, the run reader or the report's assembly, so an experiment can
//! use it from its own folder (`lib/tests/layers.rs` holds it there). The view types an
//! experiment fills ([`crate::view`]) are a leaf below it.

mod answer;
mod cache_misses;
mod claim;
mod effects;
mod headline_row;
mod present;
pub mod reference;
mod reference_text;
mod status;

pub use answer::{Answer, Estimate};
pub use cache_misses::cache_miss_note;
pub use claim::{effect, figure, ratio_text, summary_text, Context, DIRECTION, NO_CHANGE_BOUND};
pub use effects::{estimate_text, Effect, EffectValue, Plausible};
pub use headline_row::HeadlineRow;
pub use present::{Present, PresentError};
pub use reference_text::ReferenceText;
pub use status::status;
