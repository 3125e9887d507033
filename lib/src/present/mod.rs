//! The presentation model: per experiment, one function from what one or several machines
//! measured (and the article's reference data) to a [`Section`] of findings, figures, tables
//! and notes, every number already formatted by [`crate::format`]. The report's page,
//! markdown, JSON and terminal output and the notebooks' rich output only render it
//! ([`rich`] for notebooks, [`text`] for terminals); none builds its own table.

pub mod claims;
pub mod figures;
pub mod headline;
mod measured;
pub mod prediction;
pub mod prose;
pub mod rich;
pub mod room;
pub mod runs;
mod sections;
pub mod text;
pub mod tidy;
pub mod workshop;

// Each experiment's presentation (`present::pool`, ...) and `Experiment::visit`, from the
// registry's one list: the registry stays below this layer.
crate::registry::experiments!(presentation);

pub(crate) use measured::{config_notes, per_machine, points_per_machine};
pub use measured::{one_way_of, Measured};
pub use sections::{section, sections};
// The view types live in their leaf module; here too, so `use super::{Cell, ...}` reads on.
pub use crate::view::{Cell, Column, Details, Figure, Finding, NotDrawn, Section, Strip, Table};

use thiserror::Error;

use crate::chart::ChartError;
use crate::experiment::Measure;
use crate::kit::{Effect, EffectValue, HeadlineRow};
use crate::reference::ReferenceText;
use crate::registry::Experiment;
use crate::runs::RunsError;

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

/// Code generic over an experiment's presenting type, run for one [`Experiment`] by
/// [`Experiment::visit`].
pub trait Visitor {
    type Output;
    fn visit<K: Present>(self) -> Self::Output;
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
    fn section(runs: &[crate::runs::Run]) -> Result<Option<Section>, PresentError>;

    /// The articles' tables (`data/reference/`) its section reads: none unless it names some.
    const REFERENCES: &'static [ReferenceText] = &[];

    /// What of this experiment the room compares across machines, in column order: its
    /// numbers, and words such as stride's knee ([`Effect::word`]); none unless it names some.
    const EFFECTS: &'static [Effect] = &[];

    /// Its values of [`Present::EFFECTS`] in `run`; an effect left out is shown as n/a.
    fn effect_values(_run: &crate::runs::Run) -> Vec<EffectValue> {
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
    fn answer(_claim: &str, _context: &claims::Context) -> claims::Answer {
        claims::Answer::unanswered()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_machines_only_when_comparing() {
        let mut section = Section::new("stride", "Stride");
        assert_eq!(section.summary(), "Not measured.");
        section.machines = vec!["a".into()];
        section.findings = vec![Finding::about("a", "One."), Finding::about("a", "Two.")];
        assert_eq!(section.summary(), "One.");
        section.machines.push("b".into());
        section.findings.push(Finding::about("b", "Three."));
        assert_eq!(section.summary(), "a: One. b: Three.");
    }
}
