//! The sections of a report, built once here from saved runs for every renderer (page,
//! markdown, JSON, terminal, notebooks): for one or two machines first the articles'
//! headlines ([`super::headline`]); for several machines the room (more than two) or their
//! difference (two); then every registered experiment's, then the articles' claims one by
//! one.

use super::headline::headline_section;
use super::room::{difference_section, room_section, KeyEffects};
use super::{Present, PresentError, Section};
use crate::registry::{Experiment, Visitor};
use crate::runs::Run;

/// The sections of a report over `runs`, in its order.
pub fn sections(runs: &[Run]) -> Result<Vec<Section>, PresentError> {
    let mut sections: Vec<Section> = headline_section(runs)?.into_iter().collect();
    match runs {
        [a, b] => sections.push(difference_section(&KeyEffects::of(a), &KeyEffects::of(b))),
        [_, _, _, ..] => sections.push(room_section(runs)?),
        _ => {}
    }
    for &experiment in Experiment::ALL {
        sections.extend(section(runs, experiment)?);
    }
    sections.push(super::claims::section(runs)?);
    Ok(sections)
}

/// `experiment`'s section over `runs`, with its article's prose; `None` when another
/// section shows it.
pub fn section(runs: &[Run], experiment: Experiment) -> Result<Option<Section>, PresentError> {
    experiment.visit(SectionOf { runs })
}

/// One experiment's section, with its status and its article's prose.
struct SectionOf<'a> {
    runs: &'a [Run],
}

impl Visitor for SectionOf<'_> {
    type Output = Result<Option<Section>, PresentError>;

    fn visit<K: Present>(self) -> Result<Option<Section>, PresentError> {
        let Some(mut section) = K::section(self.runs)? else { return Ok(None) };
        section.status = K::status(self.runs);
        section.prose = super::prose::blocks(K::PROSE);
        Ok(Some(section))
    }
}
