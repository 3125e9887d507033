//! An experiment's presenting side ([`Present`]), beside its [`Measure`]: what the report,
//! the notebooks and the room read of it, each hook with a default but its section.

use thiserror::Error;

use super::{Answer, Context, Effect, EffectValue, HeadlineRow, ReferenceText};
use crate::chart::ChartError;
use crate::experiment::Measure;
use crate::run_format::{Run, RunsError};
use crate::view::{Finding, NotDrawn, Section};

/// A section could not be built: reference data failed to read. A chart that cannot be
/// drawn is no such error: it becomes a note in its section ([`Section::add_figure`]).
#[derive(Debug, Error)]
pub enum PresentError {
    #[error(transparent)]
    Reference(#[from] RunsError),
}

impl NotDrawn {
    /// `figure` (its title) was not drawn because of `error`.
    pub fn new(figure: impl Into<String>, error: ChartError) -> Self {
        Self::because(figure, error.message)
    }
}

/// One experiment's presenting side, beside its [`Measure`]: a section over the runs that
/// measured it, and the article's story told in words.
pub trait Present: Measure {
    /// Its section's heading.
    const TITLE: &'static str;
    /// The article's situation, its wrong turns and what this experiment does about them,
    /// in markdown (`prose.md` in its folder, compiled in): every renderer shows it.
    const PROSE: &'static str;

    /// Its section over `runs` (one machine, or several compared), status lines included;
    /// `None` when another section shows it (the machine's shows the core-to-core latency).
    fn section(runs: &[Run]) -> Result<Option<Section>, PresentError>;

    /// Its section's status: what became of it in each run that does not hold it whole
    /// ([`super::status`]); the assembly sets it on the section.
    fn status(runs: &[Run]) -> Vec<Finding> {
        super::status(runs, &[Self::NAME])
    }

    /// The articles' tables (`data/reference/`) its section reads: none unless it names some.
    const REFERENCES: &'static [ReferenceText] = &[];

    /// What of this experiment the room compares across machines, in column order: its
    /// numbers, and words such as stride's knee ([`Effect::word`]); none unless it names some.
    const EFFECTS: &'static [Effect] = &[];

    /// Its values of [`Present::EFFECTS`] in `run`; an effect left out is shown as n/a.
    fn effect_values(_run: &Run) -> Vec<EffectValue> {
        Vec::new()
    }

    /// Its article's row in the headline table ([`headline`]), when its section holds the
    /// article's headline figure: none unless it says so.
    fn headline() -> Result<Option<HeadlineRow>, PresentError> {
        Ok(None)
    }

    /// The numbered claims (ids of `data/reference/claims.csv`) its runs answer, each through
    /// [`Present::answer`]: none unless it names some.
    const CLAIMS: &'static [&'static str] = &[];

    /// Its answer to `claim`, one of [`Present::CLAIMS`], on the context's run.
    fn answer(_claim: &str, _context: &Context) -> Answer {
        Answer::unanswered()
    }
}
