//! What became of an experiment where a run does not hold it whole, as its section's status.

use crate::run_format::Run;
use crate::view::Finding;

/// Each run's notes on the experiments named in `experiments` (recovered, interrupted,
/// unreadable: [`crate::run_format::ExperimentNote`]), for a [`crate::view::Section`]'s `status`; after
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
