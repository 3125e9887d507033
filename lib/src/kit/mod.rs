//! The presentation kit, below the experiments: what an experiment's presentation hands the
//! report beside its section (the room's [`Effect`]s and their values, its article's
//! [`HeadlineRow`], its [`Answer`]s to the claims, the article's tables it reads as
//! [`ReferenceText`]) and the sentences every experiment words alike ([`cache_miss_note`]).
//! It imports leaves only (formatting, statistics, the counters' readings): never an
//! experiment, the registry, the runs or the assembly in [`crate::present`], so an
//! experiment can use it from its own folder (`lib/tests/layers.rs` holds it there). The
//! view types an experiment fills ([`crate::view`]) are such a leaf too.

mod answer;
mod cache_misses;
mod effects;
pub mod flags;
mod headline_row;
mod reference_text;

pub use answer::{Answer, Estimate};
pub use cache_misses::cache_miss_note;
pub use effects::{estimate_text, Effect, EffectValue, Plausible};
pub use headline_row::HeadlineRow;
pub use reference_text::ReferenceText;
