//! The saved runs themselves: a table of which machine, which CPU, what each measured.

use super::{Cell, Column, Table};
use crate::runs::Run;

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
