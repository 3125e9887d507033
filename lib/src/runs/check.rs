//! A manifest is input like any other: before any file it names is opened, every record is
//! checked (a known experiment, its own CSV in the run folder, listed once, values in range),
//! and a CSV over [`MAX_CSV_BYTES`] is refused rather than read.

use std::path::Path;

use super::{Manifest, RunsError, State};
use crate::limits::MAX_ROWS;
use crate::registry::Experiment;

/// The largest experiment CSV read back: every file the lab writes stays below it (at most
/// [`MAX_ROWS`] rows of under 64 bytes; experiments with longer lines have far fewer rows).
pub const MAX_CSV_BYTES: u64 = 64 << 20;

/// Checks every experiment record of the manifest at `path`.
pub(super) fn check_manifest(path: &Path, manifest: &Manifest) -> Result<(), RunsError> {
    let invalid = |index: usize, field: &str, message: String| RunsError::Invalid {
        path: path.display().to_string(),
        field: format!("experiments[{index}].{field}"),
        message,
    };
    for (index, record) in manifest.experiments.iter().enumerate() {
        let Some(experiment) = Experiment::from_name(&record.name) else {
            let message = format!("unknown experiment '{}' (known: {})", record.name, Experiment::names().join(", "));
            return Err(invalid(index, "name", message));
        };
        if manifest.experiments[..index].iter().any(|earlier| earlier.name == record.name) {
            return Err(invalid(index, "name", format!("'{}' is listed twice", record.name)));
        }
        let own_file = format!("{}.csv", record.name);
        if record.file != own_file {
            let message = format!("'{}': the experiment's file is {own_file}, in the run folder", record.file);
            return Err(invalid(index, "file", message));
        }
        // Some experiments may find nothing to measure (c2c on one CPU: no pair); an
        // experiment not complete has no rows recorded.
        let fewest = usize::from(!experiment.may_have_no_rows() && record.state == State::Complete);
        if record.rows < fewest || record.rows > MAX_ROWS {
            return Err(invalid(index, "rows", format!("{}: {fewest} to {MAX_ROWS}", record.rows)));
        }
        for (field, share) in [("steal_share", record.steal_share), ("background_share", record.background_share)] {
            if let Some(share) = share.filter(|share| !(0.0..=1.0).contains(share)) {
                return Err(invalid(index, field, format!("{share}: a share from 0 to 1")));
            }
        }
    }
    Ok(())
}

/// Refuses a CSV larger than [`MAX_CSV_BYTES`] before reading it.
pub(super) fn check_csv_size(path: &Path, bytes: u64) -> Result<(), RunsError> {
    if bytes > MAX_CSV_BYTES {
        return Err(RunsError::TooLarge { path: path.display().to_string(), bytes, limit: MAX_CSV_BYTES });
    }
    Ok(())
}
