//! The saved runs themselves: a table of which machine, which CPU, what each measured; and
//! what became of an experiment where a run does not hold it whole.

use super::{Cell, Column, Finding, Table};
use crate::runs::Run;

/// Each run's notes on the experiments named in `experiments` (recovered, interrupted,
/// unreadable: [`crate::runs::ExperimentNote`]), for a [`super::Section`]'s `status`; after
/// the run's label when several runs are shown.
pub fn status(runs: &[Run], experiments: &[&str]) -> Vec<Finding> {
    let mut status = Vec::new();
    for run in runs {
        for note in run.notes.iter().filter(|note| experiments.contains(&note.experiment.as_str())) {
            let text = if runs.len() > 1 { format!("{}: {}", run.label, note.text) } else { note.text.clone() };
            status.push(Finding::about(&run.label, text));
        }
        // What a real runtime beside the experiment left out (cells past its budget, a cell
        // that timed out), as its run recorded it.
        let records = experiments.iter().filter_map(|name| run.manifest.record(name));
        for note in records.filter_map(|record| record.runtime_note()) {
            let text = if runs.len() > 1 { format!("{}: {note}", run.label) } else { note };
            status.push(Finding::about(&run.label, text));
        }
    }
    status
}

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
