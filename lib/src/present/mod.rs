//! The presentation's assembly, above the registry: every experiment's [`Section`] (each
//! experiment draws its own from its folder, through [`crate::kit::Present`]) in the
//! report's order, with the headline, the claims' table, the prose and the room's class
//! summary, every number already formatted by [`crate::format`]. The report's page,
//! markdown, JSON and terminal output and the notebooks' rich output only render it
//! ([`rich`] for notebooks, [`text`] for terminals); none builds its own table. The saved
//! runs themselves are one table too ([`runs_table`]).

pub mod claims;
pub mod figures;
pub mod headline;
pub mod prediction;
pub mod prose;
pub mod rich;
pub mod room;
mod sections;
pub mod text;
pub mod tidy;
pub mod workshop;

pub use crate::kit::{Present, PresentError};
pub use crate::measured::{one_way_of, Measured};
pub use sections::{section, sections};
// The view types live in their leaf module; here too, so `use super::{Cell, ...}` reads on.
pub use crate::view::{Cell, Column, Details, Figure, Finding, NotDrawn, Section, Strip, Table};

use crate::run_format::Run;

/// One row per run: label, CPU, CPUs used, virtual or not, experiments measured.
pub fn runs_table(runs: &[Run]) -> Table {
    let rows = runs
        .iter()
        .map(|run| {
            let machine = &run.manifest.machine;
            // An experiment interrupted or unreadable was not measured into this run.
            let left_out = |name: &str| run.notes.iter().any(|note| note.experiment == name && !note.shown());
            let experiments: Vec<&str> =
                run.manifest.experiments.iter().map(|e| e.name.as_str()).filter(|name| !left_out(name)).collect();
            vec![
                Cell::from(run.label()),
                Cell::from(machine.cpu_model.clone().unwrap_or_else(|| "unknown".into())),
                Cell::from(machine.available_parallelism.to_string()),
                Cell::from(machine.hypervisor.map_or("unknown", |vm| if vm { "yes" } else { "no" })),
                Cell::from(experiments.join(", ")),
            ]
        })
        .collect();
    Table {
        id: "runs",
        caption: "Saved runs".into(),
        columns: vec![
            Column::text("run"),
            Column::text("CPU"),
            Column::number("CPUs used"),
            Column::text("virtual machine"),
            Column::text("experiments"),
        ],
        rows,
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
