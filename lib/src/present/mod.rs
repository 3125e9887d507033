//! The presentation model: per experiment, one function from what one or several machines
//! measured (and the article's reference data) to a [`Section`] of findings, figures, tables
//! and notes, every number already formatted by [`crate::format`]. The report's page,
//! markdown, JSON and terminal output and the notebooks' rich output only render it
//! ([`rich`] for notebooks, [`text`] for terminals); none builds its own table.

pub mod claims;
pub mod figures;
pub mod headline;
pub mod prediction;
pub mod prose;
pub mod rich;
pub mod room;
pub mod runs;
mod sections;
pub mod text;
pub mod tidy;
pub mod workshop;

pub use crate::kit::{Present, PresentError};
pub use crate::measured::{one_way_of, Measured};
pub use sections::{section, sections};
// The view types live in their leaf module; here too, so `use super::{Cell, ...}` reads on.
pub use crate::view::{Cell, Column, Details, Figure, Finding, NotDrawn, Section, Strip, Table};

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
